import { AgentPool } from './call/agents';
import { credentialsFor, type AdmissionKubeconfig, type WebhookCredentials } from './call/credentials';
import { resolveEndpoint } from './call/endpoint';
import type { CallableWebhook, CallContext, CallOutcome } from './call/call-webhook';
import { invokeWebhook } from './call/invoke';
import { loadManifestSet, type ManifestInput, type MutatingBindingEntry, type ValidatingBindingEntry, type WebhookEntry } from './config/load';
import type { MutatingAdmissionPolicy, ValidatingAdmissionPolicy } from './kube/admission-policy';
import { AuditAnnotations } from './dispatch/annotations';
import { findWebhook } from './config/find';
import { callOrder } from './config/order';
import { AdmissionMetrics } from './dispatch/metrics';
import { lint, lintPolicies, type Finding } from './lint';
import { CoverageCollector, directCallEvent, selectorResults, type CoverageRequest } from './admission-coverage';
import { CoverageLog } from './admission-coverage/coverage-log';
import { explain, Explanations, type PluginExplanation } from './match/explain';
import { explainPolicies } from './policy/explain';
import { prepareMatchConditions } from './match/conditions';
import { matchRules } from './match/should-call';
import { matchNamespaceSelector } from './match/namespace-selector';
import type { Authorizer } from './authz/authorizer';
import { admitRequest } from './dispatch/admit';
import { dispatchValidatingPolicies } from './dispatch/validating-policies';
import { dispatchMutatingPolicies, PolicyReinvocation } from './dispatch/mutating-policies';
import { patchObject, type PatchResult } from './patch/patch-object';
import {
  ALL_MUTATION_PLUGINS,
  assertBuiltinPluginNames,
  assertNoPluginBothEnabledAndDisabled,
  enabledPluginNames,
  readAdmissionConfiguration,
  type AdmissionConfigurationInput,
  type MutationPlugin,
  type PluginConfigurations,
} from './plugins';
import { PLUGIN_CHAIN } from './plugins/involvement';
import type { PodSecurityConfiguration } from './plugins/pod-security';
import { preparedForValidation, Registry, storageRandom } from './registry';
import type { AdmitResult } from './dispatch/result';
import { AdmissionTrace, type TraceStep } from './dispatch/trace';
import { WarningRecorder } from './dispatch/warnings';
import { HarnessError } from './errors';
import { COVERAGE_DIR_ENV, writeSummaryFile } from './admission-coverage/summary-files';
import { defaultCatalog, type ResourceCatalog } from './kube/catalog';
import type { NamespaceRegistry, NamespaceSpec } from './match/namespace-store';
import { ClusterNamespaces } from './mockapi/namespaces';
import { ObjectStore } from './mockapi/store';
import { prepareMutatingPolicies, prepareValidatingPolicies, type PreparedMutatingPolicy, type PreparedValidatingPolicy } from './policy/prepare';
import { storeParamSource } from './policy/store-params';
import type { PolicyContext } from './dispatch/context';
import type { MockApi, MockApiOptions } from './mockapi/mock-api';
import { admissionSummary, type WriteRecord } from './mockapi/write-log';
import { startMockApi } from './mockapi/start';
import type { AdmissionAttributes } from './kube/attributes';
import type { InvocationView } from './review/encode';
import type { WebhookClientConfig, WebhookType } from './kube/webhook-config';
import { defaultSeed, SeededRandom } from './random';
import type { Review } from './review/review';
import type { KubeObject, Status } from './kube/admission';
import type { StubBehavior, StubServer } from './stub';
import type { TargetExit } from './target/command';
import { startTargets, type Target, type Targets } from './target/targets';
import { type CertificateAuthority, sharedAuthority, type KeyPair } from './tls';
import { imagePolicyCapability, type ImagePolicyCapability, type ImagePolicyOptions, type ImageReviewOutcome } from './imagepolicy';
import { conversionCapability, type ConversionResult } from './conversion';
import { mockApiConverter } from './conversion/mock-api-converter';

