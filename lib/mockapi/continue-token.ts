import { posix } from 'node:path';
import { goJsonKind } from '../go/json-errors';
import { goJsonSyntaxError } from '../go/json-scanner';

/**
 * The `continue` token of a paginated list, as apiserver `pkg/storage/continue.go` makes and reads it:
 * base64url (no padding) of `{"v":"meta.k8s.io/v1","rv":<list revision>,"start":"<key after the last item>"}`,
 * where the key is relative to the list's prefix (`/p2\u0000` in a namespace, `/ns/p2\u0000` across them).
 */
export interface ContinuePoint {
  /** The revision the first page was read at; -1 for "the latest" (a token re-issued after compaction). */
  revision: number;
  /** The relative key to start from, without its leading '/'. */
  startKey: string;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Map([...ALPHABET].map((c, i) => [c.charCodeAt(0), i]));

/** Go's `base64.RawURLEncoding.DecodeString`, with its `illegal base64 data at input byte N` positions. */
function decodeRawUrlBase64(text: string): Uint8Array | string {
  const src = Buffer.from(text, 'latin1');
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const quantum: number[] = [];
    while (quantum.length < 4) {
      if (si === src.length) {
        if (quantum.length === 1) return `illegal base64 data at input byte ${si - 1}`;
        break;
      }
      const c = src[si++] as number;
      const value = DECODE.get(c);
      if (value !== undefined) quantum.push(value);
      else if (c !== 0x0a && c !== 0x0d) return `illegal base64 data at input byte ${si - 1}`;
    }
    const [a = 0, b = 0, c = 0, d = 0] = quantum;
    const bits = (a << 18) | (b << 12) | (c << 6) | d;
    const bytes = [(bits >> 16) & 0xff, (bits >> 8) & 0xff, bits & 0xff];
    out.push(...bytes.slice(0, quantum.length - 1));
  }
  return Uint8Array.from(out);
}

export function encodeContinue(point: ContinuePoint): string {
  // Go's encoder writes NUL as \u0000, as JSON.stringify does.
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: point.revision, start: `/${point.startKey}` })).toString('base64url');
}

const FIELD_TYPES: Readonly<Record<string, 'string' | 'int64'>> = { v: 'string', rv: 'int64', start: 'string', rc: 'int64' };

/** json.Unmarshal into continueToken: the struct-field type errors encoding/json reports. */
function fieldError(token: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(token)) {
    const type = FIELD_TYPES[name];
    if (type === undefined || value === null) continue;
    const wanted = type === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isInteger(value);
    if (wanted) continue;
    const shown = typeof value === 'number' ? `number ${String(value)}` : goJsonKind(value);
    return `json: cannot unmarshal ${shown} into Go struct field continueToken.${name} of type ${type}`;
  }
  return undefined;
}

/**
 * Reads a token (`DecodeContinue`); a string is the error text, which the API answers as
 * `400 invalid continue token: <text>`.
 */
export function decodeContinue(token: string): ContinuePoint | string {
  const invalid = 'continue key is not valid';
  const bytes = decodeRawUrlBase64(token);
  if (typeof bytes === 'string') return `${invalid}: ${bytes}`;
  const syntax = goJsonSyntaxError(bytes);
  if (syntax !== undefined) return `${invalid}: ${syntax}`;
  const parsed = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return `${invalid}: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type storage.continueToken`;
  }
  const fields = parsed as Record<string, unknown>;
  const typeError = fieldError(fields);
  if (typeError !== undefined) return `${invalid}: ${typeError}`;
  const version = typeof fields.v === 'string' ? fields.v : '';
  if (version !== 'meta.k8s.io/v1') return `${invalid}: server does not recognize this encoded version ${version}`;
  const revision = typeof fields.rv === 'number' ? fields.rv : 0;
  if (revision === 0) return `${invalid}: incorrect encoded start resourceVersion (version meta.k8s.io/v1)`;
  const start = typeof fields.start === 'string' ? fields.start : '';
  if (start === '') return `${invalid}: encoded start key empty (version meta.k8s.io/v1)`;
  const key = start.startsWith('/') ? start : `/${start}`;
  // Go's path.Clean, which keeps a token from reaching above the list's prefix.
  const normalized = posix.normalize(key);
  const cleaned = normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
  if (cleaned !== key) return `${invalid}: ${start}`;
  return { revision, startKey: cleaned.slice(1) };
}
