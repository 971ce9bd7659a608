// The ImagePolicyWebhook example of docs/imagepolicy-webhook.md, run as written (its imports aside): a backend that refuses
// `:latest`, tested through the plugin from the AdmissionConfiguration kube-apiserver is given.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { createHarness, manualClock, objects, review, type Harness } from '../../lib';
import '../../matchers/jest';

jest.setTimeout(60_000);

// imagePolicyBackend: your backend (a request handler, an Express/Koa/Fastify app, or { url, ca }).
// Here: it answers each ImageReview, refusing images tagged latest.
function imagePolicyBackend(req: IncomingMessage, res: ServerResponse): void {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    const reviewed = JSON.parse(body) as { apiVersion: string; spec: { containers?: { image?: string }[] } };
    const latest = (reviewed.spec.containers ?? []).find((c) => c.image?.endsWith(':latest'));
    const status = latest ? { allowed: false, reason: `${latest.image} is not pinned` } : { allowed: true };
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ apiVersion: reviewed.apiVersion, kind: 'ImageReview', status }));
  });
}

describe('image policy backend', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      namespaces: [{ name: 'shop' }],
      imagePolicy: { admissionConfig: 'test/imagepolicy/example/admission.yaml', target: imagePolicyBackend, clock: manualClock() },
    });
  });
  afterAll(() => h.close());

  it('refuses unpinned images, with the text kube-apiserver answers', async () => {
    const pod = objects.pod({ name: 'web', namespace: 'shop', spec: { containers: [{ name: 'app', image: 'nginx:latest' }] } });
    expect(await h.imageReview(pod)).toBeImageDenied(
      'pods "web" is forbidden: image policy webhook backend denied one or more images: nginx:latest is not pinned',
    );
    const result = await h.admit(review.create(pod));
    expect(result).toBeDenied({ code: 403 });
  });

  it('allows pinned ones, and answers the same pod from its cache', async () => {
    const pod = objects.pod({ name: 'api', namespace: 'shop', spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] } });
    expect(await h.imageReview(pod)).toBeImageAllowed();
    expect(await h.imageReview(pod)).toMatchObject({ fromCache: true, backendRequests: 0 });
  });

  it('is the example of docs/imagepolicy-webhook.md', () => {
    const page = readFileSync(path.join(__dirname, '../../docs/imagepolicy-webhook.md'), 'utf8');
    const block = /## A spec[\s\S]*?```ts\n([\s\S]*?)```/.exec(page)?.[1];
    const source = readFileSync(__filename, 'utf8');
    for (const line of (block ?? 'missing').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('import'))) expect(source).toContain(line);
  });
});
