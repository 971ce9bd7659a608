// `replay --shard i/n`: a fixture directory split across CI machines, each computing its part alone.
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import { fixturesOfShard, loadFixtures, shardOfFixture, type LoadedFixture } from '../../lib/replay';
import { cli } from '../cli/captured';
import { MANIFESTS, MUTATE, recorded, tempDir, writeFile } from './helpers';

const EXAMPLE = path.join(__dirname, '../../examples/pod-defaults/src/app.ts');
const temp = tempDir('shard');
let fixtures: LoadedFixture[];

beforeAll(async () => {
  const { app } = (await import(EXAMPLE)) as { app: never };
  const h = await createHarness({ target: app, manifests: [MANIFESTS], namespaces: [{ name: 'shop' }], seed: 9 });
  try {
    const outcomes = [];
    for (let i = 1; i <= 12; i++)
      outcomes.push(await h.call(MUTATE, review.create(objects.pod({ name: `web-${i}`, namespace: 'shop', images: ['nginx:1.27'] }, { seed: i }))));
    writeFixtures(
      temp.dir,
      outcomes.map((o, i) => recorded(o, i + 1)),
    );
    // One file of two documents: both go to the same machine.
    writeFile(temp.dir, 'stream.yaml', [
      { apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', ...recorded(outcomes[0]!, 90) },
      { apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', ...recorded(outcomes[1]!, 91) },
    ]);
  } finally {
    await h.close();
  }
  fixtures = loadFixtures([temp.dir]);
});
afterAll(() => temp.remove());

describe('fixturesOfShard', () => {
  it('partitions the fixtures: every fixture in exactly one shard, in loading order', () => {
    expect(fixtures).toHaveLength(14);
    for (const count of [1, 2, 3, 5]) {
      const shards = Array.from({ length: count }, (_, i) => fixturesOfShard(fixtures, { index: i + 1, count }));
      expect(
        shards
          .flat()
          .map((f) => f.name)
          .sort(),
      ).toEqual(fixtures.map((f) => f.name).sort());
      for (const shard of shards) expect(shard).toEqual(fixtures.filter((f) => shard.includes(f)));
    }
    // Hashing spreads 13 files over 3 shards: none is empty.
    expect([1, 2, 3].map((index) => fixturesOfShard(fixtures, { index, count: 3 }).length).every((n) => n > 0)).toBe(true);
  });

  it("follows each fixture's file name alone: adding or removing a recording moves no other fixture", () => {
    const before = new Map(fixtures.map((f) => [f.name, shardOfFixture(f.name, 4)]));
    const fewer = fixtures.filter((f) => f.name !== 'pods-create-3.yaml');
    for (const f of fewer) expect(fixturesOfShard(fewer, { index: before.get(f.name)!, count: 4 })).toContain(f);
  });

  it("keeps a file's documents together, so `--update` never has two machines rewriting one file", () => {
    expect(shardOfFixture('stream.yaml#2', 7)).toBe(shardOfFixture('stream.yaml', 7));
    const stream = fixtures.filter((f) => f.name.startsWith('stream.yaml'));
    expect(stream.map((f) => f.name)).toEqual(['stream.yaml', 'stream.yaml#2']);
    expect(new Set(stream.map((f) => shardOfFixture(f.name, 5))).size).toBe(1);
  });
});

describe('replay --shard and --coverage-threshold', () => {
  it('replays only its part and says which; the parts together replay every fixture', async () => {
    const counts: number[] = [];
    for (const part of ['1/3', '2/3', '3/3']) {
      const result = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--shard', part, '--json');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as { passed: number; shard: { index: number; count: number }; fixtures: { name: string }[] };
      expect(report.shard).toEqual({ index: Number(part[0]), count: 3 });
      expect(report.passed).toBe(report.fixtures.length);
      counts.push(report.fixtures.length);
    }
    expect(counts.reduce((a, b) => a + b)).toBe(14);
    const text = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--shard', '2/3');
    expect(text.stdout).toContain(`· shard 2/3: ${counts[1]} of 14 fixtures`);
  });

  it('refuses a shard that is not i/n with 1 ≤ i ≤ n (exit 2)', async () => {
    for (const bad of ['0/3', '4/3', '1-3', 'x']) {
      const result = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--shard', bad);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`admission-harness: --shard takes i/n with 1 ≤ i ≤ n, got ${JSON.stringify(bad)}`);
    }
  });

  it('prints the coverage of the replayed requests, and fails (exit 1) below --coverage-threshold, naming the webhook', async () => {
    const met = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--coverage-threshold', '10');
    expect(met.stdout).toContain('admission coverage (the replayed requests):');
    expect(met.code).toBe(0);
    // Only pod creations were recorded: the webhook's UPDATE cells and its selectors' other branches are not covered.
    const below = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--coverage-threshold', '100', '--json');
    expect(below.code).toBe(1);
    const report = JSON.parse(below.stdout) as {
      failed: number;
      coverage: { threshold: number; thresholdMet: boolean; webhooks: { name: string; percent: number }[] };
    };
    expect(report.failed).toBe(0);
    expect(report.coverage).toMatchObject({ threshold: 100, thresholdMet: false });
    const text = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--webhook', MUTATE, '--coverage-threshold', '100');
    expect(text.code).toBe(1);
    const mutating = report.coverage.webhooks.find((w) => w.name === MUTATE)!;
    expect(text.stdout).toContain(`admission coverage below the threshold of 100%:\n  mutating pod-defaults/${MUTATE}: ${mutating.percent}%`);
  });

  it('refuses a threshold that is not a percentage (exit 2)', async () => {
    for (const bad of ['101', '250', 'most', '']) {
      const result = await cli('replay', temp.dir, '--manifests', MANIFESTS, '--module', EXAMPLE, '--coverage-threshold', bad);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`admission-harness: --coverage-threshold takes a percentage from 0 to 100, got ${JSON.stringify(bad)}`);
    }
  });
});
