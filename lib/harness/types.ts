// The harness as its users see it: what createHarness returns and the types its methods take and give.
// Each capability's module implements its part (`Pick<Harness, …>`); create-harness.ts composes them.
import type { CallOutcome } from '../call/call-webhook';
import type { MutatingBindingEntry, ValidatingBindingEntry, WebhookEntry } from '../config/load';
import type { ConversionResult } from '../conversion';
import type { CoverageCollector } from '../admission-coverage';
import type { AdmitResult } from '../dispatch/result';
import type { MatchedVersion } from '../dispatch/versioned';
import type { ImageReviewOutcome } from '../imagepolicy';
import type { KubeObject, Status } from '../kube/admission';
import type { MutatingAdmissionPolicy, ValidatingAdmissionPolicy } from '../kube/admission-policy';
import type { ResourceCatalog } from '../kube/catalog';
import type { WebhookType } from '../kube/webhook-config';
import type { Finding } from '../lint';
import type { Explanations } from '../match/explain';
import type { NamespaceRegistry } from '../match/namespace-store';
import type { MockApi } from '../mockapi/mock-api';
import type { WriteRecord } from '../mockapi/write-log';
import type { PatchResult } from '../patch/patch-object';
import type { Registry } from '../registry';
import type { Review } from '../review/review';
import type { StubServer } from '../stub';
import type { TargetExit } from '../target/command';
import type { CertificateAuthority } from '../tls';

export interface AdmitOptions {
  /** The client's own request timeout (`?timeout=`): webhook calls share what is left of it. */
  timeoutSeconds?: number;
}

/** h.call's options: how kube-apiserver would have sent this webhook the review. */
export interface HarnessCallOptions {
  /** The AdmissionReview version to send instead of the negotiated one (one of the webhook's admissionReviewVersions). */
  version?: 'v1' | 'v1beta1';
  /**
   * The kind and resource the webhook's rules matched, when they are another version of the review's
   * (matchPolicy Equivalent): kube-apiserver sends `kind`/`resource` as matched, `requestKind`/`requestResource`
   * as the client asked, and the object and oldObject converted to the matched version
   * (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go `ShouldCallHook`, conversion.go `ConvertToGVK`).
   */
  matched?: MatchedVersion;
}

/** A webhook addressed without a manifest: defaults as the v1 API would give them. */
export interface InlineWebhook {
  type: WebhookType;
  /** Request path on the target; `/` by default. */
  path?: string;
  name?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
}

/** A call outcome with what a reader needs to replay it. */
export interface HarnessCallOutcome extends CallOutcome {
  seed: number;
  /**
   * For an allowed mutating answer with a patch: what kube-apiserver would continue with — the object
   * decoded into its kind (unknown fields dropped) and defaulted, whether that counts as a change, and
   * `invalid`, the 422 the API's own validation would answer for it — or the error it would answer instead.
   */
  patched?: PatchedOutcome;
  /** The webhook's writes to the mock API during the call (when the harness has one). */
  writes?: WriteRecord[];
  /**
   * With `matched`: the object could not be converted to the matched version, so kube-apiserver refuses the
   * request (500) before the call, whatever the failurePolicy; nothing was sent.
   */
  rejection?: Status;
}

/** What the API makes of a call's patch (HarnessCallOutcome.patched). */
export type PatchedOutcome =
  | (PatchResult & { ok: true /** The request's object as the API held it before the patch (defaulted). */; before: KubeObject | null; invalid?: Status })
  | (PatchResult & { ok: false });

/** One webhook of the harness, for repeated calls (idempotence and latency matchers take these). */
export interface WebhookHandle {
  readonly name: string;
  readonly type: WebhookType;
  /** Its timeoutSeconds (10 when not configured). */
  readonly timeoutSeconds: number;
  /** Real time per configured second, as the harness was created with. */
  readonly timeScale: number;
  /** What the API does to objects of each kind (decode, defaults, validation), as in the harness's cluster. */
  readonly registry: Registry;
  call(review: Review): Promise<HarnessCallOutcome>;
}

