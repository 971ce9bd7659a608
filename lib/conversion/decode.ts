import { goJsonKind } from '../go/json-errors';
import { decodeReplyBody, reviewTypeError } from '../call/decode-body';
import type { ConversionReviewVersion } from './review';

/** A webhook's answer as decoded: what the checks of webhook_converter.go read. */
export interface DecodedConversionReview {
  apiVersion?: string;
  kind?: string;
  response?: { uid?: string; convertedObjects?: unknown[] | null; result?: { status?: string; message?: string } } | null;
}

export type ConversionDecodeResult = { ok: true; review: DecodedConversionReview } | { ok: false; text: string };

/**
 * Decodes a conversion webhook's reply as the webhook REST client does (`r.Into(response)`): JSON, or
 * anything else through the YAML decoder; unknown kinds, versions and field types fail with Go's texts.
 * A reply of the other review version fails as a conversion the scheme does not know.
 */
export function decodeConversionReview(body: Buffer, sentVersion: ConversionReviewVersion, contentType: string): ConversionDecodeResult {
  const text = body.toString('utf8');
  const decoded = decodeReplyBody(body, text, contentType);
  if (!decoded.ok) return decoded;
  if (!decoded.object) return { ok: true, review: {} };
  const review = decoded.object;
  const typeError = reviewTypeError(review, 'apiextensions.k8s.io', 'ConversionReview', sentVersion);
  if (typeError) return { ok: false, text: typeError };
  const fieldError = checkResponseFields(review.response);
  return fieldError ? { ok: false, text: fieldError } : { ok: true, review: review as DecodedConversionReview };
}

/** Go's typed decode of ConversionResponse: a member of the wrong JSON type fails the whole decode. */
function checkResponseFields(response: unknown): string | undefined {
  if (response === undefined || response === null) return undefined;
  if (typeof response !== 'object' || Array.isArray(response)) return unmarshalError(response, 'response', 'v1.ConversionResponse');
  const { uid, convertedObjects, result } = response as Record<string, unknown>;
  if (uid !== undefined && uid !== null && typeof uid !== 'string') return unmarshalError(uid, 'response.uid', 'types.UID');
  if (convertedObjects !== undefined && convertedObjects !== null && !Array.isArray(convertedObjects))
    return unmarshalError(convertedObjects, 'response.convertedObjects', '[]runtime.RawExtension');
  if (result === undefined || result === null) return undefined;
  if (typeof result !== 'object' || Array.isArray(result)) return unmarshalError(result, 'response.result', 'v1.Status');
  for (const field of ['status', 'message'] as const) {
    const value = (result as Record<string, unknown>)[field];
    if (value !== undefined && value !== null && typeof value !== 'string') return unmarshalError(value, `response.result.${field}`, 'string');
  }
  return undefined;
}

function unmarshalError(value: unknown, field: string, goType: string): string {
  return `json: cannot unmarshal ${goJsonKind(value)} into Go struct field ConversionReview.${field} of type ${goType}`;
}
