import type { AdmissionKubeconfig } from '../call/credentials';
import { HarnessError } from '../errors';
import type { ImagePolicyOptions } from '../imagepolicy';
import type { Authorizer } from '../authz/authorizer';
import type { KubeObject } from '../kube/admission';
import type { ResourceCatalog } from '../kube/catalog';
import type { ManifestInput } from '../config/load';
import type { NamespaceSpec } from '../match/namespace-store';
import type { MockApi, MockApiOptions } from '../mockapi/mock-api';
import type { AdmissionConfigurationInput } from '../plugins';
import type { PluginClock } from '../plugins/optional/token-bucket';
import type { PodSecurityConfiguration } from '../plugins/pod-security';
import { defaultSeed } from '../random';
import type { StubBehavior } from '../stub';
import type { Target } from '../target/targets';
import type { CertificateAuthority, KeyPair } from '../tls';

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
   * PodNodeSelector's and PodTolerationRestriction's configuration. `clock` is the time EventRateLimit's
   * buckets refill by (`manualClock()`: a test steps it rather than waits).
   */
  plugins?: { disable?: string[]; enable?: string[]; configuration?: AdmissionConfigurationInput; clock?: PluginClock };
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
  /**
   * What to do with manifests kube-apiserver refuses on create for their CEL: a matchCondition, admission
   * policy expression or CRD `x-kubernetes-validations` rule that does not compile, a CRD rule whose
   * estimated cost passes kube's budget. `'throw'` (the default, as `kubectl apply` fails): createHarness
   * throws MANIFEST_INVALID with kube's texts. `'leave-out'`: the harness is the cluster where applying
   * those objects failed (a refused webhook configuration is not there, a refused policy does not run,
   * a refused CRD is not served) and `h.lint()` lists each refusal as an error finding.
   */
  celRefusals?: 'throw' | 'leave-out';
}

const CEL_REFUSALS = ['throw', 'leave-out'];

/** The harness's answer to manifests kube refuses on create for their CEL, checked. */
export function celRefusals(options: HarnessOptions): 'throw' | 'leave-out' {
  const value = options.celRefusals ?? 'throw';
  if (!CEL_REFUSALS.includes(value))
    throw new HarnessError('USAGE', `celRefusals must be 'throw' or 'leave-out', got ${JSON.stringify(value)}`, "leave it out to throw, or pass 'leave-out'");
  return value;
}

/** The mock API the options hand over already running (rather than ask the harness to start one). */
export function givenMockApi(options: HarnessOptions): MockApi | undefined {
  return typeof options.mockApi === 'object' && 'writes' in options.mockApi ? options.mockApi : undefined;
}

/**
 * The harness's seed and its one clock for everything that waits (call deadlines, stub delays and the
 * mock API's latency), checked. A mock API handed over runs at its own timeScale; the harness takes it,
 * and refuses a different one.
 */
export function seedAndClock(options: HarnessOptions): { seed: number; timeScale: number } {
  const seed = options.seed ?? defaultSeed();
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `seed must be an integer, got ${String(options.seed ?? process.env.ADMISSION_HARNESS_SEED)}`);
  const givenApi = givenMockApi(options);
  const timeScale = options.timeScale ?? givenApi?.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new HarnessError('USAGE', `timeScale must be a positive number, got ${timeScale}`);
  if (givenApi && givenApi.timeScale !== timeScale) {
    throw new HarnessError(
      'USAGE',
      `the mock API runs at timeScale ${givenApi.timeScale} and the harness at ${timeScale}: their delays would follow two clocks`,
      `start it with startMockApi({ timeScale: ${timeScale} }), or leave timeScale out of createHarness`,
    );
  }
  return { seed, timeScale };
}
