// One memory measurement: `cycles` harnesses created, called once and closed; prints heap use.
import { allowHandler, harness } from './lib.mjs';

const cycles = Number(process.argv[2]);
const { createHarness, review, objects } = harness();
const pod = review.create(objects.pod());
for (let i = 0; i < cycles; i++) {
  const h = await createHarness({ target: allowHandler, seed: i });
  await h.call({ type: 'validating' }, pod);
  await h.close();
}
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc();
console.log(JSON.stringify({ heapMB: process.memoryUsage().heapUsed / 2 ** 20, rssMB: process.memoryUsage().rss / 2 ** 20 }));
