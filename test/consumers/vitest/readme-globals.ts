// Vitest with `globals: true`: no imports of 'vitest'; tsconfig's "types" has "vitest/globals" and
// "admission-harness/vitest", and setupFiles has 'admission-harness/vitest'.
import { createHarness, objects, review } from 'admission-harness';
import { app } from './app.js';

test('allows a pod', async () => {
  const h = await createHarness({ target: app, seed: 1 });
  const outcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
  expect(outcome).toBeAllowed();
  await h.close();
});