export interface HarnessOptions {
  /** The webhook: an in-process app or handler (served by the harness over TLS), or a running server. */
  target?: Target;
  /** Stand-ins for webhooks of the manifests, by name: peers such as a sidecar injector, or misbehaviour. */
  stubs?: Record<string, StubBehavior>;
  /** Webhook configuration manifests (file paths or objects); clientConfig is re-pointed at the target. */
  manifests?: ManifestInput[];
  /** Seed for every generated value (uids, objects); printed in failures. Default: $ADMISSION_HARNESS_SEED or random. */
  seed?: number;
  /**
   * Real time per configured second: 0.01 turns timeoutSeconds 10 into a 100 ms deadline. One clock:
   * it scales stub delays and the mock API's injected latency too. Default: the given mock API's, or 1.
   */
  timeScale?: number;
  /** CA issuing the serving certificate; the process-wide harness CA by default. */
  authority?: CertificateAuthority;
  /** Namespaces of the mock cluster (besides default, kube-system, kube-public, kube-node-lease), for namespaceSelectors. */
  namespaces?: NamespaceSpec[];
  /**
   * Objects the cluster holds before the first request: policies' params (a ConfigMap, a custom
   * resource…) and anything the webhook reads through the mock API. Namespaced ones need their
   * namespace in `namespaces` (or one of the built-in ones).
   */
  objects?: KubeObject[];
  /**
   * Resources the mock apiserver serves. By default a copy of the process-wide catalog (the built-in API and
   * whatever `registerResource` added), so the manifests' CustomResourceDefinitions stay this harness's own.
   */
  catalog?: ResourceCatalog;
  /** Answers matchConditions' `authorizer` checks (and the mock API's); allows everything by default. */
  authorizer?: Authorizer;
  /**
   * A mock Kubernetes API for the webhook's own calls: `true` or options start one (closed with the
   * harness); a running `MockApi` is used as is (start it first when the app needs its kubeconfig).
   * Its namespaces are the ones namespaceSelectors see.
   */
  mockApi?: true | MockApiOptions | MockApi;
  /**
   * What kube-apiserver presents to the webhooks: a bearer token and a client certificate (`true`
   * issues one from the harness CA, CN `kube-apiserver`) for every webhook, or an admission plugin
   * kubeconfig whose users are matched to each webhook's host:port as kube-apiserver matches them.
   */
  credentials?: { token?: string; clientCertificate?: true | KeyPair } | { kubeconfig: AdmissionKubeconfig };
  /**
   * The built-in admission plugins of the mock cluster, by `--enable-admission-plugins` name. On by
   * default, as in a default kube-apiserver: NamespaceLifecycle, LimitRanger, ServiceAccount,
   * TaintNodesByCondition, PodSecurity, Priority, DefaultTolerationSeconds, DefaultStorageClass,
   * StorageObjectInUseProtection, PersistentVolumeClaimResize, RuntimeClass, DefaultIngressClass,
   * PodTopologyLabels, ResourceQuota; `disable` turns some off. `enable` turns on the off-by-default ones
   * (LimitPodHardAntiAffinityTopology, AlwaysPullImages, PodNodeSelector, PodTolerationRestriction,
   * ExtendedResourceToleration, OwnerReferencesPermissionEnforcement, DenyServiceExternalIPs): each must be
   * one the harness runs, so a test that needs another plugin fails at once instead of running without
   * it; the chain runs them in kube-apiserver's order whatever the order given. `configuration` is
   * `--admission-control-config-file`: an AdmissionConfiguration (a file or the object) with
   * PodNodeSelector's and PodTolerationRestriction's configuration.
   */
  plugins?: { disable?: string[]; enable?: string[]; configuration?: AdmissionConfigurationInput };
  /**
   * PodSecurity's admission configuration (`PodSecurityConfiguration`): the defaults for namespaces
   * without labels and the exemptions (usernames, namespaces, runtimeClasses). kube's defaults
   * (privileged:latest everywhere) when omitted.
   */
  podSecurity?: PodSecurityConfiguration;
  /** kube-apiserver's `--allow-privileged`: false (its default) makes pod validation refuse privileged containers. */
  allowPrivileged?: boolean;
  /**
   * Turns on ImagePolicyWebhook, configured from the user's AdmissionConfiguration (path or object) and
   * the backend kubeconfig it names, the backend's server re-pointed at `target`: `h.admit` runs it in
   * the validation phase, `h.imageReview` alone.
   */
  imagePolicy?: ImagePolicyOptions;
}

