// One cold measurement in a fresh process: `harness DIST` times require() of DIST/index.cjs, then
// createHarness() to the first verified response; `baseline` times a bare https.createServer + https.request round trip with certificates
// made beforehand; `import-jest` times loading the Jest matchers. Prints one JSON line.
import https from 'node:https';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allowHandler, require } from './lib.mjs';

const mode = process.argv[2];

if (mode === 'import-jest') {
  // What a spec file's `import 'admission-harness/jest'` costs; Jest's global `expect` is all it needs.
  globalThis.expect = { extend() {} };
  const start = performance.now();
  require('../dist/jest.cjs');
  console.log(JSON.stringify({ ms: performance.now() - start }));
} else if (mode === 'harness') {
  const importStart = performance.now();
  const { createHarness, review, objects } = require(path.join(process.argv[3], 'index.cjs'));
  const importMs = performance.now() - importStart;
  // The review is the test's own input (its first object also starts faker): built before the clock starts.
  const pod = review.create(objects.pod());
  const start = performance.now();
  const h = await createHarness({ target: allowHandler, seed: 1 });
  const outcome = await h.call({ type: 'validating', path: '/v' }, pod);
  const ms = performance.now() - start;
  await h.close();
  if (!outcome.allowed) throw new Error(outcome.error?.message ?? 'not allowed');
  console.log(JSON.stringify({ ms, importMs }));
} else {
  const { key, cert, ca } = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const body = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u' } });
  const start = performance.now();
  const server = https.createServer({ key, cert }, allowHandler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new https.Agent({ keepAlive: true });
  await new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: server.address().port,
        method: 'POST',
        path: '/v',
        ca,
        servername: 'localhost',
        agent,
        headers: { 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  const ms = performance.now() - start;
  agent.destroy();
  server.closeAllConnections();
  server.close();
  console.log(JSON.stringify({ ms }));
}
