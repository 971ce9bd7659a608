// memory: resident memory after 1 000 createHarness()/close() cycles against after 10, in a fresh
// process each (with GC forced), so growth means something is left behind.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function memory() {
  const run = (cycles) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(here, 'memory-child.mjs'), String(cycles)], { encoding: 'utf8' }));
  const few = run(10);
  const many = run(Number(process.env.BENCH_CYCLES ?? 1000));
  return [{ name: 'memory', unit: 'MB heap', samples: [many.heapMB], baseline: [few.heapMB], goal: 'no growth beyond noise (≤ 1.2× of 10 cycles)', goalRatio: 1.2 }];
}