export interface AdmitOptions {
  /** The client's own request timeout (`?timeout=`): webhook calls share what is left of it. */
  timeoutSeconds?: number;
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
   * among the webhook's admissionReviewVersions).
   */
  call(webhook: string | InlineWebhook, review: Review, options?: { version?: 'v1' | 'v1beta1' }): Promise<HarnessCallOutcome>;
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
   * admissions so far exercised, counted now: `.summary()`, `.toTable()`, `.meetsThreshold(percent)`.
   */
  coverage(): CoverageCollector;
  /** Good-practice findings for the manifests' webhooks, and the type checking of their ValidatingAdmissionPolicies. */
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

/** The call-relevant fields of a loaded (defaulted) webhook. */
function callableOf(entry: WebhookEntry): CallableWebhook {
  return {
    name: entry.spec.name,
    type: entry.type,
    configuration: entry.configuration,
    clientConfig: entry.spec.clientConfig,
    timeoutSeconds: entry.spec.timeoutSeconds ?? 10,
    admissionReviewVersions: entry.spec.admissionReviewVersions ?? [],
  };
}

/** The enabled built-in plugins that act on a request (or refuse it), in chain order, for h.explain. */
function actingPlugins(enabled: ReadonlySet<string>, attributes: AdmissionAttributes, namespaceExists: (name: string) => boolean): PluginExplanation[] {
  return PLUGIN_CHAIN.filter((step) => enabled.has(step.plugin)).flatMap(({ plugin, phase, position, judge }) => {
    const { involved, refuses, reason } = judge(attributes, { namespaceExists });
    return involved ? [{ name: plugin, phase, position, decision: refuses ? ('refuses' as const) : ('acts' as const), reason }] : [];
  });
}

/** The built-in plugins a harness runs: the default ones less those disabled, plus those enabled, and their configuration. */
function enabledPlugins(given: HarnessOptions['plugins']): {
  mutating: readonly MutationPlugin[];
  builtins: ReadonlySet<string>;
  configuration?: PluginConfigurations;
} {
  const disable = given?.disable ?? [];
  const enable = given?.enable ?? [];
  assertBuiltinPluginNames(disable);
  assertBuiltinPluginNames(enable, 'plugins.enable');
  assertNoPluginBothEnabledAndDisabled(enable, disable);
  const names = enabledPluginNames(enable, disable);
  return {
    mutating: ALL_MUTATION_PLUGINS.filter((p) => names.includes(p.name)),
    builtins: new Set(names),
    ...(given?.configuration !== undefined ? { configuration: readAdmissionConfiguration(given.configuration) } : {}),
  };
}

/**
 * What kube-apiserver would make of one call's patch, for h.call outcomes: the patched object decoded
 * and defaulted, and the API's validation of it (after BeforeCreate for a create), as the chain would
 * judge it if this webhook were the only one. Undefined when there is nothing to judge.
 */
function patchedOutcome(registry: Registry, outcome: HarnessCallOutcome, attributes: AdmissionAttributes, random: SeededRandom): PatchedOutcome | undefined {
  if (outcome.error || outcome.denial || !outcome.patch || outcome.patch.length === 0) return undefined;
  const request = outcome.review.request;
  if (!request) return undefined;
  const result = patchObject(outcome.webhook, { object: request.object, kind: request.kind, registry }, outcome.patch);
  if (!result.ok) return result;
  const before = request.object && registry.default(request.kind, request.object);
  if (!result.object) return { ...result, before };
  const prepared = preparedForValidation({ ...attributes, object: result.object }, storageRandom(new SeededRandom(random.int(2 ** 31))));
  const invalid = registry.validate(prepared);
  return invalid ? { ...result, before, invalid } : { ...result, before };
}

/** The harness's mock API, started (and owned) when the options ask for one rather than pass one. */
async function mockApiFor(
  options: HarnessOptions,
  shared: { catalog: ResourceCatalog; authority: CertificateAuthority; seed: number; timeScale: number; converter?: MockApiOptions['converter'] },
): Promise<{ api?: MockApi; ownsApi: boolean }> {
  const requested = options.mockApi;
  if (!requested) return { ownsApi: false };
  if (typeof requested === 'object' && 'writes' in requested) return { api: requested, ownsApi: false };
  const api = await startMockApi({
    catalog: shared.catalog,
    authority: shared.authority,
    seed: shared.seed,
    ...(options.authorizer ? { authorizer: options.authorizer } : {}),
    ...(options.allowPrivileged ? { allowPrivileged: true } : {}),
    ...(shared.converter ? { converter: shared.converter } : {}),
    ...(requested === true ? {} : requested),
    timeScale: shared.timeScale,
  });
  return { api, ownsApi: true };
}

/**
 * Creates a mock apiserver for one webhook target: loads and validates the manifests, issues
 * certificates, serves an in-process app on loopback TLS, and calls it as kube-apiserver does.
 */
export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const seed = options.seed ?? defaultSeed();
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `seed must be an integer, got ${String(options.seed ?? process.env.ADMISSION_HARNESS_SEED)}`);
  // One clock for everything that waits: call deadlines, stub delays and the mock API's latency. A mock
  // API handed over runs at its own timeScale; the harness takes it, and refuses a different one.
  const givenApi = typeof options.mockApi === 'object' && 'writes' in options.mockApi ? options.mockApi : undefined;
  const timeScale = options.timeScale ?? givenApi?.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new HarnessError('USAGE', `timeScale must be a positive number, got ${timeScale}`);
  if (givenApi && givenApi.timeScale !== timeScale) {
    throw new HarnessError(
      'USAGE',
      `the mock API runs at timeScale ${givenApi.timeScale} and the harness at ${timeScale}: their delays would follow two clocks`,
      `start it with startMockApi({ timeScale: ${timeScale} }), or leave timeScale out of createHarness`,
    );
  }
  const authority = options.authority ?? (await sharedAuthority());
  const random = new SeededRandom(seed);

  // CRDs in the manifests register into this catalog: a copy, so no other harness of the process sees them.
  const catalog = options.catalog ?? defaultCatalog.copy();
  const manifests = loadManifestSet(options.manifests ?? [], { catalog });
  const webhooks = manifests.webhooks;
  const registry = new Registry(catalog, { allowPrivileged: options.allowPrivileged ?? false });
  const refusedDefinitions = await registry.prepare();
  if (refusedDefinitions.length > 0) {
    const lines = refusedDefinitions.flatMap(({ resource, errors }) => errors.map((e) => `${resource}: ${e.field}: ${e.body}`));
    throw new HarnessError(
      'MANIFEST_INVALID',
      `invalid CustomResourceDefinition:\n  ${lines.join('\n  ')}`,
      'the API server would reject these definitions on create; fix their x-kubernetes-validations',
    );
  }
  const { mutating: plugins, builtins, configuration: pluginConfiguration } = enabledPlugins(options.plugins);
  const conversion = conversionCapability(catalog);
  // The mock API converts through the CRDs' webhooks once the targets their calls go to are up.
  const apiConversion = mockApiConverter(conversion);
  const converter = conversion.webhooks.length > 0 ? apiConversion.converter : undefined;
  const { api, ownsApi } = await mockApiFor(options, { catalog, authority, seed, timeScale, ...(converter ? { converter } : {}) });
  // The cluster's objects (namespaces, params, `objects`): the mock API's store, or the harness's own.
  const store = api?.store ?? new ObjectStore(catalog, new SeededRandom(seed));
  let namespaces: NamespaceRegistry;
  if (api) {
    namespaces = api.namespaces;
    for (const namespace of options.namespaces ?? []) namespaces.set(namespace);
  } else {
    const cluster = new ClusterNamespaces(store);
    cluster.seed(options.namespaces ?? []);
    namespaces = cluster;
  }
  const metrics = new AdmissionMetrics();
  // Everything after the mock API started closes it again if the harness cannot be built.
  let targets: Targets;
  let conditions: Awaited<ReturnType<typeof prepareMatchConditions>>;
  let credentials: WebhookCredentials;
  let validatingPolicies: PreparedValidatingPolicy[];
  let mutatingPolicies: PreparedMutatingPolicy[];
  let imagePolicy: ImagePolicyCapability;
  const clusterObjects = storeParamSource(store);
  try {
    seedObjects(store, options.objects ?? []);
    validatingPolicies = await prepareValidatingPolicies(manifests, clusterObjects);
    mutatingPolicies = await prepareMutatingPolicies(manifests, clusterObjects);
    conditions = await prepareMatchConditions(webhooks, {
      ...(options.authorizer ? { authorizer: options.authorizer } : {}),
      observer: {
        evaluated(entry, operation, seconds, verdict) {
          const type = entry.type === 'mutating' ? 'admit' : 'validating';
          metrics.matchConditionLatency(entry.spec.name, type, operation, seconds);
          if (verdict.evaluationError) metrics.matchConditionError(entry.spec.name, type, operation);
          // As in kube-apiserver, a failed condition skipped by failurePolicy Ignore is an exclusion too.
          if (!verdict.matches && !verdict.error) metrics.matchConditionExclusion(entry.spec.name, type, operation);
        },
      },
    });
    const given = options.credentials;
    credentials =
      !given || 'kubeconfig' in given
        ? {}
        : {
            ...(given.token ? { bearerToken: given.token } : {}),
            ...(given.clientCertificate
              ? {
                  clientCertificate: given.clientCertificate === true ? await authority.issueClient({ commonName: 'kube-apiserver' }) : given.clientCertificate,
                }
              : {}),
          };
    targets = await startTargets({
      target: options.target,
      stubs: options.stubs ?? {},
      webhooks,
      authority,
      timeScale,
      env: api?.env ?? {},
      clientConfigs: conversion.clientConfigs,
    });
    try {
      imagePolicy = await imagePolicyCapability(options.imagePolicy, { authority, seed, timeScale });
    } catch (error) {
      await targets.close();
      throw error;
    }
  } catch (error) {
    if (ownsApi) await api?.close();
    throw error;
  }
  const agents = new AgentPool();
  const conversionDeps = {
    connection: (webhook: { name: string; clientConfig: WebhookClientConfig }) => targets.connection(webhook),
    agents,
    timeScale,
    uuid: () => random.uuid(),
  };
  apiConversion.ready(conversionDeps);
  // With a kubeconfig, each webhook gets the user its logical host:port selects (service: name.ns.svc:port).
  const kubeconfig = options.credentials && 'kubeconfig' in options.credentials ? options.credentials.kubeconfig : undefined;
  // Picked (and its files read) once per clientConfig, as kube-apiserver builds one REST client per configuration.
  const picked = new WeakMap<WebhookClientConfig, WebhookCredentials>();
  const credentialsOf = (callable: CallableWebhook): WebhookCredentials => {
    if (!kubeconfig) return credentials;
    let found = picked.get(callable.clientConfig);
    if (!found) {
      const { host, port } = resolveEndpoint(callable.clientConfig).address;
      found = credentialsFor(kubeconfig, host, port);
      picked.set(callable.clientConfig, found);
    }
    return found;
  };
  const matchContext = { namespaces, resources: catalog, ...(conditions ? { conditions } : {}) };
  const coverageLog = new CoverageLog();
  const coverageRequest = (attributes: AdmissionAttributes): CoverageRequest => ({
    operation: attributes.operation,
    resource: attributes.resource,
    subResource: attributes.subResource,
    namespace: attributes.namespace,
    dryRun: attributes.dryRun,
  });
  const covered = (): CoverageCollector => {
    const collector = new CoverageCollector(webhooks, { catalog });
    for (const event of coverageLog.events(webhooks)) collector.record(event);
    return collector;
  };
  // Under admission-harness/reporter, each harness leaves its summary for the run's report. A harness
  // that recorded nothing adds nothing to a merge, so it writes no file.
  const writeCoverage = (): void => {
    const dir = process.env[COVERAGE_DIR_ENV];
    if (dir && coverageLog.events(webhooks).length > 0) writeSummaryFile(dir, covered().summary());
  };
  const policies: PolicyContext | undefined =
    validatingPolicies.length > 0 || mutatingPolicies.length > 0
      ? {
          validating: validatingPolicies,
          mutating: mutatingPolicies,
          namespaces,
          resources: catalog,
          params: clusterObjects,
          namespaceObject: clusterObjects.namespaceObject,
          ...(options.authorizer ? { authorizer: options.authorizer } : {}),
        }
      : undefined;
  let closed = false;
  const assertOpen = (): void => {
    if (closed) throw new HarnessError('HARNESS_CLOSED', 'the harness was used after close()', 'create a new harness per test file and close it in afterAll');
  };

  // An inline webhook object resolves to the same callable every time, so its endpoint is resolved once.
  const inlineCallables = new WeakMap<InlineWebhook, CallableWebhook>();
  const resolve = (webhook: string | InlineWebhook): CallableWebhook => {
    if (typeof webhook !== 'string') {
      const known = inlineCallables.get(webhook);
      if (known) return known;
      const name = webhook.name ?? `${webhook.type}.harness.local`;
      const callable: CallableWebhook = {
        name,
        type: webhook.type,
        clientConfig: { url: `https://localhost${webhook.path ?? '/'}` },
        timeoutSeconds: webhook.timeoutSeconds ?? 10,
        admissionReviewVersions: webhook.admissionReviewVersions ?? ['v1'],
      };
      inlineCallables.set(webhook, callable);
      return callable;
    }
    return callableOf(findWebhook(webhooks, webhook));
  };

  // Every call runs inside `api.during`, so the webhook's API writes are attributed to its request.
  const invoke = async (
    callable: CallableWebhook,
    attributes: AdmissionAttributes,
    invocation: InvocationView | undefined,
    requestDeadlineMs?: number,
  ): Promise<HarnessCallOutcome> => {
    const uid = random.uuid();
    const { route, ca } = await targets.connection(callable);
    const { bearerToken, clientCertificate } = credentialsOf(callable);
    const context: CallContext = { route, ca, agents, timeScale, bearerToken, clientCertificate, requestDeadlineMs };
    const run = () => invokeWebhook(callable, attributes, invocation, uid, context);
    // The outcome is the call's own fresh object: completed in place rather than copied.
    const outcome = (api ? await api.during(admissionSummary(attributes, { uid, seed }), run) : await run()) as HarnessCallOutcome;
    outcome.seed = seed;
    if (api) outcome.writes = api.writes.of(uid);
    return outcome;
  };
  const callResolved = async (callable: CallableWebhook, review: Review): Promise<HarnessCallOutcome> => {
    assertOpen();
    const outcome = await invoke(callable, review.attributes, undefined);
    if (callable.type === 'mutating' && outcome.patch && outcome.patch.length > 0) {
      await registry.ready();
      const patched = patchedOutcome(registry, outcome, review.attributes, random);
      if (patched) outcome.patched = patched;
    }
    return outcome;
  };
  // h.call() sends whatever it is given; kube-apiserver sends a webhook only what its rules match. Said
  // once per webhook and kind of request, as a process warning (Jest and Vitest print them).
  const warned = new Set<string>();
  const warnIfUnmatched = (reference: string, review: Review): void => {
    const entry = findWebhook(webhooks, reference);
    const verdict = matchRules(entry.spec, review.attributes, catalog);
    if ('error' in verdict) return;
    // Matching rules are not enough: nor is a request sent from an existing namespace the namespaceSelector
    // excludes (a missing namespace is NamespaceLifecycle's 404, said by its own warning in h.admit).
    const selector = verdict.invocation ? matchNamespaceSelector(entry.spec, review.attributes, namespaces) : undefined;
    if (selector && (selector.matches || selector.error)) return;
    const why = selector?.why ?? verdict.why;
    const key = `${entry.configuration}/${entry.spec.name} ${why}`;
    if (warned.has(key)) return;
    warned.add(key);
    process.emitWarning(
      `h.call(${JSON.stringify(reference)}, …): kube-apiserver would never send this request to the webhook: ${why}; its outcome says how the webhook answers a request it is not configured for`,
      { code: 'ADMISSION_HARNESS_UNMATCHED_CALL' },
    );
  };

  // OwnerReferencesPermissionEnforcement's lookup of an owner kind's resources, through the catalog.
  const kindResources = (apiVersion: string, kind: string): { group: string; resource: string }[] => {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const entry = catalog.resourceForKind({ group: group ?? '', version: version ?? '', kind });
    return entry ? [{ group: entry.group, resource: entry.resource }] : [];
  };

  // A test that forgot to declare its namespace meets NamespaceLifecycle's 404, as in a cluster: said
  // once per namespace, as a process warning naming the fix.
  const undeclared = new Set<string>();
  const warnIfUndeclaredNamespace = (steps: readonly TraceStep[]): void => {
    const namespace = steps.find((step) => step.plugin && step.webhook === 'NamespaceLifecycle' && step.missing?.kind === 'Namespace')?.missing?.name;
    if (namespace === undefined || undeclared.has(namespace)) return;
    undeclared.add(namespace);
    process.emitWarning(
      `h.admit: the namespace ${JSON.stringify(namespace)} does not exist in the mock cluster, so NamespaceLifecycle answers 404 as kube-apiserver would; declare it with createHarness({ namespaces: [{ name: ${JSON.stringify(namespace)} }] })`,
      { code: 'ADMISSION_HARNESS_UNDECLARED_NAMESPACE' },
    );
  };

  // Likewise a pod naming a ServiceAccount the test did not seed meets the ServiceAccount plugin's 403.
  // Only the plugin's first look (round 0) is the test's doing: later ones follow a webhook's rename.
  const missingAccounts = new Set<string>();
  const warnIfMissingServiceAccount = (steps: readonly TraceStep[]): void => {
    const missing = steps.find(
      (step) => step.plugin && step.webhook === 'ServiceAccount' && step.phase === 'mutating' && step.round === 0 && step.missing?.kind === 'ServiceAccount',
    )?.missing;
    if (!missing || missingAccounts.has(`${missing.namespace}/${missing.name}`)) return;
    missingAccounts.add(`${missing.namespace}/${missing.name}`);
    const account = `{ apiVersion: "v1", kind: "ServiceAccount", metadata: { name: ${JSON.stringify(missing.name)}, namespace: ${JSON.stringify(missing.namespace)} } }`;
    process.emitWarning(
      `h.admit: the ServiceAccount ${missing.namespace}/${missing.name} does not exist in the mock cluster (only each namespace's "default" does), so the ServiceAccount plugin refuses the pod as kube-apiserver would; seed it with createHarness({ objects: [${account}] })`,
      { code: 'ADMISSION_HARNESS_MISSING_SERVICE_ACCOUNT' },
    );
  };

  return {
    seed,
    timeScale,
    webhooks,
    authority,
    caBundle: authority.caBundle,
    namespaces,
    catalog,
    registry,
    ...(api ? { api } : {}),
    stub(name) {
      const server = targets.stub(name);
      if (!server)
        throw new HarnessError(
          'WEBHOOK_NOT_FOUND',
          `${JSON.stringify(name)} is not stubbed`,
          'declare it in createHarness({ stubs: { [name]: stub.allow() } })',
        );
      return server;
    },
    call: async (webhook, review, callOptions = {}) => {
      const callable = resolve(webhook);
      if (typeof webhook === 'string') {
        warnIfUnmatched(webhook, review);
        const entry = findWebhook(webhooks, webhook);
        coverageLog.call(directCallEvent(entry, coverageRequest(review.attributes), selectorResults(entry.spec, review.attributes, namespaces)));
      }
      const version = callOptions.version;
      if (!version) return callResolved(callable, review);
      if (!callable.admissionReviewVersions.includes(version)) {
        throw new HarnessError(
          'USAGE',
          `${callable.name} does not accept AdmissionReview ${version}; its admissionReviewVersions are ${JSON.stringify(callable.admissionReviewVersions)}`,
        );
      }
      return callResolved({ ...callable, admissionReviewVersions: [version] }, review);
    },
    webhook(webhook) {
      const callable = resolve(webhook);
      return {
        name: callable.name,
        type: callable.type,
        timeoutSeconds: callable.timeoutSeconds,
        timeScale,
        registry,
        call: (review) => callResolved(callable, review),
      };
    },
    validatingPolicies,
    mutatingPolicies,
    policy(name) {
      const validating = validatingPolicies.find((p) => p.policy.metadata.name === name);
      const mutatingPolicy = mutatingPolicies.find((p) => p.policy.metadata.name === name);
      if ((!validating && !mutatingPolicy) || !policies) {
        const known =
          [...validatingPolicies, ...mutatingPolicies]
            .map((p) => p.policy.metadata.name)
            .sort()
            .join(', ') || '(none in the manifests)';
        throw new HarnessError(
          'POLICY_NOT_FOUND',
          `no ValidatingAdmissionPolicy or MutatingAdmissionPolicy named ${JSON.stringify(name)}; known: ${known}`,
          'pass metadata.name of a policy in the manifests',
        );
      }
      const kind = validating ? 'ValidatingAdmissionPolicy' : 'MutatingAdmissionPolicy';
      const alone: PolicyContext = { ...policies, validating: validating ? [validating] : [], mutating: mutatingPolicy ? [mutatingPolicy] : [] };
      return {
        name,
        kind,
        async evaluate(review) {
          assertOpen();
          await registry.ready();
          const trace = new AdmissionTrace(`${review.summary()} · ${kind} ${name} · seed ${seed}`);
          const warnings = new WarningRecorder();
          const annotations = new AuditAnnotations();
          let object = review.attributes.object;
          let status: Status | undefined;
          if (validating) status = dispatchValidatingPolicies(review.attributes, { policies: alone, trace, warnings, annotations });
          else {
            // The request as the API hands it to admission (decoded, defaulted), then the policy's round 0.
            const attributes = registry.requestView(review.attributes);
            const outcome = dispatchMutatingPolicies(
              attributes,
              { policies: alone, trace, registry },
              { round: 0, state: new PolicyReinvocation(), requestReinvocation: () => undefined },
            );
            object = outcome.object;
            status = outcome.rejection;
          }
          return {
            allowed: !status,
            object,
            ...(status ? { status } : {}),
            warnings: warnings.texts(),
            warningHeaders: warnings.headers,
            auditAnnotations: annotations.values,
            dropped: { warnings: warnings.dropped, auditAnnotations: annotations.dropped },
            trace,
            seed,
            matched: trace.steps.length > 0,
            errors: trace.steps.flatMap((step) => step.policy?.errors ?? []),
          };
        },
      };
    },
    metrics: () => metrics.toString(),
    imageReview: (input) => {
      assertOpen();
      return imagePolicy.review(input);
    },
    convert: (objects, toVersion) => {
      assertOpen();
      return conversion.convert(objects, toVersion, conversionDeps);
    },
    coverage: covered,
    targetExit: () => targets.targetExit(),
    lint: () => [...lint(webhooks), ...lintPolicies(validatingPolicies, catalog)],
    explain: (review) =>
      Explanations.forRequest(
        `${review.summary()} · seed ${seed}`,
        [
          ...(policies ? explainPolicies(mutatingPolicies, review.attributes, policies) : []),
          ...explain(callOrder(webhooks), review.attributes, matchContext),
          ...(policies ? explainPolicies(validatingPolicies, review.attributes, policies) : []),
        ],
        actingPlugins(builtins, review.attributes, (name) => namespaces.labels(name) !== undefined),
      ),
    async admit(review, admitOptions = {}) {
      assertOpen();
      // The harness's own loading (schemas, decoders on first use) is no part of the request's time.
      await registry.ready();
      const started = performance.now();
      const deadlineMs = admitOptions.timeoutSeconds !== undefined ? admitOptions.timeoutSeconds * 1000 : undefined;
      const elapsedMs = (): number => (performance.now() - started) / timeScale;
      const trace = new AdmissionTrace(`${review.summary()} · seed ${seed}`);
      const warnings = new WarningRecorder();
      const annotations = new AuditAnnotations();
      const writes: WriteRecord[] = [];
      const result = await admitRequest(review.attributes, {
        webhooks,
        match: matchContext,
        call: async (entry, attributes, invocation) => {
          const callable = callableOf(entry);
          const outcome = await invoke(callable, attributes, invocation, deadlineMs !== undefined ? deadlineMs - elapsedMs() : undefined);
          writes.push(...(outcome.writes ?? []));
          return outcome;
        },
        requestExpired: () => deadlineMs !== undefined && elapsedMs() >= deadlineMs,
        warnings,
        annotations,
        trace,
        metrics,
        registry,
        plugins,
        builtins,
        cluster: clusterObjects,
        ...(options.podSecurity ? { podSecurity: options.podSecurity } : {}),
        ...(pluginConfiguration ? { pluginConfiguration } : {}),
        ...(options.authorizer ? { authorizer: options.authorizer } : {}),
        kindResources,
        ...(policies ? { policies } : {}),
        random: storageRandom(new SeededRandom(random.int(2 ** 31))),
        configuredPlugins: imagePolicy.plugins,
      });
      warnIfUndeclaredNamespace(trace.steps);
      warnIfMissingServiceAccount(trace.steps);
      coverageLog.admission(trace.steps, coverageRequest(review.attributes));
      return {
        allowed: !result.rejection,
        object: result.object,
        ...(result.rejection ? { status: result.rejection } : {}),
        warnings: warnings.texts(),
        warningHeaders: warnings.headers,
        auditAnnotations: annotations.values,
        dropped: { warnings: warnings.dropped, auditAnnotations: annotations.dropped },
        ...(result.exempt ? { exempt: result.exempt } : {}),
        ...(api ? { writes } : {}),
        trace,
        seed,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      // Written before the servers close, so that a closing error cannot lose it; its own error is
      // thrown after they closed, so that it cannot leave them open.
      let coverageError: unknown;
      try {
        writeCoverage();
      } catch (error) {
        coverageError = error;
      }
      apiConversion.close();
      agents.destroy();
      try {
        await Promise.all([targets.close(), imagePolicy.close()]);
      } finally {
        if (ownsApi) await api?.close();
      }
      if (coverageError) throw coverageError;
    },
  };
}

