import type { JsonRecord } from '../kube/record';
import { defaultTolerationSeconds } from './default-toleration-seconds';
import { limitRanger } from './limit-ranger/plugin';
import type { MutationPlugin, MutationRequest } from './plugin';
import { priority } from './priority';
import { serviceAccount } from './service-account';
import { taintNodesByCondition } from './taint-nodes-by-condition';

/**
 * The built-in mutating plugins the harness runs, in kube-apiserver's order (AllOrderedPlugins in
 * pkg/kubeapiserver/options/plugins.go; KUBE-FACTS §14). All are on by default in v1.36.
 */
export const MUTATION_PLUGINS: readonly MutationPlugin[] = [limitRanger, serviceAccount, taintNodesByCondition, priority, defaultTolerationSeconds];

/** The plugins' names, in order. */
export const MUTATION_PLUGIN_NAMES: readonly string[] = MUTATION_PLUGINS.map((p) => p.name);

/** Every built-in plugin the harness runs, by `--enable-admission-plugins` name, in kube-apiserver's order. */
export const BUILTIN_PLUGIN_NAMES: readonly string[] = ['NamespaceLifecycle', ...MUTATION_PLUGIN_NAMES, 'PodSecurity', 'ResourceQuota'];

/** The outcome of the mutation phase's built-in plugins: the object, and which plugins changed it. */
export interface PluginsResult {
  object: JsonRecord;
  changedBy: string[];
}

/** Runs `plugins` (in the order given) on one request; each sees the previous one's output. */
export function runMutationPlugins(plugins: readonly MutationPlugin[], request: MutationRequest): PluginsResult {
  let object = request.object;
  const changedBy: string[] = [];
  for (const plugin of plugins) {
    const changed = plugin.admit({ ...request, object });
    if (changed === undefined) continue;
    object = changed;
    changedBy.push(plugin.name);
  }
  return { object, changedBy };
}
