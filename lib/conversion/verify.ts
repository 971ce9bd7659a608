import { goAggregate } from '../go/aggregate';
import { goQuote } from '../go/strconv';
import type { KubeObject } from '../kube/admission';
import { Path } from '../kube/field-path';
import { isRecord } from '../kube/json';
import { goTypeName } from '../registry/crd/openapi/go-values';
import { validateAnnotations, validateLabels } from '../registry/validation/labels';
import type { DecodedConversionReview } from './decode';
import type { ConversionReviewVersion } from './review';

/** Which of kube-apiserver's checks an answer failed (webhook_converter.go, in the order it makes them). */
export type ConversionCheck =
  | 'review-version'
  | 'client-config'
  | 'transport'
  | 'http-status'
  | 'decode'
  | 'review-kind'
  | 'response-missing'
  | 'uid'
  | 'result'
  | 'count'
  | 'object-decode'
  | 'api-version'
  | 'kind'
  | 'identity'
  | 'metadata';

export type VerifiedConversion = { ok: true; object: KubeObject } | { ok: false; check: ConversionCheck; message: string };

/** `schema.GroupVersionKind.String()` of an object: `stable.example.com/v1, Kind=Widget`. */
export function gvkText(object: { apiVersion?: unknown; kind?: unknown }): string {
  const { group, version } = groupVersion(object.apiVersion);
  return `${group}/${version}, Kind=${typeof object.kind === 'string' ? object.kind : ''}`;
}

function groupVersion(apiVersion: unknown): { group: string; version: string } {
  const text = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = text.indexOf('/');
  return slash < 0 ? { group: '', version: text } : { group: text.slice(0, slash), version: text.slice(slash + 1) };
}

/** `schema.GroupVersion.String()`: the core group prints its version alone. */
export function groupVersionText(apiVersion: unknown): string {
  const { group, version } = groupVersion(apiVersion);
  return group ? `${group}/${version}` : version;
}

/**
 * `getConvertedObjectsFromResponse`: the answer's GVK and uid (v1 only), its response and result.status;
 * the converted objects when they pass, else the failure with kube's text under `prefix`.
 */
export function responseObjects(
  review: DecodedConversionReview,
  sent: { uid: string; version: ConversionReviewVersion },
  prefix: string,
): { ok: true; objects: unknown[] } | { ok: false; check: ConversionCheck; message: string } {
  const failed = (check: ConversionCheck, text: string) => ({ ok: false as const, check, message: `${prefix} failed: ${text}` });
  if (sent.version === 'v1') {
    const got = `${review.apiVersion?.includes('/') ? '' : '/'}${review.apiVersion ?? ''}, Kind=${review.kind ?? ''}`;
    if (review.apiVersion !== 'apiextensions.k8s.io/v1' || review.kind !== 'ConversionReview') {
      return failed('review-kind', `expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got ${got}`);
    }
  }
  const response = review.response;
  if (!response) return failed('response-missing', 'no response provided');
  if (sent.version === 'v1' && (response.uid ?? '') !== sent.uid)
    return failed('uid', `expected response.uid=${goQuote(sent.uid)}, got ${goQuote(response.uid ?? '')}`);
  const status = response.result?.status ?? '';
  if (status !== 'Success') {
    const message = response.result?.message ?? '';
    return failed('result', message.length > 0 ? message : `response.result.status was '${status}', not 'Success'`);
  }
  return { ok: true, objects: response.convertedObjects ?? [] };
}

/**
 * The checks webhook_converter.go (`getConvertedObjectsFromResponse`, then `Convert` for a single
 * object) makes of a decoded answer, with its texts: GVK and uid (v1 only), result.status, the count,
 * the converted object's groupVersion and kind, its name/namespace/UID, and its metadata, of which only
 * labels and annotations are taken (`restoreObjectMeta`). The object returned is what kube-apiserver keeps.
 */
