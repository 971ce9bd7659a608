import type { JsonPatchOperation, KubeObject } from '../lib/kube/admission';
import type { Review } from '../lib/review/review';
import type { AsymmetricMatcherLike } from './context';
import type { Peer } from '../lib/outcome/reinvoke';
import { toBeAllowed } from './to-be-allowed';
import { toBeDenied, type DenialExpectation } from './to-be-denied';
import { toBeIdempotentFor, type IdempotenceOptions } from './to-be-idempotent-for';
import { toEchoUid } from './to-echo-uid';
import { toHaveAuditAnnotation } from './to-have-audit-annotation';
import { toHavePatch } from './to-have-patch';
import { toHavePatchOps } from './to-have-patch-ops';
import { toHavePatchedTo } from './to-have-patched-to';
import { toHaveWarning } from './to-have-warning';
import { toCauseNoWrites } from './to-cause-no-writes';
import { toLeaveUnchanged } from './to-leave-unchanged';
import { toProduceValidObject } from './to-produce-valid-object';
import { toPassPodSecurity } from './to-pass-pod-security';
import type { Level } from '../lib/plugins/pod-security';
import { toRespondWithin, type LatencyBudget, type LatencyOptions } from './to-respond-within';
import { toBeImageAllowed, toBeImageDenied } from './to-pass-image-policy';
import { toConvertRoundTrip } from './to-convert-round-trip';
import { toFailConversionWith } from './to-fail-conversion-with';

/** Every harness matcher, for `expect.extend(matchers)` in any Jest-compatible runner. */
export const matchers = {
  toBeAllowed,
  toBeDenied,
  toEchoUid,
  toHavePatch,
  toHavePatchOps,
  toHavePatchedTo,
  toLeaveUnchanged,
  toProduceValidObject,
  toPassPodSecurity,
  toHaveWarning,
  toCauseNoWrites,
  toHaveAuditAnnotation,
  toBeIdempotentFor,
  toRespondWithin,
  toBeImageAllowed,
  toBeImageDenied,
  toConvertRoundTrip,
  toFailConversionWith,
};

/** The matcher signatures, to merge into a runner's Matchers/Assertion interface. */
export interface HarnessMatchers<R = unknown> {
  /** The webhook answered validly and allowed the request. */
  toBeAllowed(): R;
  /** The webhook answered validly and denied the request, with the Status the client would receive. */
  toBeDenied(expected?: DenialExpectation): R;
  /** The response echoes the request's uid. */
  toEchoUid(): R;
  /** `h.call()` only: the webhook allowed the request with a non-empty JSON Patch. */
  toHavePatch(): R;
  /**
   * `h.call()` only: the decoded JSON Patch equals `ops` (no patch counts as `[]`); asymmetric matchers
   * such as `expect.arrayContaining([...])` work.
   */
  toHavePatchOps(ops: readonly JsonPatchOperation[] | AsymmetricMatcherLike): R;
  /**
   * The object after the patch, as kube-apiserver continues with it (`h.call()`: the JSON Patch applied,
   * decoded into its kind, defaulted), or the admitted object (`h.admit()`), equals `expected`, whole or
   * through asymmetric matchers. Without a resulting object (a failed call, a denial, a rejection, a patch
   * that does not apply or decode) it fails, negated or not, with kube-apiserver's error.
   */
  toHavePatchedTo(expected: KubeObject | AsymmetricMatcherLike): R;
  /** `h.call()` only: the webhook allowed the request and its answer leaves the object as it was. */
  toLeaveUnchanged(): R;
  /**
   * `h.call()` only: the object the webhook's patch produces decodes into its kind and passes the API's
   * own validation (the 422 kube-apiserver answers before any validating webhook).
   */
  toProduceValidObject(): R;
  /**
   * The pod the result leaves (`h.call()`: after the webhook's patch; `h.admit()`: the admitted object),
   * or a workload's pod template, passes the Pod Security Standards at `level` (and `version`, `latest`
   * by default), as the PodSecurity admission plugin judges it.
   */
  toPassPodSecurity(level: Level, version?: string): R;
  /**
   * A warning contains `text` or matches the pattern: the webhook's own (`h.call()`), or those the
   * client receives (`h.admit()`).
   */
  toHaveWarning(text: string | RegExp): R;
  /**
   * The audit annotation `key` is set (to `value`, if given): the webhook's own key (`h.call()`), or
   * the request's `<webhook>/<key>` (`h.admit()`).
   */
  toHaveAuditAnnotation(key: string, value?: string | RegExp | AsymmetricMatcherLike): R;
  /** The webhook changed nothing in the mock API while handling the request (dryRun writes aside). */
  toCauseNoWrites(): R;
  /**
   * On `h.webhook(name)`: called again with its own output (after `peers`' patches), the webhook
   * still allows the request, does not redo its own changes and keeps the peers' (without peers: changes
   * nothing), as kube-apiserver's reinvocation requires.
   */
  toBeIdempotentFor(review: Review, options?: IdempotenceOptions): Promise<R>;
  /**
   * On `h.webhook(name)`: under `concurrency` calls in flight, the p99 latency of `samples` calls is
   * within `budget` (real ms, or the webhook's scaled timeoutSeconds) and none ran into its deadline.
   */
  toRespondWithin(budget: LatencyBudget, options: LatencyOptions): Promise<R>;
  /** `h.imageReview()` only: ImagePolicyWebhook allowed the pod (the backend or its cache said so, not defaultAllow). */
  toBeImageAllowed(): R;
  /** `h.imageReview()` only: ImagePolicyWebhook refused the pod, its Status message matching `message` if given. */
  toBeImageDenied(message?: string | RegExp | AsymmetricMatcherLike): R;
  /**
   * On a harness: `object` converted to `via` through its CRD's conversion webhook and back to its own
   * version comes back as it was sent (v1→v2→v1 gives back the object).
   */
  toConvertRoundTrip(object: KubeObject, via: string): Promise<R>;
  /** `h.convert()` only: the conversion failed with kube-apiserver's text equal to, containing or matching `expected`. */
  toFailConversionWith(expected: string | RegExp | AsymmetricMatcherLike): R;
}

/** The matchers that make sense inside `toEqual(...)`: the synchronous ones. */
export type HarnessAsymmetricMatchers = Omit<HarnessMatchers, 'toBeIdempotentFor' | 'toRespondWithin' | 'toConvertRoundTrip'>;

export type { AsymmetricMatcherLike, DenialExpectation, IdempotenceOptions, LatencyBudget, LatencyOptions, Peer };
