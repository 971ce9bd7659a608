// Type-level consumer check (CommonJS module: resolves the "require" type entries, dist/*.d.ts).
// Never executed; `tsc --noEmit` must pass with the @ts-expect-error lines really being errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHarness, objects, review, type Harness, type HarnessCallOutcome } from 'admission-harness';
import { matchers, type HarnessMatchers } from 'admission-harness/jest';
import { expect as globalsExpect } from '@jest/globals';

export async function typesCheck(): Promise<void> {
  const deny = (_req: IncomingMessage, res: ServerResponse): void => {
    res.end();
  };
  const h: Harness = await createHarness({ target: deny, seed: 1 });
  const outcome: HarnessCallOutcome = await h.call({ type: 'validating', path: '/validate' }, review.create(objects.pod()));

  // @types/jest's global `expect` (declare global { namespace jest { interface Matchers } }).
  expect(outcome).toBeDenied({ code: 403 });
  expect(outcome).toBeDenied({ code: 403, message: /forbidden/, reason: 'Forbidden' });
  expect(outcome).toBeDenied();
  expect(outcome).not.toBeAllowed();
  expect(outcome).toEchoUid();
  // @ts-expect-error code is a number
  expect(outcome).toBeDenied({ code: '403' });
  // @ts-expect-error no such matcher: proves the matchers are typed, not `any`
  expect(outcome).toBeAllowd();

  // `import { expect } from '@jest/globals'` (declare module 'expect' { interface Matchers }).
  globalsExpect(outcome).toBeDenied({ code: 403 });
  globalsExpect(outcome).not.toEchoUid();
  // @ts-expect-error no such matcher
  globalsExpect(outcome).toBeAllowd();

  const typed: Pick<HarnessMatchers<void>, 'toBeAllowed' | 'toBeDenied' | 'toEchoUid'> = { toBeAllowed() {}, toBeDenied() {}, toEchoUid() {} };
  expect(outcome).not.toHavePatch();
  void typed;
  expect.extend(matchers);
  await h.close();
}
