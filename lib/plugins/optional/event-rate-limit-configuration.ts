import { HarnessError } from '../../errors';
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { didYouMean } from '../../nearest-name';

// Hand-written after plugin/pkg/admission/eventratelimit/apis/eventratelimit (v1alpha1/types.go,
// validation/validation.go) and config.go LoadConfiguration.

/** The four kinds of bucket: one for the whole server, one per namespace, per user, per event source and object. */
export const LIMIT_TYPES = ['Server', 'Namespace', 'User', 'SourceAndObject'] as const;
export type LimitType = (typeof LIMIT_TYPES)[number];

/** One `limits[]` entry of an eventratelimit.admission.k8s.io/v1alpha1 Configuration. */
export interface EventRateLimit {
  type: LimitType;
  /** Tokens added per second. */
  qps: number;
  /** The bucket's size, and so the requests allowed at once. */
  burst: number;
  /** Buckets kept (LRU) for a type other than Server; 0 means the default 4096. */
  cacheSize: number;
}

const API_VERSION = 'eventratelimit.admission.k8s.io/v1alpha1';
const INT32_MAX = 2 ** 31 - 1;

function usage(where: string, message: string, hint?: string): HarnessError {
  return new HarnessError('USAGE', `${where}: ${message}`, hint);
}

/**
 * How kube-apiserver refuses to start on a configuration the plugin's validation rejects:
 * admission.Plugins.InitPlugin's wrapper around the ErrorList's aggregate (utilerrors: one message
 * alone, several in brackets, duplicates once).
 */
export function eventRateLimitStartupError(where: string, errors: readonly string[]): HarnessError {
  const unique = [...new Set(errors)];
  const aggregate = unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
  return usage(
    where,
    `couldn't init admission plugin "EventRateLimit": ${aggregate}`,
    `an ${API_VERSION} Configuration with limits: [{ type: Server | Namespace | User | SourceAndObject, qps, burst, cacheSize }]`,
  );
}

/** The int32 fields: json.Unmarshal refuses anything but a whole number in range (the harness says so plainly). */
function int32Field(limit: JsonRecord, field: 'qps' | 'burst' | 'cacheSize', where: string): number {
  const value = limit[field];
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > INT32_MAX)
    throw usage(`${where}.${field}`, `${JSON.stringify(value)} is not a whole number (an int32)`);
  return value;
}

/** The Limit decoded as LoadConfiguration would (no validation yet); `type` stays as written. */
function decodeLimit(entry: unknown, where: string): { type: string; qps: number; burst: number; cacheSize: number } {
  if (!isRecord(entry)) throw usage(where, 'must be an object { type, qps, burst, cacheSize }');
  const limit = entry as JsonRecord;
  const type = limit.type ?? '';
  if (typeof type !== 'string') throw usage(`${where}.type`, `${JSON.stringify(type)} is not a string`);
  return { type, qps: int32Field(limit, 'qps', where), burst: int32Field(limit, 'burst', where), cacheSize: int32Field(limit, 'cacheSize', where) };
}

/** ValidateConfiguration's field errors, in its order, with field.Error's texts. */
function validationErrors(limits: ReturnType<typeof decodeLimit>[], given: unknown): string[] {
  const errors: string[] = [];
  // field.Invalid prints the internal slice with %#v: nil when the field is absent, {} when empty.
  if (limits.length === 0)
    errors.push(`limits: Invalid value: []eventratelimit.Limit${given === undefined || given === null ? '(nil)' : '{}'}: must not be empty`);
  limits.forEach((limit, i) => {
    const at = `limits[${i}]`;
    // kube lists the supported values from a Go map, in an order that changes between runs; the harness lists them as declared.
    if (!(LIMIT_TYPES as readonly string[]).includes(limit.type))
      errors.push(`${at}.type: Unsupported value: ${JSON.stringify(limit.type)}: supported values: ${LIMIT_TYPES.map((t) => `"${t}"`).join(', ')}`);
    if (limit.burst <= 0) errors.push(`${at}.burst: Invalid value: ${limit.burst}: must be positive`);
    if (limit.qps <= 0) errors.push(`${at}.qps: Invalid value: ${limit.qps}: must be positive`);
    if (limit.type !== 'Server' && limit.cacheSize < 0) errors.push(`${at}.cacheSize: Invalid value: ${limit.cacheSize}: must not be negative`);
  });
  return errors;
}

/**
 * The EventRateLimit plugin's Configuration from its AdmissionConfiguration entry, decoded and
 * validated as kube-apiserver does before it starts; `configuration` undefined is the plugin enabled
 * without one, which kube-apiserver refuses too (an empty Configuration has no limits).
 */
export function readEventRateLimitConfiguration(configuration: JsonRecord | undefined, where: string): EventRateLimit[] {
  if (configuration !== undefined) {
    if (configuration.kind !== 'Configuration')
      throw usage(`${where}.kind`, `is ${JSON.stringify(configuration.kind)}, not Configuration${didYouMean(String(configuration.kind), ['Configuration'])}`);
    if (configuration.apiVersion !== API_VERSION) throw usage(`${where}.apiVersion`, `is ${JSON.stringify(configuration.apiVersion)}, not ${API_VERSION}`);
  }
  const given = configuration?.limits;
  if (given !== undefined && given !== null && !Array.isArray(given)) throw usage(`${where}.limits`, 'must be a list of { type, qps, burst, cacheSize }');
  const limits = (Array.isArray(given) ? given : []).map((entry, i) => decodeLimit(entry, `${where}.limits[${i}]`));
  const errors = validationErrors(limits, given);
  if (errors.length > 0) throw eventRateLimitStartupError(where, errors);
  return limits as EventRateLimit[];
}
