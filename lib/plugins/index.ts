export { MUTATION_PLUGINS, MUTATION_PLUGIN_NAMES, runMutationPlugins } from './mutation-phase';
export type { PluginsResult } from './mutation-phase';
export type { MutationPlugin, MutationRequest } from './plugin';
export { isDefaultToleration } from './default-toleration-seconds';
