export { assertBuiltinPluginNames, assertNoPluginBothEnabledAndDisabled, BUILTIN_PLUGIN_NAMES, MUTATION_PLUGINS, MUTATION_PLUGIN_NAMES, runMutationPlugins } from './mutation-phase';
export { namespaceLifecycle } from './namespace-lifecycle';
export type { PluginsResult } from './mutation-phase';
export type { MutationPlugin, MutationRequest } from './plugin';
export { isDefaultToleration } from './default-toleration-seconds';
