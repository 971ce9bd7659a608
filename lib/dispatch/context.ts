import type { CallOutcome } from '../call/call-webhook';
import type { WebhookEntry } from '../config/load';
import type { MatchContext } from '../match/should-call';
import type { MutationPlugin } from '../plugins';
import type { PluginCluster } from '../plugins/plugin';
import type { PodSecurityConfiguration } from '../plugins/pod-security';
import type { PluginConfigurations } from '../plugins/optional/admission-configuration';
import type { KindResources } from '../plugins/optional/owner-references-permission-enforcement';
import type { Registry, StorageRandom } from '../registry';
import type { AdmissionAttributes } from '../kube/attributes';
import type { InvocationView } from '../review/encode';
import type { AuditAnnotations } from './annotations';
import type { AdmissionMetrics } from './metrics';
import type { AdmissionTrace } from './trace';
import type { Authorizer } from '../authz/authorizer';
import type { KubeObject, Status } from '../kube/admission';
import type { PolicyMatchContext } from '../policy/match-resources';
import type { ParamSource } from '../policy/params';
import type { PreparedMutatingPolicy, PreparedValidatingPolicy } from '../policy/prepare';
import type { WarningRecorder } from '../kube/warning-recorder';
import type { ObjectVersionConverter } from './versioned';

/** What the dispatchers need from the harness: matching data, a way to call, and the request's records. */
export interface DispatchContext {
  /** Every webhook of the loaded configurations. */
  webhooks: readonly WebhookEntry[];
  match: MatchContext;
  /** Calls one webhook (a fresh uid each time); failures come back in the outcome, never thrown. */
  call(entry: WebhookEntry, attributes: AdmissionAttributes, invocation: InvocationView): Promise<CallOutcome>;
  /** True once the API request's own deadline (its `?timeout=`) has passed. */
  requestExpired(): boolean;
  /** What the API does to objects of each kind: decode, defaulting, strategy, validation. */
  registry: Registry;
  /** The built-in mutating admission plugins enabled, in kube-apiserver's order. */
  plugins: readonly MutationPlugin[];
  /** Every built-in plugin enabled, by name (NamespaceLifecycle and the mutating ones). */
  builtins?: ReadonlySet<string>;
  /** PodSecurity's configuration (defaults, exemptions); kube's defaults when omitted. */
  podSecurity?: PodSecurityConfiguration;
  /** The other plugins' admission configuration (PodNodeSelector, PodTolerationRestriction). */
  pluginConfiguration?: PluginConfigurations;
  /** The cluster's authorizer, as OwnerReferencesPermissionEnforcement asks it; allows everything when omitted. */
  authorizer?: Authorizer;
  /** The resources an owner reference's kind maps to (the RESTMapper). */
  kindResources?: KindResources;
  /** The cluster's objects the plugins read (and ResourceQuota's usage, which it writes). */
  cluster?: PluginCluster & { namespaceObject(name: string): KubeObject | undefined; put(object: KubeObject): void };
  warnings: WarningRecorder;
  annotations: AuditAnnotations;
  trace: AdmissionTrace;
  metrics: AdmissionMetrics;
  /** The admission policies of the loaded manifests, and what they read of the cluster. */
  policies?: PolicyContext;
  /** What the storage layer generates (name, uid, timestamps, allocations, the token volume's suffix), seeded. */
  random: StorageRandom;
  /** Validation-phase plugins the harness was configured with (ImagePolicyWebhook), run after ServiceAccount. */
  configuredPlugins?: readonly ConfiguredValidationPlugin[];
  /** Converts a custom resource to the version a webhook matched through its CRD's conversion webhook (lib/dispatch/versioned.ts). */
  convertObject?: ObjectVersionConverter;
}

/** A validation-phase plugin that takes configuration and may call out (ImagePolicyWebhook): its refusal and audit annotations. */
export interface ConfiguredValidationPlugin {
  readonly name: string;
  validate(attributes: AdmissionAttributes): Promise<{ status?: Status; auditAnnotations: Record<string, string> }>;
}

/** What the policy plugins read: the prepared policies, the cluster's objects (params, namespaces), the authorizer. */
export interface PolicyContext extends PolicyMatchContext {
  /** In the order they are evaluated (by name). */
  validating: readonly PreparedValidatingPolicy[];
  mutating: readonly PreparedMutatingPolicy[];
  params: ParamSource;
  /** The stored Namespace object (`namespaceObject`), or undefined when there is none. */
  namespaceObject(name: string): KubeObject | undefined;
  /** Answers `authorizer` checks; allows everything when omitted. */
  authorizer?: Authorizer;
}
