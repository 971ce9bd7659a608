import type { LoadedFixture } from './fixture';

/**
 * FNV-1a (32 bits) of a fixture's name. A fixture's shard follows from its own name alone, not from its
 * position: adding or removing a recording moves no other fixture to another machine, and every
 * machine computes the same split from the same names without talking to the others.
 */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * The 1-based shard of `count` a fixture belongs to, by its file's name (its `name` without `#n`): a
 * file's documents stay on one machine, so `--update` never has two machines rewriting one file.
 */
export function shardOfFixture(name: string, count: number): number {
  return (fnv1a(name.replace(/#\d+$/, '')) % count) + 1;
}

/** The fixtures of shard `index` of `count`, in their loading order; the shards partition the fixtures. */
export function fixturesOfShard(fixtures: readonly LoadedFixture[], shard: { index: number; count: number }): LoadedFixture[] {
  return fixtures.filter((fixture) => shardOfFixture(fixture.name, shard.count) === shard.index);
}
