// memory: the heap after 1 000 createHarness()/close() cycles against after 10, and after 3 000
// admissions through five stubs in one harness against after 300 (a long test file), in a fresh process
// each (with GC forced), so growth means something is left behind.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function memory() {
  const run = (child, count) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', path.join(here, child), String(count)], { encoding: 'utf8' }));
  const few = run('memory-child.mjs', 10);
  const many = run('memory-child.mjs', Number(process.env.BENCH_CYCLES ?? 1000));
  const short = run('memory-admits-child.mjs', 300);
  const long = run('memory-admits-child.mjs', Number(process.env.BENCH_ADMITS_LONG ?? 3000));
  return [
    { name: 'memory', unit: 'MB heap', samples: [many.heapMB], baseline: [few.heapMB], goal: 'no growth beyond noise (≤ 1.2× of 10 cycles)', goalRatio: 1.2 },
    {
      name: 'memory, admits',
      unit: 'MB heap',
      samples: [long.heapMB],
      baseline: [short.heapMB],
      goal: 'a long file keeps what it must (stub received, coverage) off the heap (≤ 1.2× of 300 admits)',
      goalRatio: 1.2,
    },
  ];
}
