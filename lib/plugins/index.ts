export {
  ALL_MUTATION_PLUGINS,
  assertBuiltinPluginNames,
  assertNoPluginBothEnabledAndDisabled,
  BUILTIN_PLUGIN_NAMES,
  enabledPluginNames,
  MUTATION_PLUGINS,
  MUTATION_PLUGIN_NAMES,
  OFF_BY_DEFAULT_PLUGIN_NAMES,
  runMutationPlugins,
} from './mutation-phase';
export {
  readAdmissionConfiguration,
  type AdmissionConfigurationInput,
  type PluginConfigurations,
  type TimedAdmissionConfiguration,
} from './optional/admission-configuration';
export { namespaceLifecycle } from './namespace-lifecycle';
export type { PluginsResult } from './mutation-phase';
export type { MutationPlugin, MutationRequest } from './plugin';
export { isDefaultToleration } from './default-toleration-seconds';
