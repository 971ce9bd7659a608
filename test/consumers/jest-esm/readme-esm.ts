// An ES module has no __dirname: name manifests with a URL relative to the spec itself.
import { createHarness, objects, review } from 'admission-harness';
import { app } from './app.js';

const h = await createHarness({ target: app, manifests: [new URL('./deploy/webhooks.yaml', import.meta.url)], seed: 1 });

test('allows a pod', async () => {
  expect(await h.call('pod-policy.example.com', review.create(objects.pod()))).toBeAllowed();
});

afterAll(() => h.close());
