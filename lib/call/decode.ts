import type { AdmissionReviewVersion } from '../kube/admission';
import { goJsonKind } from '../go/json-errors';
import { decodeReplyBody, reviewTypeError } from './decode-body';
import type { DecodedReview } from './verify';

export type DecodeResult = { ok: true; review: DecodedReview } | { ok: false; text: string };

/**
 * Decodes a webhook's reply the way kube-apiserver's webhook REST client does (k8s.io/apiserver/pkg/util/webhook/client.go; texts as a real kube-apiserver v1.36.2 gave them),
 * whatever its Content-Type: a body starting with `{` is JSON, anything else goes through the YAML
 * decoder (so an HTML page is one YAML string). Returns the Go decoder's error texts for bodies it
 * cannot take. `text` is `body` as UTF-8; the bytes are kept for Go's byte offsets in syntax errors.
 */
export function decodeReview(body: Buffer, text: string, sentVersion: AdmissionReviewVersion, contentType: string): DecodeResult {
  const decoded = decodeReplyBody(body, text, contentType);
  if (!decoded.ok) return decoded;
  if (!decoded.object) return { ok: true, review: {} };
  const review = decoded.object;
  const typeError = reviewTypeError(review, 'admission.k8s.io', 'AdmissionReview', sentVersion);
  if (typeError) return { ok: false, text: typeError };
  const fieldError = checkResponseFields(review.response);
  if (fieldError) return { ok: false, text: fieldError };
  return { ok: true, review: review as DecodedReview };
}

const RESPONSE_FIELDS: ReadonlyArray<readonly [string, 'string' | 'bool' | 'object' | 'bytes' | 'strings' | 'stringMap']> = [
  ['uid', 'string'],
  ['allowed', 'bool'],
  ['status', 'object'],
  ['patch', 'bytes'],
  ['patchType', 'string'],
  ['auditAnnotations', 'stringMap'],
  ['warnings', 'strings'],
];

/** Go's typed decode of AdmissionResponse: a field of the wrong JSON type fails the whole decode. */
function checkResponseFields(response: unknown): string | undefined {
  if (response === undefined || response === null) return undefined;
  if (typeof response !== 'object' || Array.isArray(response)) {
    return unmarshalError(response, 'response', 'v1.AdmissionResponse');
  }
  for (const [field, expected] of RESPONSE_FIELDS) {
    const value = (response as Record<string, unknown>)[field];
    if (value === undefined || value === null) continue;
    const where = `response.${field}`;
    switch (expected) {
      case 'string':
        if (typeof value !== 'string') return unmarshalError(value, where, 'string');
        break;
      case 'bool':
        if (typeof value !== 'boolean') return unmarshalError(value, where, 'bool');
        break;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value)) return unmarshalError(value, where, 'v1.Status');
        break;
      case 'bytes':
        if (typeof value !== 'string') return unmarshalError(value, where, '[]uint8');
        if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
          return `illegal base64 data at input byte ${firstBadBase64Byte(value)}`;
        }
        break;
      case 'strings':
        if (!Array.isArray(value)) return unmarshalError(value, where, '[]string');
        if (value.some((item) => typeof item !== 'string'))
          return unmarshalError(
            value.find((item) => typeof item !== 'string'),
            where,
            'string',
          );
        break;
      case 'stringMap':
        if (typeof value !== 'object' || Array.isArray(value)) return unmarshalError(value, where, 'map[string]string');
        for (const item of Object.values(value)) {
          if (typeof item !== 'string') return unmarshalError(item, where, 'string');
        }
        break;
    }
  }
  return undefined;
}

function unmarshalError(value: unknown, field: string, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go struct field AdmissionReview.${field} of type ${goType}`;
}

function firstBadBase64Byte(value: string): number {
  const bad = value.search(/[^A-Za-z0-9+/=]/);
  if (bad >= 0) return bad;
  return value.length - (value.length % 4);
}
