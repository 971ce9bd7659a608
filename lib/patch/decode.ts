/**
 * jsonpatch.DecodePatch from evanphx/json-patch v4: json.Unmarshal into `Patch`, which is
 * `[]map[string]*json.RawMessage`. Operation members are raw JSON, so their types are not checked here;
 * a non-string `op` only fails later, on apply, as `Unexpected kind: unknown`.
 */
import { cannotUnmarshal } from '../go/json-errors';
import { goJsonSyntaxError } from '../go/json-scanner';
import { isRecord as isObject } from '../kube/json';

/** One decoded operation: any JSON object, or null (Go's nil Operation) for a `null` element. */
export type DecodedOperation = Record<string, unknown> | null;

export type DecodeResult = { ok: true; ops: DecodedOperation[] } | { ok: false; error: string };

/**
 * Decodes a webhook's `response.patch` bytes as kube-apiserver does before applying them. The error is
 * encoding/json's text, which kube prefixes with `received undecodable patch in webhook response: `.
 * kube skips an empty patch before decoding, so `""` only reaches this function by choice.
 */
export function decodeJsonPatch(bytes: string | Uint8Array): DecodeResult {
  const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
  const syntaxError = goJsonSyntaxError(data);
  if (syntaxError !== undefined) return { ok: false, error: syntaxError };
  const text = typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes);
  return asPatch(JSON.parse(text));
}

/**
 * Checks an already-parsed patch the way json.Unmarshal types it: `null` is an empty patch, anything but
 * an array fails, and so does the first element that is neither an object nor null.
 */
export function asPatch(value: unknown): DecodeResult {
  if (value === null || value === undefined) return { ok: true, ops: [] };
  if (!Array.isArray(value)) return { ok: false, error: cannotUnmarshal(value, 'jsonpatch.Patch') };
  const ops: DecodedOperation[] = [];
  for (const element of value as unknown[]) {
    if (element === null || element === undefined) ops.push(null);
    else if (isObject(element)) ops.push(element);
    else return { ok: false, error: cannotUnmarshal(element, 'jsonpatch.Operation') };
  }
  return { ok: true, ops };
}
