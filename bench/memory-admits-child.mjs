// One memory measurement of a long suite: `admits` h.admit() through 3 mutating + 2 validating stubs in one
// harness; prints the heap in use after a forced collection.
import { chainHarness, harness } from './lib.mjs';

const admits = Number(process.argv[2]);
const { review, objects } = harness();
const h = await chainHarness();
const pod = review.create(objects.pod());
for (let i = 0; i < admits; i++) await h.admit(pod);
globalThis.gc();
await new Promise((resolve) => setTimeout(resolve, 50));
globalThis.gc();
console.log(JSON.stringify({ heapMB: process.memoryUsage().heapUsed / 2 ** 20 }));
await h.close();
