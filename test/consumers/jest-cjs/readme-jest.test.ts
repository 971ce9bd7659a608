// A TypeScript spec in a CommonJS Jest project: transformed by @swc/jest, the matchers registered by
// setupFilesAfterEnv alone (no import here) and typed through tsconfig's "types".
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, type Harness } from 'admission-harness';

function allow(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    const { apiVersion, request } = JSON.parse(body) as { apiVersion: string; request: { uid: string } };
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ apiVersion, kind: 'AdmissionReview', response: { uid: request.uid, allowed: true } }));
  });
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: allow, manifests: [path.join(__dirname, 'deploy/webhooks.yaml')], seed: 1 });
});
afterAll(() => h.close());

test('allows a pod', async () => {
  const outcome = await h.call('pod-policy.example.com', review.create(objects.pod()));
  expect(outcome).toBeAllowed();
  expect(outcome).toEchoUid();
});
