// Vitest in a CommonJS project (no "type": "module"; this file compiles to require calls): the matchers
// registered by 'admission-harness/vitest' are typed on Vitest's expect. Never executed; `tsc --noEmit`
// must pass with the @ts-expect-error line really being an error.
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
  expect(outcome).not.toBeAllowed();
  // @ts-expect-error no such matcher: proves the matchers are typed, not `any`
  expect(outcome).toBeAllowd();
  await h.close();
}