/**
 * Puts the test's objects into the cluster, each error naming the object. Namespaces go first, whatever
 * the order given: `kubectl apply -f` of a folder converges the same way (a namespaced object refused
 * for its missing namespace succeeds on the next apply), so an order of the list is no fact of the
 * cluster. An object whose namespace is never defined is still refused.
 */
function seedObjects(store: ObjectStore, objects: readonly KubeObject[]): void {
  const isNamespace = (object: KubeObject) => object.apiVersion === 'v1' && object.kind === 'Namespace';
  const indexed = objects.map((object, i) => [object, i] as const);
  const ordered = [...indexed.filter(([object]) => isNamespace(object)), ...indexed.filter(([object]) => !isNamespace(object))];
  ordered.forEach(([object, i]) => {
    const what = `objects[${i}] (${object.kind ?? 'no kind'} ${JSON.stringify([object.metadata?.namespace, object.metadata?.name].filter(Boolean).join('/'))})`;
    try {
      store.put(object);
    } catch (error) {
      throw new HarnessError(
        'USAGE',
        `${what}: ${(error as Error).message}`,
        "declare the namespace (in createHarness({ namespaces }) or a suite's `namespaces`, or as a Namespace among the objects), and give each object apiVersion, kind and metadata.name",
        { cause: error },
      );
    }
  });
}
