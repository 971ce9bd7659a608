import { BUILTIN_PLUGIN_NAMES } from '../plugins';
import { resolveConfiguration, type PodSecurityConfiguration } from '../plugins/pod-security/configuration';
import { isRecord as isObject } from '../kube/json';
import { didYouMean } from '../nearest-name';
import type { SuitePlugins } from './model';
import schema from './suite.schema.json';

/** Reports one problem at a field of the suite (`plugins.disable[0]`); the caller prefixes the file. */
type Report = (where: string, message: string) => void;

const PLUGIN_KEYS = new Set(Object.keys(schema.definitions.plugins.properties));
const POD_SECURITY = schema.definitions.podSecurity.properties;
const POD_SECURITY_KEYS = new Set(Object.keys(POD_SECURITY));
const DEFAULTS_KEYS = new Set(Object.keys(POD_SECURITY.defaults.properties));
const EXEMPTIONS_KEYS = new Set(Object.keys(POD_SECURITY.exemptions.properties));

/**
 * A suite's `plugins` (the built-in admission plugins of its cluster, as createHarness's `plugins`): each
 * list holds names of plugins the harness runs, each unknown one reported with its nearest spelling.
 * A plugin both on and off is refused, as kube-apiserver refuses it (the command line's are checked when run).
 */
export function parseSuitePlugins(value: unknown, at: Report): SuitePlugins | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    at('plugins', 'must be an object with disable and enable lists');
    return undefined;
  }
  const plugins: SuitePlugins = {};
  for (const [key, names] of Object.entries(value)) {
    if (!PLUGIN_KEYS.has(key)) {
      at(`plugins.${key}`, `unknown field ${JSON.stringify(key)}${didYouMean(key, PLUGIN_KEYS)}; plugins has ${[...PLUGIN_KEYS].join(', ')}`);
      continue;
    }
    if (!Array.isArray(names) || names.some((name) => typeof name !== 'string')) {
      at(`plugins.${key}`, 'must be a list of plugin names');
      continue;
    }
    (names as string[]).forEach((name, i) => {
      if (!BUILTIN_PLUGIN_NAMES.includes(name))
        at(
          `plugins.${key}[${i}]`,
          `Unsupported value: ${JSON.stringify(name)}${didYouMean(name, BUILTIN_PLUGIN_NAMES)}: the built-in plugins the harness runs are ${BUILTIN_PLUGIN_NAMES.join(', ')}`,
        );
    });
    plugins[key as keyof SuitePlugins] = names as string[];
  }
  // A suite names no AdmissionConfiguration, and kube-apiserver does not start EventRateLimit without one.
  const rateLimited = (plugins.enable ?? []).indexOf('EventRateLimit');
  if (rateLimited >= 0)
    at(
      `plugins.enable[${rateLimited}]`,
      'EventRateLimit needs its Configuration, which a suite cannot give (kube-apiserver would not start: couldn\'t init admission plugin "EventRateLimit": limits: Invalid value: []eventratelimit.Limit(nil): must not be empty); use createHarness({ plugins: { enable, configuration } }) or --admission-control-config-file',
    );
  const both = (plugins.enable ?? []).filter((name) => plugins.disable?.includes(name));
  // kube-apiserver refuses to start so: AdmissionOptions.Validate, k8s.io/apiserver/pkg/server/options/admission.go.
  if (both.length > 0) at('plugins', `enable and disable both name ${both.map((n) => JSON.stringify(n)).join(', ')}: a plugin is on or off, not both`);
  return plugins;
}

/** A suite's `allowPrivileged` (kube-apiserver's `--allow-privileged`), when given. */
export function parseAllowPrivileged(value: unknown, at: Report): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  at('allowPrivileged', `Invalid value: ${JSON.stringify(value)}: must be true or false`);
  return undefined;
}

/** Reports each key of `value` not in `known`, with its nearest spelling. */
function unknownKeys(value: Record<string, unknown>, known: Set<string>, where: string, at: Report): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) at(`${where}.${key}`, `unknown field ${JSON.stringify(key)}${didYouMean(key, known)}; ${where} has ${[...known].join(', ')}`);
  }
}

/**
 * A suite's `podSecurity` (PodSecurity's PodSecurityConfiguration, as createHarness's `podSecurity`): the
 * defaults for namespaces without labels and the exemptions. Invalid levels and versions are refused here,
 * as kube-apiserver refuses to start with them.
 */
export function parsePodSecurity(value: unknown, at: Report): PodSecurityConfiguration | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) {
    at('podSecurity', 'must be an object with defaults and exemptions');
    return undefined;
  }
  unknownKeys(value, POD_SECURITY_KEYS, 'podSecurity', at);
  const { defaults, exemptions } = value;
  if (defaults !== undefined) {
    if (!isObject(defaults) || Object.values(defaults).some((v) => typeof v !== 'string'))
      at('podSecurity.defaults', 'must map enforce, audit, warn and their -version keys to strings');
    else unknownKeys(defaults, DEFAULTS_KEYS, 'podSecurity.defaults', at);
  }
  if (exemptions !== undefined) {
    if (!isObject(exemptions) || Object.values(exemptions).some((v) => !Array.isArray(v) || v.some((e) => typeof e !== 'string')))
      at('podSecurity.exemptions', 'must map usernames, namespaces and runtimeClasses to lists of strings');
    else unknownKeys(exemptions, EXEMPTIONS_KEYS, 'podSecurity.exemptions', at);
  }
  const configuration = value as PodSecurityConfiguration;
  try {
    resolveConfiguration(configuration);
  } catch (error) {
    // "PodSecurity configuration: defaults.enforce: must be one of …": said at the suite's field.
    const [, field, message] = /^PodSecurity configuration: ([^:]+): (.*)$/.exec((error as Error).message) ?? [];
    at(`podSecurity.${field ?? 'defaults'}`, `Invalid value: ${message ?? (error as Error).message}`);
  }
  return configuration;
}
