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

/**
 * The built-in mutating plugins the harness runs, in kube-apiserver's order (AllOrderedPlugins in
 * pkg/kubeapiserver/options/plugins.go; KUBE-FACTS §14). All are on by default in v1.36.
 */
export const MUTATION_PLUGINS: readonly MutationPlugin[] = [
  limitRanger,
  serviceAccount,
  taintNodesByCondition,
  priorityWithClasses,
  defaultTolerationSeconds,
  defaultStorageClass,
  storageObjectInUseProtection,
  runtimeClass,
  defaultIngressClass,
];

/** The plugins' names, in order. */
export const MUTATION_PLUGIN_NAMES: readonly string[] = MUTATION_PLUGINS.map((p) => p.name);

/** Every built-in plugin the harness runs, by `--enable-admission-plugins` name, in kube-apiserver's order. */
export const BUILTIN_PLUGIN_NAMES: readonly string[] = ['NamespaceLifecycle', ...MUTATION_PLUGIN_NAMES, 'PodSecurity', 'PersistentVolumeClaimResize', 'ResourceQuota'];

/**
 * Refuses names of plugins the harness does not run, each with its nearest spelling: what
 * `plugins.disable` and `--disable-admission-plugins` may name. `option` is how the caller's user
 * spelled the list, so the CLI names its flag and createHarness its option.
 */
export function assertBuiltinPluginNames(names: readonly string[], option = 'plugins.disable'): void {
  const unknown = names.filter((name) => !BUILTIN_PLUGIN_NAMES.includes(name));
  if (unknown.length === 0) return;
  throw new HarnessError('USAGE', `${option} names ${unknown.map((n) => `${JSON.stringify(n)}${didYouMean(n, BUILTIN_PLUGIN_NAMES)}`).join(', ')}, which the harness does not run`, `the built-in plugins are ${BUILTIN_PLUGIN_NAMES.join(', ')}`);
}

/**
 * Refuses a plugin named both on and off, as kube-apiserver refuses to start with
 * `[<names>] in enable-admission-plugins and disable-admission-plugins overlapped`
 * (AdmissionOptions.Validate, k8s.io/apiserver/pkg/server/options/admission.go). `options` names the two
 * lists as the caller's user spelled them.
 */
export function assertNoPluginBothEnabledAndDisabled(enable: readonly string[], disable: readonly string[], options = { enable: 'plugins.enable', disable: 'plugins.disable' }): void {
  const both = [...new Set(enable.filter((name) => disable.includes(name)))].sort();
  if (both.length === 0) return;
  throw new HarnessError('USAGE', `${options.enable} and ${options.disable} both name ${both.map((n) => JSON.stringify(n)).join(', ')}`, `a plugin is on or off, not both (kube-apiserver refuses to start: [${both.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped)`);
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
    if (decision.refusal) return { object, changedBy, refusal: { plugin: plugin.name, status: decision.refusal, ...('missing' in decision && decision.missing ? { missing: decision.missing } : {}) } };
    if (decision.object === undefined) continue;
    object = decision.object;
    changedBy.push(plugin.name);
  }
  return { object, changedBy };
}
