import { goJsonKind } from '../go/json-errors';
import { goJsonSyntaxError } from '../go/json-scanner';
import { goQuote } from '../go/strconv';
import { yaml } from '../yaml';
import type { ImageReviewStatus } from './image-review';

const KIND_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const API_VERSION = 'imagepolicy.k8s.io/v1alpha1';

/**
 * `Result.Into(review)` of the generic webhook client: the body decoded as an ImageReview (JSON, or YAML
 * as the universal deserializer also reads it). A missing apiVersion or kind is taken from the target
 * type; another kind fails the decode. Only `status` is read back: allowed, reason, auditAnnotations.
 */
export function decodeImageReviewReply(body: Buffer, text: string, contentType: string, code: number): { status: ImageReviewStatus } | { error: string } {
  if (body.length === 0) return { error: `0-length response with status code: ${code} and content type: ${contentType || 'application/json'}` };
  let parsed: unknown;
  if (/^\s*\{/.test(text)) {
    try {
      parsed = JSON.parse(text);
    } catch {
      return { error: `couldn't get version/kind; json parse error: ${goJsonSyntaxError(body) ?? 'unexpected end of JSON input'}` };
    }
  } else {
    try {
      parsed = yaml().parse(text, { version: '1.1' });
    } catch (error) {
      return { error: `yaml: ${(error as Error).message.split('\n')[0]}` };
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type ${KIND_STRUCT}` };
  }
  const reply = parsed as { apiVersion?: unknown; kind?: unknown; status?: unknown };
  const apiVersion = typeof reply.apiVersion === 'string' && reply.apiVersion !== '' ? reply.apiVersion : API_VERSION;
  const kind = typeof reply.kind === 'string' && reply.kind !== '' ? reply.kind : 'ImageReview';
  if (apiVersion !== API_VERSION || kind !== 'ImageReview') {
    return { error: `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"` };
  }
  return statusOf(reply.status);
}

function statusOf(value: unknown): { status: ImageReviewStatus } | { error: string } {
  if (value === undefined || value === null) return { status: { allowed: false } };
  if (typeof value !== 'object' || Array.isArray(value)) return { error: unmarshal(value, 'status', 'v1alpha1.ImageReviewStatus') };
  const given = value as Record<string, unknown>;
  const status: ImageReviewStatus = { allowed: false };
  if (given.allowed !== undefined && given.allowed !== null) {
    if (typeof given.allowed !== 'boolean') return { error: unmarshal(given.allowed, 'status.allowed', 'bool') };
    status.allowed = given.allowed;
  }
  if (given.reason !== undefined && given.reason !== null) {
    if (typeof given.reason !== 'string') return { error: unmarshal(given.reason, 'status.reason', 'string') };
    if (given.reason !== '') status.reason = given.reason;
  }
  const audit = given.auditAnnotations;
  if (audit !== undefined && audit !== null) {
    if (typeof audit !== 'object' || Array.isArray(audit)) return { error: unmarshal(audit, 'status.auditAnnotations', 'map[string]string') };
    const bad = Object.values(audit).find((v) => typeof v !== 'string');
    if (bad !== undefined) return { error: unmarshal(bad, 'status.auditAnnotations', 'string') };
    status.auditAnnotations = audit as Record<string, string>;
  }
  return { status };
}

function unmarshal(value: unknown, field: string, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go struct field ImageReview.${field} of type ${goType}`;
}
