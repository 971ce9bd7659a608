// Shared pieces of the benchmarks: a plain webhook handler, a raw keep-alive HTTPS client as the
// baseline, and timing helpers.
import https from 'node:https';
import { createRequire } from 'node:module';

export const require = createRequire(import.meta.url);
export const harness = () => require('../dist/index.cjs');

const chainHook = (name) => ({
  name,
  clientConfig: { url: `https://${name}/` },
  rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});
const chainConfig = (kind, name, hooks) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks: hooks.map(chainHook) });

/**
 * A harness with 3 mutating and 2 validating stub webhooks that allow everything: the chain benchmarks'
 * admission chain. `library` is the package's main module (another build's, for an A/B).
 */
export function chainHarness(library = harness()) {
  const { createHarness, stub } = library;
  const names = ['m1.example.com', 'm2.example.com', 'm3.example.com', 'v1.example.com', 'v2.example.com'];
  return createHarness({
    seed: 1,
    manifests: [chainConfig('MutatingWebhookConfiguration', 'm', names.slice(0, 3)), chainConfig('ValidatingWebhookConfiguration', 'v', names.slice(3))],
    stubs: Object.fromEntries(names.map((n) => [n, stub.allow()])),
  });
}

/** The smallest correct webhook: echo uid and version, allow. */
export function allowHandler(req, res) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const review = JSON.parse(Buffer.concat(chunks).toString());
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
  });
}

/**
 * The baselines' webhook: `allowHandler` on loopback TLS with a certificate of the shared harness CA,
 * and a raw poster to it.
 */
export async function startAllowServer() {
  const ca = await harness().sharedAuthority();
  const server = https.createServer(await ca.issueServing(), allowHandler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  const poster = (headers) => rawPoster({ host: '127.0.0.1', port, ca: ca.cert, servername: 'localhost', headers });
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { port, ca: ca.cert, poster, close };
}

/** The baselines' request body: `review` as encoded for a call, with a fixed uid (returned too). */
export function fixedBody(review) {
  const uid = '00000000-0000-4000-8000-000000000000';
  return { uid, body: JSON.stringify(harness().encodeReview(review.attributes, 'v1', uid)) };
}

/**
 * A raw HTTPS POST over a keep-alive agent, verified against `ca`: what a hand-written test would do.
 * `headers` are sent besides Content-Type and Content-Length.
 */
export function rawPoster({ host, port, ca, servername, headers = {} }) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: 64 });
  const post = (path, body) =>
    new Promise((resolve, reject) => {
      const req = https.request(
        {
          host,
          port,
          method: 'POST',
          path,
          ca,
          servername,
          agent,
          headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}

/** Runs `task` `count` times with `concurrency` in flight; returns elapsed ms. */
export async function timeLoop(count, concurrency, task) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await task();
      }
    }),
  );
  return performance.now() - started;
}

/**
 * Times `ours` against `baseline` in alternating rounds (the order flips every round, the first round
 * is warm-up) and keeps each round's ratio: on a shared machine, speed drifts between rounds, and a
 * ratio taken within one round cancels that drift where a ratio of two medians would not.
 */
export async function paired(rounds, measureOurs, measureBaseline) {
  const samples = [];
  const baseline = [];
  const ratios = [];
  for (let i = 0; i <= rounds; i++) {
    let ours;
    let base;
    if (i % 2) {
      ours = await measureOurs();
      base = await measureBaseline();
    } else {
      base = await measureBaseline();
      ours = await measureOurs();
    }
    if (i === 0) continue;
    samples.push(ours);
    baseline.push(base);
    ratios.push(ours / base);
  }
  return { samples, baseline, ratios };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
