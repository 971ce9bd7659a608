import { createHarness, review, objects, type Harness } from 'admission-harness';
import 'admission-harness/jest'; // or list it in setupFilesAfterEnv; Vitest: 'admission-harness/vitest'
import { app } from '../src/app'; // your Express / Koa / Fastify app, or a (req, res) handler

let h: Harness;
beforeAll(async () => {
  // Your real manifests: clientConfig is re-pointed at the app, served on loopback TLS.
  h = await createHarness({ target: app, manifests: [`${__dirname}/../deploy/webhooks.yaml`], seed: 42 });
});
afterAll(() => h.close());

it('denies :latest images', async () => {
  const outcome = await h.call('image-policy.example.com', review.create(objects.pod({ images: ['nginx:latest'] })));
  expect(outcome).toEchoUid();
  expect(outcome).toBeDenied({ code: 403, message: /:latest/ });
});
