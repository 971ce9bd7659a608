// The option groups more than one command takes, and the parsing of the values they share.
import { HarnessError } from '../errors';
import { assertBuiltinPluginNames, assertNoPluginBothEnabledAndDisabled, readAdmissionConfiguration } from '../plugins';
import { readEventRateLimitConfiguration } from '../plugins/optional/event-rate-limit-configuration';
import type { TargetArgs } from './target';

/** The target options as a command's help shows them. */
export const TARGET_USAGE = '(--module FILE | --command CMD [--ready-timeout SECONDS] | --url URL [--ca FILE])';

/** The options that name the webhook (`check`, `replay` and `test`). */
export const TARGET_OPTIONS = {
  module: { type: 'string' },
  command: { type: 'string' },
  'ready-timeout': { type: 'string' },
  url: { type: 'string' },
  ca: { type: 'string' },
} as const;

/**
 * `--disable-admission-plugins a,b` and `--enable-admission-plugins a,b`, as kube-apiserver's flags:
 * comma-separated, repeatable; `--admission-control-config-file`, the plugins' AdmissionConfiguration.
 */
export const PLUGIN_OPTIONS = {
  'disable-admission-plugins': { type: 'string', multiple: true },
  'enable-admission-plugins': { type: 'string', multiple: true },
  'admission-control-config-file': { type: 'string' },
} as const;

/** `--option N`: a positive number (a positive integer when `integer`), or undefined when not given. */
export function positive(option: string, text: string | undefined, integer = false): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(value > 0) || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new HarnessError('USAGE', `--${option} takes a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** `--seed N`: an integer, the seed every generated object derives from. */
export function seedOf(text: string): number {
  const seed = Number(text);
  if (!Number.isInteger(seed)) throw new HarnessError('USAGE', `--seed takes an integer, got ${text}`);
  return seed;
}

/** The webhook the target options name (`--ready-timeout` checked), as targetFromArgs takes it. */
export function targetArgs(values: { module?: string; command?: string; url?: string; ca?: string; 'ready-timeout'?: string }): TargetArgs {
  const readyTimeoutSeconds = positive('ready-timeout', values['ready-timeout']);
  return {
    ...(values.module ? { module: values.module } : {}),
    ...(values.command ? { command: values.command } : {}),
    ...(values.url ? { url: values.url } : {}),
    ...(values.ca ? { ca: values.ca } : {}),
    ...(readyTimeoutSeconds !== undefined ? { readyTimeoutSeconds } : {}),
  };
}

const pluginList = (lists: string[] | undefined): string[] =>
  (lists ?? [])
    .flatMap((list) => list.split(','))
    .map((name) => name.trim())
    .filter(Boolean);

/** The plugin names of every `--disable-admission-plugins`; whether each is known is the harness's (and explain's) to say. */
export function disabledPlugins(values: { 'disable-admission-plugins'?: string[] }): string[] {
  return pluginList(values['disable-admission-plugins']);
}

/** `--enable-admission-plugins` (checked: known, and not also disabled) and `--admission-control-config-file`, as check and explain take them. */
export function pluginFlags(values: {
  'disable-admission-plugins'?: string[];
  'enable-admission-plugins'?: string[];
  'admission-control-config-file'?: string;
}): {
  enablePlugins?: string[];
  admissionConfigFile?: string;
} {
  const enable = pluginList(values['enable-admission-plugins']);
  assertBuiltinPluginNames(enable, '--enable-admission-plugins');
  assertNoPluginBothEnabledAndDisabled(enable, disabledPlugins(values), { enable: '--enable-admission-plugins', disable: '--disable-admission-plugins' });
  const file = values['admission-control-config-file'];
  // Read once before anything runs: kube-apiserver does not start on a file it cannot read.
  const configuration = file ? readAdmissionConfiguration(file) : undefined;
  // Nor with EventRateLimit on and no Configuration for it.
  if (enable.includes('EventRateLimit') && !configuration?.eventRateLimit)
    readEventRateLimitConfiguration(undefined, file ?? '--admission-control-config-file');
  return { ...(enable.length > 0 ? { enablePlugins: enable } : {}), ...(file ? { admissionConfigFile: file } : {}) };
}
