import type { JsonRecord } from '../kube/record';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { limitRanger } from './limit-ranger/plugin';
import type { MissingObject, MutationPlugin, MutationRequest } from './plugin';
import { isRefusingPlugin } from './refusing-plugin';
import type { Status } from '../kube/admission';
import { priorityWithClasses } from './priority-class-exists';
import { defaultStorageClass } from './default-storage-class';
import { storageObjectInUseProtection } from './storage-object-in-use-protection';
import { runtimeClass } from './runtime-class';
import { defaultIngressClass } from './default-ingress-class';
import { serviceAccount } from './service-account';
import { taintNodesByCondition } from './taint-nodes-by-condition';
import { alwaysPullImages } from './optional/always-pull-images';
import { extendedResourceToleration } from './optional/extended-resource-toleration';
import { podNodeSelector } from './optional/pod-node-selector';
import { podTolerationRestriction } from './optional/pod-toleration-restriction';
import { podTopologyLabels } from './optional/pod-topology-labels';

/**
 * Every built-in mutating plugin the harness runs, in kube-apiserver's order (AllOrderedPlugins in
 * pkg/kubeapiserver/options/plugins.go), whether on by default or not.
 */
export const ALL_MUTATION_PLUGINS: readonly MutationPlugin[] = [
  limitRanger,
  serviceAccount,
  taintNodesByCondition,
  alwaysPullImages,
  podNodeSelector,
  priorityWithClasses,
  defaultTolerationSeconds,
  podTolerationRestriction,
  extendedResourceToleration,
  defaultStorageClass,
  storageObjectInUseProtection,
  runtimeClass,
  defaultIngressClass,
  podTopologyLabels,
];

/**
 * The plugins the harness runs that a v1.36 kube-apiserver leaves off unless `--enable-admission-plugins`
 * names them (DefaultOffAdmissionPlugins, pkg/kubeapiserver/options/plugins.go).
 */
export const OFF_BY_DEFAULT_PLUGIN_NAMES: readonly string[] = [
  'LimitPodHardAntiAffinityTopology',
  'AlwaysPullImages',
  'PodNodeSelector',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'OwnerReferencesPermissionEnforcement',
  'DenyServiceExternalIPs',
];

/** The built-in mutating plugins on by default in v1.36, in kube-apiserver's order. */
export const MUTATION_PLUGINS: readonly MutationPlugin[] = ALL_MUTATION_PLUGINS.filter((p) => !OFF_BY_DEFAULT_PLUGIN_NAMES.includes(p.name));

/** The default plugins' names, in order. */
export const MUTATION_PLUGIN_NAMES: readonly string[] = MUTATION_PLUGINS.map((p) => p.name);

/** Every built-in plugin the harness runs, on by default or not, by `--enable-admission-plugins` name, in kube-apiserver's order. */
export const BUILTIN_PLUGIN_NAMES: readonly string[] = [
  'NamespaceLifecycle',
  'LimitPodHardAntiAffinityTopology',
  'LimitRanger',
  'ServiceAccount',
  'TaintNodesByCondition',
  'AlwaysPullImages',
  'PodSecurity',
  'PodNodeSelector',
  'Priority',
  'DefaultTolerationSeconds',
  'PodTolerationRestriction',
  'EventRateLimit',
  'ExtendedResourceToleration',
  'DefaultStorageClass',
  'StorageObjectInUseProtection',
  'OwnerReferencesPermissionEnforcement',
  'PersistentVolumeClaimResize',
  'RuntimeClass',
  'DefaultIngressClass',
  'DenyServiceExternalIPs',
  'PodTopologyLabels',
  'ResourceQuota',
];

/**
 * The plugins a cluster runs: the default ones less `disable`, plus `enable` (names already checked).
 * As kube-apiserver's AdmissionOptions.enabledPluginNames: the order is always AllOrderedPlugins'.
 */
export function enabledPluginNames(enable: readonly string[], disable: readonly string[]): string[] {
  return BUILTIN_PLUGIN_NAMES.filter((name) => (enable.includes(name) || !OFF_BY_DEFAULT_PLUGIN_NAMES.includes(name)) && !disable.includes(name));
}

/**
 * Refuses names of plugins the harness does not run, each with its nearest spelling: what
 * `plugins.disable` and `--disable-admission-plugins` may name. `option` is how the caller's user
 * spelled the list, so the CLI names its flag and createHarness its option.
 */
export function assertBuiltinPluginNames(names: readonly string[], option = 'plugins.disable'): void {
  const unknown = names.filter((name) => !BUILTIN_PLUGIN_NAMES.includes(name));
  if (unknown.length === 0) return;
  throw new HarnessError(
    'USAGE',
    `${option} names ${unknown.map((n) => `${JSON.stringify(n)}${didYouMean(n, BUILTIN_PLUGIN_NAMES)}`).join(', ')}, which the harness does not run`,
    `the built-in plugins are ${BUILTIN_PLUGIN_NAMES.join(', ')}`,
  );
}

/**
 * Refuses a plugin named both on and off, as kube-apiserver refuses to start with
 * `[<names>] in enable-admission-plugins and disable-admission-plugins overlapped`
 * (AdmissionOptions.Validate, k8s.io/apiserver/pkg/server/options/admission.go). `options` names the two
 * lists as the caller's user spelled them.
 */
export function assertNoPluginBothEnabledAndDisabled(
  enable: readonly string[],
  disable: readonly string[],
  options = { enable: 'plugins.enable', disable: 'plugins.disable' },
): void {
  const both = [...new Set(enable.filter((name) => disable.includes(name)))].sort();
  if (both.length === 0) return;
  throw new HarnessError(
    'USAGE',
    `${options.enable} and ${options.disable} both name ${both.map((n) => JSON.stringify(n)).join(', ')}`,
    `a plugin is on or off, not both (kube-apiserver refuses to start: [${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped)`,
  );
}

/** The outcome of the mutation phase's built-in plugins: the object, which plugins changed it, and a refusal that ended them. */
export interface PluginsResult {
  object: JsonRecord;
  changedBy: string[];
  refusal?: { plugin: string; status: Status; missing?: MissingObject };
}

/** Runs `plugins` (in the order given) on one request; each sees the previous one's output; a refusal ends the run. */
export function runMutationPlugins(plugins: readonly MutationPlugin[], request: MutationRequest): PluginsResult {
  let object = request.object;
  const changedBy: string[] = [];
  for (const plugin of plugins) {
    const decision = isRefusingPlugin(plugin) ? plugin.decide({ ...request, object }) : { object: plugin.admit({ ...request, object }) };
    if (decision.refusal)
      return {
        object,
        changedBy,
        refusal: { plugin: plugin.name, status: decision.refusal, ...('missing' in decision && decision.missing ? { missing: decision.missing } : {}) },
      };
    if (decision.object === undefined) continue;
    object = decision.object;
    changedBy.push(plugin.name);
  }
  return { object, changedBy };
}