export interface Harness {
  readonly seed: number;
  /** How call deadlines and stub delays are compressed (`HarnessOptions.timeScale`). */
  readonly timeScale: number;
  /** The webhooks of the manifests, in the order kube-apiserver would consider them. */
  readonly webhooks: readonly WebhookEntry[];
  /** The CA the target's serving certificate chains to. */
  readonly authority: CertificateAuthority;
  /** Base64 PEM of that CA, as a configuration's `caBundle`. */
  readonly caBundle: string;
  /** The mock cluster's namespaces, as namespaceSelectors see them. */
  readonly namespaces: NamespaceRegistry;
  /**
   * The resources this harness serves, its manifests' CRDs included: build reviews of custom resources
   * with it, `review.create(widget, { catalog: h.catalog })`.
   */
  readonly catalog: ResourceCatalog;
  /** The mock Kubernetes API, when the harness has one. */
  readonly api?: MockApi;
  /** What the API does to objects of each kind (decode, defaults, strategy, validation) in this cluster. */
  readonly registry: Registry;
  /** The stub serving webhook `name`: the reviews it received, and its behavior (settable). */
  stub(name: string): StubServer;
  /**
   * Calls one webhook with one review, exactly as kube-apiserver would; never throws for webhook
   * errors. A request the webhook's rules (or its namespaceSelector, for an existing namespace) would never
   * match is still sent, with a process warning
   * (code ADMISSION_HARNESS_UNMATCHED_CALL) saying kube-apiserver would not send it. `version` sends that AdmissionReview version instead of the negotiated one (it must be
   * among the webhook's admissionReviewVersions). `matched` sends it as a webhook whose rules matched that
   * kind and resource (an equivalent of the review's, matchPolicy Equivalent) is sent it.
   */
  call(webhook: string | InlineWebhook, review: Review, options?: HarnessCallOptions): Promise<HarnessCallOutcome>;
  /** A handle on one webhook (by name, `configuration/name`, or inline). */
  webhook(webhook: string | InlineWebhook): WebhookHandle;
  /** The ValidatingAdmissionPolicies of the manifests (defaulted), with their bindings, in evaluation order. */
  readonly validatingPolicies: readonly LoadedPolicy<ValidatingAdmissionPolicy, ValidatingBindingEntry>[];
  /** A handle on one ValidatingAdmissionPolicy or MutatingAdmissionPolicy of the manifests, to evaluate it without the rest of the chain. */
  policy(name: string): PolicyHandle;
  /** The MutatingAdmissionPolicies of the manifests (defaulted), with their bindings, in evaluation order. */
  readonly mutatingPolicies: readonly LoadedPolicy<MutatingAdmissionPolicy, MutatingBindingEntry>[];
  /** Runs the request through the whole admission chain of the manifests, as kube-apiserver would. */
  admit(review: Review, options?: AdmitOptions): Promise<AdmitResult>;
  /**
   * ImagePolicyWebhook alone (`imagePolicy` option) on a pod (as its CREATE) or a request: the
   * ImageReview sent, whether the cache answered, retries, defaultAllow, kube's refusal text.
   */
  imageReview(input: KubeObject | Review): Promise<ImageReviewOutcome>;
  /**
   * Converts custom resources to `toVersion` (`v2` or `group/v2`) as kube-apiserver does when a client reads
   * or writes another version than the stored one: one ConversionReview per object to the CRD's conversion
   * webhook (its clientConfig re-pointed at the target), the answer checked with kube's texts; stops at the
   * first failure, as a LIST does.
   */
  convert(objects: KubeObject | readonly KubeObject[], toVersion: string): Promise<ConversionResult>;
  /** The admission metrics of every `admit()` so far, in Prometheus text format. */
  metrics(): string;
  /** For each webhook in call order, whether the request reaches it and why; calls nothing. */
  explain(review: Review): Explanations;
  /**
   * Admission coverage: which cells of each webhook's registration (each rule's operation × resource ×
   * scope, selectors matched and not, each matchCondition true / false / error, dryRun) the calls and
   * admissions so far exercised, counted now: `.summary()`, `.toTable()`, `.meetsThreshold(percent)`. Then
   * the ImagePolicyWebhook backend's (request kind × answer) and each CRD conversion webhook's (version pairs).
   */
  coverage(): CoverageCollector;
  /**
   * Good-practice findings for the manifests' webhooks, the type checking of their ValidatingAdmissionPolicies,
   * and, with `celRefusals: 'leave-out'`, an error finding for each object left out as kube-apiserver refuses
   * it on create (`match-condition-invalid`, `policy-expression-invalid`, `crd-rule-invalid`, `crd-rule-cost`).
   */
  lint(): Finding[];
  /**
   * For a `{ command }` target: how its process ended (exit code or signal, its last stderr lines), or
   * undefined while it runs. Call it after a call failed on the connection; a process that no longer
   * accepts a TLS handshake gets a moment to be reaped.
   */
  targetExit(): Promise<TargetExit | undefined>;
  /**
   * Stops the target server and closes every connection. With ADMISSION_HARNESS_COVERAGE_DIR set (as
   * admission-harness/reporter sets it for a Jest or Vitest run), it first writes the harness's
   * coverage summary there, if it recorded a call or an admission; a failed write is thrown after closing.
   */
  close(): Promise<void>;
}

/** A policy of the manifests as the harness runs it: defaulted, with its bindings and where it was declared. */
export interface LoadedPolicy<P, B> {
  policy: P;
  bindings: readonly B[];
  source: string;
  /** Why every matching request meets the policy's failurePolicy (a paramKind the cluster does not serve). */
  configurationError?: string;
}

/** One admission policy, evaluated alone. */
export interface PolicyHandle {
  readonly name: string;
  readonly kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
  /**
   * The policy with each of its bindings on one request, as the chain would evaluate it: a validating
   * policy on the review's object as given, a mutating one on the request as the API decodes it, in one
   * round, `object` being its result. The result reads like `h.admit()`'s, so the same matchers apply;
   * `errors` lists what failed to evaluate, whatever the failurePolicy made of it.
   */
  evaluate(review: Review): Promise<PolicyEvaluation>;
}

export interface PolicyEvaluation extends AdmitResult {
  /** Whether the policy's matchConstraints matched the request. */
  matched: boolean;
  errors: string[];
}
