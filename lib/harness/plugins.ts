import type { ResourceCatalog } from '../kube/catalog';
import {
  ALL_MUTATION_PLUGINS,
  assertBuiltinPluginNames,
  assertNoPluginBothEnabledAndDisabled,
  enabledPluginNames,
  readAdmissionConfiguration,
  type AdmissionConfigurationInput,
  type MutationPlugin,
  type PluginConfigurations,
} from '../plugins';
import { readEventRateLimitConfiguration } from '../plugins/optional/event-rate-limit-configuration';
import type { KindResources } from '../plugins/optional/owner-references-permission-enforcement';
import { HarnessError } from '../errors';
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
  const input = configurationInput(given);
  const configuration = input !== undefined ? readAdmissionConfiguration(input) : undefined;
  // kube-apiserver does not start with EventRateLimit on and no Configuration for it: nor does the harness.
  if (names.includes('EventRateLimit') && !configuration?.eventRateLimit) readEventRateLimitConfiguration(undefined, 'plugins.configuration');
  return {
    mutating: ALL_MUTATION_PLUGINS.filter((p) => names.includes(p.name)),
    builtins: new Set(names),
    ...(configuration ? { configuration } : {}),
  };
}

/** The configuration with the clock its stateful plugins read: `plugins.clock`, or the older `{ admissionConfiguration, clock }` form. */
function configurationInput(given: HarnessOptions['plugins']): AdmissionConfigurationInput | undefined {
  const { configuration, clock } = given ?? {};
  if (clock === undefined) return configuration;
  if (configuration === undefined)
    throw new HarnessError(
      'USAGE',
      'plugins.clock is given without plugins.configuration',
      'the clock is what EventRateLimit refills its buckets by: give its AdmissionConfiguration too',
    );
  if (typeof configuration === 'object' && 'admissionConfiguration' in configuration && 'clock' in configuration && !('kind' in configuration))
    throw new HarnessError('USAGE', 'plugins.clock is given twice (also in plugins.configuration.clock)', 'give plugins: { configuration, clock } alone');
  return { admissionConfiguration: configuration as string | Record<string, unknown>, clock };
}

/** OwnerReferencesPermissionEnforcement's lookup of an owner kind's resources, through the catalog. */
export function kindResourcesOf(catalog: ResourceCatalog): KindResources {
  return (apiVersion: string, kind: string): { group: string; resource: string }[] => {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const entry = catalog.resourceForKind({ group: group ?? '', version: version ?? '', kind });
    return entry ? [{ group: entry.group, resource: entry.resource }] : [];
  };
}
