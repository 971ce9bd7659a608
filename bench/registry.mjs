// registry: what the API does to a patched object (decode into its Go type, semantic comparison,
// defaulting), per patch, against the cheapest thing the harness could do instead (a JSON round trip of
// the object); and its first use in a fresh process (its chunk and the schema table loading) against
// a fresh process that only loads the library.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { harness } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const child = fileURLToPath(new URL('./registry-child.mjs', import.meta.url));

export async function registry() {
  const { createHarness, objects } = harness();
  const h = await createHarness({ seed: 1 });
  await h.registry.ready();
  const kind = { group: '', version: 'v1', kind: 'Pod' };
  const pod = objects.pod({ name: 'web', namespace: 'default' }, { seed: 1 });
  const patched = { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, team: 'shop' } } };
  const COUNT = 2_000;
  for (let k = 0; k < 500; k++) h.registry.decodePatched(kind, pod, patched, false);
  const decodes = [];
  const copies = [];
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    for (let k = 0; k < COUNT; k++) h.registry.decodePatched(kind, pod, patched, false);
    decodes.push((performance.now() - started) / COUNT);
    started = performance.now();
    for (let k = 0; k < COUNT; k++) JSON.parse(JSON.stringify(patched));
    copies.push((performance.now() - started) / COUNT);
  }
  await h.close();
  const first = [];
  for (let i = 0; i < RUNS; i++) first.push(JSON.parse(execFileSync(process.execPath, [child], { encoding: 'utf8' })).firstMs);
  return [
    {
      name: 'registry',
      unit: 'ms/patch',
      samples: decodes,
      baseline: copies,
      goal: 'a patched pod decoded, compared and defaulted (baseline: a JSON round trip of it)',
    },
    {
      name: 'registry/first',
      unit: 'ms',
      samples: first,
      baseline: undefined,
      goal: 'first use in a process: its chunk and the schema table load (not on import)',
    },
  ];
}
