// One fresh process: how long the registry's first use costs (its chunk and the schema table load),
// then a patched object's decode, comparison and defaulting.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createHarness, objects } = require('../dist/index.cjs');
const h = await createHarness({ seed: 1 });
const pod = objects.pod({ name: 'web', namespace: 'default' }, { seed: 1 });
const patched = { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, team: 'shop' } } };
const kind = { group: '', version: 'v1', kind: 'Pod' };
const started = performance.now();
await h.registry.ready();
h.registry.decodePatched(kind, pod, patched, false);
const firstMs = performance.now() - started;
await h.close();
process.stdout.write(JSON.stringify({ firstMs }));
