export { createHarness } from './harness';
export { manualClock, AUDIT_KEY_PREFIX as IMAGE_POLICY_AUDIT_PREFIX } from './imagepolicy';
export type { ImagePolicyOptions, ImagePolicyClock, ManualClock, ImageReviewOutcome, ImageReview, ImageReviewSpec, ImageReviewStatus } from './imagepolicy';
export type {
  Harness,
  HarnessOptions,
  HarnessCallOutcome,
  HarnessCallOptions,
  InlineWebhook,
  AdmitOptions,
  WebhookHandle,
  PolicyHandle,
  PolicyEvaluation,
} from './harness';
export type { Target, UrlTarget } from './target/targets';
export type { CommandTarget, TargetExit } from './target/command';
export { stub } from './stub';
export type { StubBehavior, StubResponse, StubCondition, StubServer } from './stub';
export type { AdmitResult } from './dispatch/result';
export type { MatchedVersion } from './dispatch/versioned';
export { AdmissionTrace } from './dispatch/trace';
export type { TraceStep } from './dispatch/trace';
export { NamespaceStore } from './match/namespace-store';
export { formatExplanation, Explanations, type PluginExplanation } from './match/explain';
export { lint, LINT_RULES } from './lint';
export type { Finding, LintRule, Severity } from './lint';
export type { Explanation } from './match/explain';
export type { NamespaceSpec } from './match/namespace-store';
export { HarnessError } from './errors';
export type { HarnessErrorCode } from './errors';
export { CallingError } from './call/calling-error';
export { ConversionError } from './conversion';
export type { ConversionResult, ConversionOutcome, ConversionCheck, ConversionReview } from './conversion';
export type { CallOutcome } from './call/call-webhook';
export { review, objects, users, Review, SeededRandom, encodeReview, reviewFromRequest, DEFAULT_USER } from './review';
export type {
  AdmissionAttributes,
  RequestOptions,
  CreateOptions,
  UpdateOptions,
  PatchOptions,
  ApplyOptions,
  DeleteOptions,
  ConnectOptions,
  StatusOptions,
  ScaleOptions,
  TokenOptions,
  DebugOptions,
  PodOptions,
  GenerateOptions,
  ObjectInput,
  OwnedOptions,
  CustomResourceOptions,
  FromYamlOptions,
  ServiceAccountUserOptions,
} from './review';
export { validatingView } from './registry/validating-view';
export { CertificateAuthority, sharedAuthority, serviceDnsNames } from './tls';
export type { KeyPair, ServingCertificateOptions, ClientCertificateOptions } from './tls';
export { loadManifests, loadManifestSet } from './config';
export type { WebhookEntry, ManifestInput, ManifestSet, ValidatingPolicyEntry, ValidatingBindingEntry } from './config';
export type { InProcessApp, RequestListener, KoaLike, FastifyLike } from './target/adapt';
export * from './kube';
export type { Authorizer, AuthorizationAttributes, AuthorizationResult } from './authz/authorizer';
export { startMockApi } from './mockapi/start';
export type { MockApi, MockApiOptions } from './mockapi/mock-api';
export type {
  ObjectStore,
  ListResult,
  WriteOptions,
  ClusterNamespaces,
  Faults,
  Fault,
  FaultSpec,
  Verb,
  WriteLog,
  AdmissionSummary,
  WriteRecord,
  WriteVerb,
  ApiError,
  ApiStatus,
  StatusCause,
  Kubeconfig,
} from './mockapi';
export type { EventLog, StoreEvent, ChangeType, WatchHub, WatchClock } from './mockapi';
export type { NamespaceRegistry } from './match/namespace-store';
export type { AdmissionKubeconfig, WebhookCredentials } from './call/credentials';
export { CoverageCollector, mergeSummaries, formatTable } from './admission-coverage';
export type { CoverageSummary, WebhookSummary } from './admission-coverage';
export { loadFixtures, replayFixture, replayFixtures, formatReport as formatReplayReport, replayReportJson, fixturesOfShard } from './replay';
export type { LoadedFixture, ReplayReport, ReplayReportJson, RunOptions as ReplayRunOptions } from './replay';
export { writeFixtures, fixturesToYaml } from './audit';
export type { RecordedAdmission, RecordedAnswer, RecordedReview, Recordable, RecordedSource } from './audit';
