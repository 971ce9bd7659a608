// Vitest: import 'admission-harness/vitest' once, before or after 'vitest' (or list it in setupFiles).
import 'admission-harness/vitest';
import { afterAll, expect, test } from 'vitest';
import { createHarness, objects, review } from 'admission-harness';
import { app } from './app.js';

const h = await createHarness({ target: app, manifests: [new URL('./deploy/webhooks.yaml', import.meta.url)], seed: 1 });
afterAll(() => h.close());

test('allows a pod', async () => {
  const outcome = await h.call('pod-policy.example.com', review.create(objects.pod()));
  expect(outcome).toBeAllowed();
  expect({ outcome }).toEqual({ outcome: expect.toEchoUid() });
});
