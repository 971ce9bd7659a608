// Type-level consumer check for Vitest (ES module, "import" conditions: dist/*.d.mts): the matchers
// registered by 'admission-harness/vitest' are typed on Vitest's expect. Never executed; `tsc --noEmit`
// must pass with the @ts-expect-error lines really being errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { expect } from 'vitest';
import 'admission-harness/vitest';
import { createHarness, objects, review, type HarnessCallOutcome } from 'admission-harness';

export async function typesCheck(): Promise<void> {
  const deny = (_req: IncomingMessage, res: ServerResponse): void => {
    res.end();
  };
  const h = await createHarness({ target: deny, seed: 1 });
  const outcome: HarnessCallOutcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));
  expect(outcome).toBeDenied({ code: 403 });
  expect(outcome).toBeDenied({ code: 403, message: /forbidden/, reason: 'Forbidden' });
  expect(outcome).not.toBeAllowed();
  expect(outcome).toEchoUid();
  // @ts-expect-error code is a number
  expect(outcome).toBeDenied({ code: '403' });
  // @ts-expect-error no such matcher: proves the matchers are typed, not `any`
  expect(outcome).toBeAllowd();
  // Asymmetric form (AsymmetricMatchersContaining).
  expect({ outcome }).toEqual({ outcome: expect.toBeAllowed() });
  await h.close();
}
