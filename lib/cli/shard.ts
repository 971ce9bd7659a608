import { HarnessError } from '../errors';

/** This machine's part of a run split across CI machines: `{ index: 2, count: 3 }` is the second third. */
export interface Shard {
  index: number;
  count: number;
}

/** `--shard i/n` with 1 ≤ i ≤ n, as Jest's and Playwright's `--shard` read it. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count)
    throw new HarnessError('USAGE', `--shard takes i/n with 1 ≤ i ≤ n, got ${JSON.stringify(text)}`, 'e.g. --shard 1/3 on the first of three CI machines');
  return { index, count };
}