export function verifyConversion(
  review: DecodedConversionReview,
  sent: { uid: string; version: ConversionReviewVersion; object: KubeObject; desiredAPIVersion: string },
): VerifiedConversion {
  const prefix = `conversion webhook for ${gvkText(sent.object)}`;
  const answered = responseObjects(review, sent, prefix);
  if (!answered.ok) return answered;
  const converted = answered.objects;
  if (converted.length !== 1) return { ok: false, check: 'count', message: `${prefix} returned ${converted.length} objects, expected 1` };
  const item = converted[0];
  // Unstructured.UnmarshalJSON's errors come back unwrapped.
  if (!isRecord(item))
    return { ok: false, check: 'object-decode', message: `json: cannot unmarshal ${jsonKind(item)} into Go value of type map[string]interface {}` };
  if (typeof item.kind !== 'string' || item.kind === '')
    return { ok: false, check: 'object-decode', message: `Object 'Kind' is missing in '${JSON.stringify(item)}'` };
  const atIndex = `${prefix} returned invalid object at index 0`;
  if (groupVersionText(item.apiVersion) !== sent.desiredAPIVersion) {
    return {
      ok: false,
      check: 'api-version',
      message: `${atIndex}: invalid groupVersion (expected ${sent.desiredAPIVersion}, received ${groupVersionText(item.apiVersion)})`,
    };
  }
  if (item.kind !== sent.object.kind)
    return { ok: false, check: 'kind', message: `${atIndex}: invalid kind (expected ${sent.object.kind}, received ${item.kind})` };
  const identity = identityChange(sent.object, item);
  if (identity) return { ok: false, check: 'identity', message: `${prefix} returned invalid object: ${identity}` };
  const restored = restoreObjectMeta(sent.object, item);
  if (typeof restored === 'string') return { ok: false, check: 'metadata', message: `${prefix} returned invalid metadata: ${restored}` };
  return { ok: true, object: restored };
}

export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Unstructured's getters: a missing or non-string member reads as "". */
function metaString(object: Record<string, unknown>, field: string): string {
  const metadata = object.metadata;
  const value = isRecord(metadata) ? metadata[field] : undefined;
  return typeof value === 'string' ? value : '';
}

/** `validateConvertedObject`: only labels and annotations may differ in what identifies the object. */
export function identityChange(original: KubeObject, converted: Record<string, unknown>): string | undefined {
  const before = original as unknown as Record<string, unknown>;
  if (original.kind !== converted.kind) return `must have the same kind: ${original.kind} != ${String(converted.kind)}`;
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const e = metaString(before, field);
    const a = metaString(converted, field);
    if (e !== a) return `must have the same ${label}: ${e} != ${a}`;
  }
  return undefined;
}

/**
 * `restoreObjectMeta`: the original's metadata, with the converted object's labels and annotations
 * (absent ones are dropped), each checked as the API checks them when they changed. A text on failure.
 */
export function restoreObjectMeta(original: KubeObject, converted: Record<string, unknown>): KubeObject | string {
  if (!('metadata' in converted)) return 'missing metadata in converted object';
  const answered = converted.metadata;
  if (!isRecord(answered)) return `invalid metadata of type ${goTypeName(answered as never)} in converted object`;
  const metadata: Record<string, unknown> = structuredClone((original.metadata ?? {}) as Record<string, unknown>);
  for (const field of ['labels', 'annotations'] as const) {
    const value = answered[field];
    if (value === undefined || value === null) {
      delete metadata[field];
      continue;
    }
    if (!isRecord(value)) return `invalid metadata.${field} of type ${goTypeName(value as never)} in converted object`;
    const before = isRecord(metadata[field]) ? (metadata[field] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') return `metadata.${field}[${key}] must be a string, but is ${goTypeName(item as never)} in converted object`;
      if (before[key] !== item) changed = true;
    }
    if (changed) {
      const map = value as Record<string, string>;
      // The annotations' path is kube's own spelling (field.NewPath("metadata", "annotation")).
      const errors = field === 'labels' ? validateLabels(map, Path.of('metadata', 'labels')) : validateAnnotations(map, Path.of('metadata', 'annotation'));
      if (errors.length > 0) return goAggregate(errors.map((e) => `${e.field}: ${e.body}`));
    }
    metadata[field] = structuredClone(value);
  }
  return { ...(structuredClone(converted) as KubeObject), metadata: metadata as KubeObject['metadata'] };
}
