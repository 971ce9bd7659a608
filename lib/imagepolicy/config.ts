import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../errors';
import { goDuration } from '../go/duration';
import { didYouMean } from '../nearest-name';
import { yaml } from '../yaml';

/** The plugin's settings once normalised as kube-apiserver does (durations in milliseconds). */
export interface ImagePolicySettings {
  /** The kubeconfig naming the backend, as the configuration gives it. */
  kubeConfigFile: string;
  allowTtlMs: number;
  denyTtlMs: number;
  retryBackoffMs: number;
  defaultAllow: boolean;
}

/** `imagePolicy` of the plugin's configuration as written: seconds for the TTLs, milliseconds for the backoff. */
interface WrittenSettings {
  kubeConfigFile?: unknown;
  allowTTL?: unknown;
  denyTTL?: unknown;
  retryBackoff?: unknown;
  defaultAllow?: unknown;
}

const PLUGIN = 'ImagePolicyWebhook';
const MS = 1e6;
const SECOND = 1e9;

/** A file the harness reads, with the error naming it and what it is for. */
export function readConfigFile(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'USAGE',
      `${what} ${file}: ${(error as Error).message}`,
      'give the path of an existing file (relative paths are taken from the current directory)',
    );
  }
}

/** One YAML or JSON document (kube's YAMLOrJSONDecoder reads the first one). */
export function parseDocument(text: string, where: string): unknown {
  try {
    return yaml().parseAllDocuments(text, { version: '1.1' })[0]?.toJS() ?? null;
  } catch (error) {
    throw new HarnessError('USAGE', `${where}: ${(error as Error).message.split('\n')[0]}`, 'give a YAML or JSON document');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ImagePolicyWebhook configuration an AdmissionConfiguration gives the plugin (kube-apiserver's
 * `ReadAdmissionConfiguration`: the entry's `configuration`, or the file its `path` names, relative to
 * the AdmissionConfiguration's directory). An `ImagePolicyWebhookConfiguration` (or any document with
 * `imagePolicy`) is taken as the plugin's own configuration.
 */
export function pluginConfiguration(given: string | object, where = 'imagePolicy.admissionConfig'): { document: Record<string, unknown>; source: string } {
  const source = typeof given === 'string' ? given : where;
  const document = typeof given === 'string' ? parseDocument(readConfigFile(given, 'the AdmissionConfiguration'), given) : given;
  if (!isRecord(document)) throw new HarnessError('USAGE', `${source}: expected an AdmissionConfiguration object, got ${JSON.stringify(document)}`);
  if ('imagePolicy' in document) return { document, source };
  if (document.kind !== 'AdmissionConfiguration') {
    throw new HarnessError(
      'USAGE',
      `${source}: expected kind AdmissionConfiguration (or ImagePolicyWebhookConfiguration with imagePolicy), got ${JSON.stringify(document.kind ?? null)}`,
      'pass the file given to kube-apiserver --admission-control-config-file',
    );
  }
  const plugins = Array.isArray(document.plugins) ? document.plugins.filter(isRecord) : [];
  const entry = plugins.find((p) => p.name === PLUGIN);
  if (!entry) {
    const names = plugins.map((p) => String(p.name));
    const near = names.map((name) => didYouMean(name, [PLUGIN])).find(Boolean) ?? '';
    throw new HarnessError(
      'USAGE',
      `${source}: plugins has no entry named ${PLUGIN}${near}; kube-apiserver would start the plugin without a configuration and fail: no config specified`,
      `add { name: ${PLUGIN}, configuration: { imagePolicy: {…} } } to plugins`,
    );
  }
  if (isRecord(entry.configuration)) return { document: entry.configuration, source: `${source}: plugins[name=${PLUGIN}].configuration` };
  if (typeof entry.path === 'string') {
    const file = typeof given === 'string' && !path.isAbsolute(entry.path) ? path.join(path.dirname(given), entry.path) : entry.path;
    const parsed = parseDocument(readConfigFile(file, `the ${PLUGIN} configuration`), file);
    if (!isRecord(parsed)) throw new HarnessError('USAGE', `${file}: expected an object with imagePolicy`);
    return { document: parsed, source: file };
  }
  throw new HarnessError(
    'USAGE',
    `${source}: plugins[name=${PLUGIN}] has neither configuration nor path: no config specified`,
    'give the plugin `configuration: { imagePolicy: {…} }` or `path`',
  );
}

/**
 * The plugin's settings, normalised as `normalizeWebhookConfig` (plugin/pkg/admission/imagepolicy
 * config.go) does: 0 means the default, -1 disables (a TTL of 0, a backoff of 0), anything else must
 * lie in (min, max] or the plugin refuses to start with kube's text.
 */
export function imagePolicySettings(document: Record<string, unknown>, source: string): ImagePolicySettings {
  const written = document.imagePolicy;
  if (!isRecord(written))
    throw new HarnessError('USAGE', `${source}: imagePolicy is missing`, 'give imagePolicy: { kubeConfigFile, allowTTL, denyTTL, retryBackoff, defaultAllow }');
  const settings = written as WrittenSettings;
  const known = ['kubeConfigFile', 'allowTTL', 'denyTTL', 'retryBackoff', 'defaultAllow'];
  for (const key of Object.keys(settings)) {
    // kube ignores unknown fields; a misspelt one silently means the default, so the harness says so.
    if (!known.includes(key))
      throw new HarnessError(
        'USAGE',
        `${source}: imagePolicy.${key} is not a field of the plugin's configuration${didYouMean(key, known)}`,
        `kube-apiserver ignores it and uses the default; the fields are ${known.join(', ')}`,
      );
  }
  if (typeof settings.kubeConfigFile !== 'string' || settings.kubeConfigFile === '') {
    throw new HarnessError(
      'USAGE',
      `${source}: imagePolicy.kubeConfigFile must name the backend's kubeconfig`,
      'the kubeconfig whose cluster.server is the backend URL (https) and whose certificate-authority verifies it',
    );
  }
  if (settings.defaultAllow !== undefined && typeof settings.defaultAllow !== 'boolean') {
    throw new HarnessError(
      'USAGE',
      `${source}: json: cannot unmarshal ${JSON.stringify(settings.defaultAllow)} into Go struct field imagePolicyWebhookConfig.imagePolicy.defaultAllow of type bool`,
    );
  }
  const duration = (field: 'allowTTL' | 'denyTTL' | 'retryBackoff', name: string, scale: number, min: number, max: number, fallback: number): number => {
    const value = settings[field] ?? 0;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new HarnessError(
        'USAGE',
        `${source}: json: cannot unmarshal ${JSON.stringify(value)} into Go struct field imagePolicyWebhookConfig.imagePolicy.${field} of type time.Duration`,
        `${field} is a whole number of ${scale === MS ? 'milliseconds' : 'seconds'}`,
      );
    }
    if (value === -1) return 0;
    if (value === 0) return fallback / MS;
    const ns = value * scale;
    if (ns <= min || ns > max) {
      throw new HarnessError(
        'USAGE',
        `${source}: valid value is between ${goDuration(min)} and ${goDuration(max)}, got ${goDuration(ns)}`,
        `imagePolicy.${field} (the ${name}): kube-apiserver refuses to start with this value`,
      );
    }
    return ns / MS;
  };
  return {
    kubeConfigFile: settings.kubeConfigFile,
    retryBackoffMs: duration('retryBackoff', 'backoff', MS, 1, 5 * 60 * SECOND, 500 * MS),
    allowTtlMs: duration('allowTTL', 'allow cache', SECOND, SECOND, 30 * 60 * SECOND, 5 * 60 * SECOND),
    denyTtlMs: duration('denyTTL', 'deny cache', SECOND, SECOND, 30 * 60 * SECOND, 30 * SECOND),
    defaultAllow: settings.defaultAllow ?? false,
  };
}
