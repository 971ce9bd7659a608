import type { ResourceCatalog } from '../kube/catalog';
import {
  ALL_MUTATION_PLUGINS,
  assertBuiltinPluginNames,
  assertNoPluginBothEnabledAndDisabled,
  enabledPluginNames,
  readAdmissionConfiguration,
  type MutationPlugin,
  type PluginConfigurations,
} from '../plugins';
import type { KindResources } from '../plugins/optional/owner-references-permission-enforcement';
import type { HarnessOptions } from './options';

/** The built-in admission plugins a harness runs (`HarnessOptions.plugins`). */
export interface EnabledPlugins {
  /** The mutating ones, in kube-apiserver's order. */
  mutating: readonly MutationPlugin[];
  /** Every one enabled, by name. */
  builtins: ReadonlySet<string>;
  /** `--admission-control-config-file`'s plugin configurations. */
  configuration?: PluginConfigurations;
}

/** The built-in plugins a harness runs: the default ones less those disabled, plus those enabled, and their configuration. */
export function enabledPlugins(given: HarnessOptions['plugins']): EnabledPlugins {
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

/** OwnerReferencesPermissionEnforcement's lookup of an owner kind's resources, through the catalog. */
export function kindResourcesOf(catalog: ResourceCatalog): KindResources {
  return (apiVersion: string, kind: string): { group: string; resource: string }[] => {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const entry = catalog.resourceForKind({ group: group ?? '', version: version ?? '', kind });
    return entry ? [{ group: entry.group, resource: entry.resource }] : [];
  };
}
