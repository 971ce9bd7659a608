import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { HarnessError } from '../../errors';
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { yaml } from '../../yaml';
import { readEventRateLimitConfiguration } from './event-rate-limit-configuration';
import { createEventRateLimiter, type EventRateLimiter } from './event-rate-limit';
import type { PluginClock } from './token-bucket';

/**
 * What the off-by-default plugins read from kube-apiserver's `--admission-control-config-file`
 * (an apiserver.config.k8s.io/v1 AdmissionConfiguration): each plugin's `configuration`, inline or in
 * the file its `path` names.
 */
export interface PluginConfigurations {
  /**
   * PodNodeSelector's `podNodeSelectorPluginConfig`: `clusterDefaultNodeSelector` (the node selector of a
   * namespace without the scheduler.alpha.kubernetes.io/node-selector annotation) and, by namespace name,
   * the selector a pod's nodeSelector must stay within (its whitelist).
   */
  podNodeSelector?: Record<string, string>;
  /** PodTolerationRestriction's Configuration: the tolerations a namespace without its own gets, and the cluster's whitelist. */
  podTolerationRestriction?: { default?: JsonRecord[]; whitelist?: JsonRecord[] };
  /**
   * EventRateLimit built from its Configuration. Unlike the others it holds state (its token
   * buckets), as the plugin kube-apiserver builds once at start does: one per read configuration,
   * so one per harness.
   */
  eventRateLimit?: EventRateLimiter;
}

/**
 * An AdmissionConfiguration as a file (YAML or JSON) or as the parsed object; or either with the
 * clock EventRateLimit's buckets refill by (`{ admissionConfiguration, clock: manualClock() }`), so a
 * test steps time rather than waits for it.
 */
export type AdmissionConfigurationInput = string | Record<string, unknown> | TimedAdmissionConfiguration;

/** An AdmissionConfiguration with the clock its stateful plugins read. */
export interface TimedAdmissionConfiguration {
  admissionConfiguration: string | Record<string, unknown>;
  clock: PluginClock;
}

// Real time for the buckets unless a test gives its own: monotonic, in milliseconds.
const realClock: PluginClock = { now: () => performance.now() };

function isTimed(input: AdmissionConfigurationInput): input is TimedAdmissionConfiguration {
  return typeof input === 'object' && 'admissionConfiguration' in input && 'clock' in input && !('kind' in input);
}

const KINDS = new Set(['AdmissionConfiguration']);
const API_VERSIONS = new Set(['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1', 'apiserver.k8s.io/v1alpha1']);

function usage(where: string, message: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', `${where}: ${message}`, hint);
}

function readDocument(file: string, where: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw usage(where, `cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return yaml().parse(text, { version: '1.1' }) as unknown;
  } catch (error) {
    throw usage(file, `not YAML or JSON: ${(error as Error).message}`);
  }
}

/** A toleration list of the PodTolerationRestriction Configuration, each entry an object. */
function tolerationList(value: unknown, where: string): JsonRecord[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every(isRecord)) throw usage(where, 'must be a list of tolerations ({key, operator, value, effect, tolerationSeconds})');
  return value as JsonRecord[];
}

function podNodeSelectorConfiguration(configuration: JsonRecord, where: string): Record<string, string> {
  // readConfig decodes { podNodeSelectorPluginConfig: map[string]string }; nothing else is read.
  const map = configuration.podNodeSelectorPluginConfig;
  if (map === undefined || map === null) return {};
  if (!isRecord(map) || !Object.values(map).every((v) => typeof v === 'string')) {
    throw usage(`${where}.podNodeSelectorPluginConfig`, 'must map clusterDefaultNodeSelector and namespace names to label selectors such as "env=dev"');
  }
  return map as Record<string, string>;
}

function podTolerationRestrictionConfiguration(configuration: JsonRecord, where: string): NonNullable<PluginConfigurations['podTolerationRestriction']> {
  const defaults = tolerationList(configuration.default, `${where}.default`);
  const whitelist = tolerationList(configuration.whitelist, `${where}.whitelist`);
  return { ...(defaults ? { default: defaults } : {}), ...(whitelist ? { whitelist } : {}) };
}

/**
 * Reads an AdmissionConfiguration (kube-apiserver's ReadAdmissionConfiguration,
 * k8s.io/apiserver/pkg/admission/config.go): plugins it names that the harness does not configure are
 * left alone, as kube-apiserver hands each plugin only its own entry.
 */
export function readAdmissionConfiguration(given: AdmissionConfigurationInput): PluginConfigurations {
  const input = isTimed(given) ? given.admissionConfiguration : given;
  const clock = isTimed(given) ? given.clock : realClock;
  const where = typeof input === 'string' ? input : 'plugins.configuration';
  const document = typeof input === 'string' ? readDocument(input, where) : input;
  const base = typeof input === 'string' ? path.dirname(input) : process.cwd();
  if (!isRecord(document)) throw usage(where, 'must be an AdmissionConfiguration object');
  if (!KINDS.has(String(document.kind)))
    throw usage(
      where,
      `kind is ${JSON.stringify(document.kind)}, not AdmissionConfiguration`,
      'apiVersion: apiserver.config.k8s.io/v1, kind: AdmissionConfiguration, plugins: [{ name, configuration }]',
    );
  if (!API_VERSIONS.has(String(document.apiVersion)))
    throw usage(where, `apiVersion ${JSON.stringify(document.apiVersion)} is not one of ${[...API_VERSIONS].join(', ')}`);
  const plugins = document.plugins ?? [];
  if (!Array.isArray(plugins)) throw usage(`${where}: plugins`, 'must be a list of { name, configuration } or { name, path }');
  const result: PluginConfigurations = {};
  plugins.forEach((entry: unknown, i) => {
    const at = `${where}: plugins[${i}]`;
    if (!isRecord(entry) || typeof entry.name !== 'string') throw usage(at, 'must have a name');
    let configuration: unknown = entry.configuration;
    if (configuration === undefined && typeof entry.path === 'string') configuration = readDocument(path.resolve(base, entry.path), at);
    if (configuration === undefined || configuration === null) return;
    if (!isRecord(configuration)) throw usage(`${at} (${entry.name}).configuration`, 'must be an object');
    if (entry.name === 'PodNodeSelector')
      result.podNodeSelector = podNodeSelectorConfiguration(configuration as JsonRecord, `${at} (PodNodeSelector).configuration`);
    if (entry.name === 'PodTolerationRestriction')
      result.podTolerationRestriction = podTolerationRestrictionConfiguration(configuration as JsonRecord, `${at} (PodTolerationRestriction).configuration`);
    if (entry.name === 'EventRateLimit')
      result.eventRateLimit = createEventRateLimiter(
        readEventRateLimitConfiguration(configuration as JsonRecord, `${at} (EventRateLimit).configuration`),
        clock,
      );
  });
  return result;
}
