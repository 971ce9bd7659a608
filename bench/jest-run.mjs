// jest: what a user's test run feels like. A fresh Jest process (what `npx jest` starts) runs 10 spec
// files, each creating a harness and making 20 h.admit calls through 3 webhooks (2 mutating, 1
// validating) of an in-process webhook; against a fresh Jest process running 10 spec files that start
// the same webhook on loopback TLS themselves and make the same 60 HTTPS POSTs of the same review, by
// hand. Both read the same pod and the same certificates from files written beforehand; the runs
// alternate, and each pair's own ratio is kept.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowHandler, fixedBody, harness, paired, require } from './lib.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_JEST_ROUNDS ?? 3);
const FILES = 10;
const ADMITS = 20;

const hook = (name) => ({
  name,
  clientConfig: { url: `https://${name}/` },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
const manifests = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'm' },
    webhooks: [hook('m1.example.com'), hook('m2.example.com')],
  },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [hook('v1.example.com')] },
];

const harnessSpec = (data) => `const { readFileSync } = require('node:fs');
const { createHarness, review } = require('admission-harness');
const handler = ${allowHandler.toString()};
const { pod, manifests } = JSON.parse(readFileSync(${JSON.stringify(data)}, 'utf8'));
let h;
beforeAll(async () => {
  h = await createHarness({ target: handler, manifests, seed: 1 });
});
afterAll(() => h.close());
test('admits', async () => {
  for (let i = 0; i < ${ADMITS}; i++) expect((await h.admit(review.create(pod))).allowed).toBe(true);
});
`;

const rawSpec = (data) => `const https = require('node:https');
const { readFileSync } = require('node:fs');
const handler = ${allowHandler.toString()};
const { body, key, cert, ca } = JSON.parse(readFileSync(${JSON.stringify(data)}, 'utf8'));
let server;
let agent;
const post = (path) =>
  new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port: server.address().port, method: 'POST', path, ca, servername: 'localhost', agent, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
beforeAll(async () => {
  server = https.createServer({ key, cert }, handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  agent = new https.Agent({ keepAlive: true });
});
afterAll(async () => {
  agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
test('admits', async () => {
  for (let i = 0; i < ${ADMITS}; i++) {
    for (const path of ['/m1', '/m2', '/v1']) expect((await post(path)).response.allowed).toBe(true);
  }
});
`;

/** A folder of spec files with its own Jest configuration (no transform, the package mapped to dist). */
function project(dir, spec) {
  mkdirSync(dir);
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(dir, `admit-${i}.test.js`), spec);
  const config = {
    rootDir: dir,
    testEnvironment: 'node',
    transform: {},
    watchman: false,
    cacheDirectory: path.join(dir, '.cache'),
    moduleNameMapper: { '^admission-harness$': path.join(root, 'dist', 'index.cjs') },
  };
  writeFileSync(path.join(dir, 'jest.config.json'), JSON.stringify(config));
  return dir;
}

export async function jest() {
  const { review, objects, sharedAuthority } = harness();
  const pod = objects.pod({ namespace: 'default' }, { seed: 1 });
  const ca = await sharedAuthority();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-jest-'));
  const data = path.join(dir, 'data.json');
  writeFileSync(data, JSON.stringify({ pod, manifests, body: fixedBody(review.create(pod)).body, ...(await ca.issueServing()), ca: ca.cert }));
  const ours = project(path.join(dir, 'harness'), harnessSpec(data));
  const raw = project(path.join(dir, 'raw'), rawSpec(data));
  const bin = require.resolve('jest/bin/jest', { paths: [root] });
  // Jest finds each folder's jest.config.json from its working directory, as `npx jest` in a project does.
  const run = (cwd) => {
    const started = performance.now();
    const jestRun = spawnSync(process.execPath, [bin, '--ci', '--silent'], { cwd, encoding: 'utf8' });
    if (jestRun.status !== 0) throw new Error(`jest failed in ${cwd}:\n${jestRun.stderr}`);
    return performance.now() - started;
  };
  try {
    const rounds = await paired(
      ROUNDS,
      async () => run(ours),
      async () => run(raw),
    );
    return [{ name: 'jest run', ...rounds, goal: `≤ 1.15× the same ${FILES} files making the ${3 * ADMITS} POSTs each by hand`, goalRatio: 1.15 }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
