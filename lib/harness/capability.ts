import type { KindCoverage } from '../admission-coverage/kind-coverage';
import type { ConfiguredValidationPlugin } from '../dispatch/context';
import type { WebhookClientConfig } from '../kube/webhook-config';
import type { MockApiOptions } from '../mockapi/mock-api';
import type { HarnessCore } from './core';

/**
 * Another kind of webhook kube-apiserver calls (ImagePolicyWebhook, CRD conversion…) as a part of the
 * harness: made from the options before the targets start, started once they serve. It adds its own
 * methods to the Harness and its plugins to the admission chain, and says what it holds open, so that
 * createHarness adds one by listing it, knowing nothing of its insides.
 */
export interface Capability<Methods extends object> {
  /** The clientConfigs it calls at the target besides the manifests' webhooks: the serving certificate carries their hosts. */
  readonly clientConfigs?: readonly WebhookClientConfig[];
  /** What it adds to the options of a mock API the harness starts (a converter for custom resources at other versions). */
  readonly mockApi?: Pick<MockApiOptions, 'converter'>;
  start(core: HarnessCore): StartedCapability<Methods> | Promise<StartedCapability<Methods>>;
}

export interface StartedCapability<Methods extends object> {
  /** What it adds to the Harness (`Pick<Harness, …>`). */
  readonly methods: Methods;
  /** Plugins it adds to h.admit's validation phase, run after ServiceAccount. */
  readonly validationPlugins?: readonly ConfiguredValidationPlugin[];
  /** The coverage of the webhooks it calls, which `h.coverage()` and the run's report list after the admission webhooks. */
  readonly coverage?: readonly KindCoverage[];
  /** Told first on h.close(), before any connection or server closes: what fails from then on is the shutdown. */
  closing?(): void;
  /** Stops what it started; h.close() calls it with the servers. */
  close?(): Promise<void>;
}

type MethodsOf<C> = C extends Capability<infer Methods> ? Methods : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The methods a list of capabilities adds to the Harness, together. */
export type MethodsOfAll<List extends readonly Capability<object>[]> = Intersection<MethodsOf<List[number]>>;

/** Every started capability's contribution together. */
export interface StartedCapabilities<Methods> {
  methods: Methods;
  validationPlugins: readonly ConfiguredValidationPlugin[];
  coverage: readonly KindCoverage[];
}

/** Starts each capability in turn, the harness owning what each started as soon as it started it. */
export async function startCapabilities<const List extends readonly Capability<object>[]>(
  capabilities: List,
  core: HarnessCore,
): Promise<StartedCapabilities<MethodsOfAll<List>>> {
  const methods: object[] = [];
  const validationPlugins: ConfiguredValidationPlugin[] = [];
  const coverage: KindCoverage[] = [];
  for (const capability of capabilities) {
    const started = await capability.start(core);
    const { closing, close } = started;
    if (closing) core.lifecycle.flushFirst(() => closing.call(started));
    if (close) core.lifecycle.own(() => close.call(started));
    methods.push(started.methods);
    validationPlugins.push(...(started.validationPlugins ?? []));
    coverage.push(...(started.coverage ?? []));
  }
  return { methods: Object.assign({}, ...methods) as MethodsOfAll<List>, validationPlugins, coverage };
}

/** What the capabilities add to a mock API the harness starts, the later over the earlier. */
export function capabilityMockApiOptions(capabilities: readonly Capability<object>[]): Pick<MockApiOptions, 'converter'> {
  return Object.assign({}, ...capabilities.map((capability) => capability.mockApi ?? {}));
}

/** The clientConfigs every capability calls at the target. */
export function capabilityClientConfigs(capabilities: readonly Capability<object>[]): WebhookClientConfig[] {
  return capabilities.flatMap((capability) => capability.clientConfigs ?? []);
}
