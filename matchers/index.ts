import { toBeAllowed } from './to-be-allowed';
import { toBeDenied, type DenialExpectation } from './to-be-denied';
import { toEchoUid } from './to-echo-uid';

/** Every harness matcher, for `expect.extend(matchers)` in any Jest-compatible runner. */
export const matchers = { toBeAllowed, toBeDenied, toEchoUid };

/** The matcher signatures, to merge into a runner's Matchers/Assertion interface. */
export interface HarnessMatchers<R = unknown> {
  /** The webhook answered validly and allowed the request. */
  toBeAllowed(): R;
  /** The webhook answered validly and denied the request, with the Status the client would receive. */
  toBeDenied(expected?: DenialExpectation): R;
  /** The response echoes the request's uid. */
  toEchoUid(): R;
}

export type { DenialExpectation };
