import { BUILTIN_PLUGIN_NAMES } from '../../lib/plugins';
import { isRecord as isObject } from '../../lib/kube/json';
import { didYouMean } from '../../lib/nearest-name';
import type { SuitePlugins } from './model';
import schema from './suite.schema.json';

/** Reports one problem at a field of the suite (`plugins.disable[0]`); the caller prefixes the file. */
type Report = (where: string, message: string) => void;

const PLUGIN_KEYS = new Set(Object.keys(schema.definitions.plugins.properties));

/**
 * A suite's `plugins` (the built-in admission plugins of its cluster, as createHarness's `plugins`): each
 * list holds names of plugins the harness runs, each unknown one reported with its nearest spelling.
 * Whether a plugin is both on and off is createHarness's to say, once the command line's are added.
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
      if (!BUILTIN_PLUGIN_NAMES.includes(name)) at(`plugins.${key}[${i}]`, `Unsupported value: ${JSON.stringify(name)}${didYouMean(name, BUILTIN_PLUGIN_NAMES)}: the built-in plugins the harness runs are ${BUILTIN_PLUGIN_NAMES.join(', ')}`);
    });
    plugins[key as keyof SuitePlugins] = names as string[];
  }
  return plugins;
}

/** A suite's `allowPrivileged` (kube-apiserver's `--allow-privileged`), when given. */
export function parseAllowPrivileged(value: unknown, at: Report): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  at('allowPrivileged', `Invalid value: ${JSON.stringify(value)}: must be true or false`);
  return undefined;
}
