/**
 * `jsonSerializer.Decode` of a patched object into its Go type, as kube-apiserver does after every
 * mutating webhook's patch (`staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/mutating/
 * dispatcher.go`, `callAttrMutatingHook`; `staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/
 * json.go`, which decodes with `sigs.k8s.io/json`'s `UnmarshalCaseSensitivePreserveInts`).
 *
 * The decoder is a fork of Go's encoding/json (`vendor/sigs.k8s.io/json/internal/golang/encoding/json/
 * decode.go`), modelled here:
 * - object keys match struct fields exactly (case-sensitive); other keys are skipped without a word;
 * - a value of the wrong JSON type is a *saved* error (`UnmarshalTypeError`): decoding goes on and the
 *   first saved error is returned at the end; its text names the innermost struct that matched a field and
 *   the json names of the fields from the root (embedded Go structs included, no indices, no map keys);
 * - types with their own UnmarshalJSON (Quantity, IntOrString, Time, …) get the value whole; their error
 *   stops the decode at once and wins over any saved error; an UnmarshalTypeError they return (Time and
 *   IntOrString decode with encoding/json inside) still gets the field context added;
 * - `null` leaves a field at its zero value.
 *
 * The object returned is the decoded value as Go would marshal it again — what the next webhook and the
 * storage see — in the input's key order: unknown fields and nulls gone, quantities in canonical form,
 * times in UTC at the precision of their type, `[]byte` re-encoded.
 */
import { goJsonKind } from '../../go/json-errors';
import { cloneJson, isObject, type Json, type JsonObject } from '../../kube/json';
import { canonicalQuantity, jsonNumberLiteral, quantityFromJsonOrError } from '../../kube/quantity';
import { goTypeName, structByName, structForKind, type GoType, type StructType } from '../schema/table';
import { decodeGoBase64, encodeGoBase64 } from './go-base64';
import { RFC3339, RFC3339_MICRO, formatGoTime, isZeroGoTime, parseGoTime } from './go-time';
import { apiVersionOf, gvkWithDefaults, interpretTypeMeta, notRegisteredMessage, parseGroupVersion } from './type-meta';

/** The outcome of decoding a patched object. */
export type DecodeResult =
  | {
      ok: true;
      object: JsonObject;
      /** Paths of the fields dropped as unknown to the Go type, e.g. `spec.bogusField`, `spec.containers[1].Name`. */
      dropped: string[];
      /**
       * The kind the object was decoded into: the requested one, or — when the JSON names another kind the
       * scheme knows — that one, as kube-apiserver would (the chain fails later, converting it).
       */
      decodedAs: { apiVersion: string; kind: string };
    }
  | { ok: false; message: string };

/** Go's UnmarshalTypeError (Struct and Field are its context), or any other error text. */
type DecodeError =
  | { readonly kind: 'type'; readonly value: string; readonly goType: string; readonly struct: string; readonly field: string }
  | { readonly kind: 'plain'; readonly message: string };

/** An error returned by an UnmarshalJSON method: it aborts the whole decode. */
class Fatal {
  constructor(readonly error: DecodeError) {}
}

interface MapKey {
  readonly mapKey: string;
}

interface State {
  /** errorContext.FieldStack */
  readonly stack: string[];
  /** errorContext.Struct's name; undefined while no struct field has matched. */
  struct: string | undefined;
  /** The first saved error. */
  saved: DecodeError | undefined;
  /** Where the decoder is, for the paths of dropped fields. */
  readonly location: Array<string | number | MapKey>;
  readonly dropped: string[];
}

/** Decodes `json` as kube-apiserver decodes a patched object of the built-in kind `apiVersion`/`kind`. */
export function decodeTyped(apiVersion: string, kind: string, json: JsonObject): DecodeResult {
  const target = structForKind(apiVersion, kind);
  const targetGv = parseGroupVersion(apiVersion);
  if (target === undefined || targetGv === undefined) {
    throw new Error(`decodeTyped: ${apiVersion} ${kind} is not a built-in kind of the schema table (custom resources are not decoded into Go types)`);
  }
  const meta = interpretTypeMeta(json);
  if (!meta.ok) return { ok: false, message: meta.message };
  const actual = gvkWithDefaults(meta.gvk, { ...targetGv, kind });
  const actualApiVersion = apiVersionOf(actual);
  let struct: StructType = target;
  if (actualApiVersion !== apiVersion || actual.kind !== kind) {
    const other = structForKind(actualApiVersion, actual.kind);
    if (other === undefined) return { ok: false, message: notRegisteredMessage(actual) };
    struct = other;
  }
  const state: State = { stack: [], struct: undefined, saved: undefined, location: [], dropped: [] };
  let object: JsonObject;
  try {
    object = decodeStruct(json, struct, state);
  } catch (error) {
    if (error instanceof Fatal) return { ok: false, message: errorText(error.error) };
    throw error;
  }
  if (state.saved !== undefined) return { ok: false, message: errorText(state.saved) };
  return { ok: true, object, dropped: state.dropped, decodedAs: { apiVersion: actualApiVersion, kind: actual.kind } };
}

/** UnmarshalTypeError.Error(). */
function errorText(error: DecodeError): string {
  if (error.kind === 'plain') return error.message;
  if (error.struct !== '' || error.field !== '') {
    return `json: cannot unmarshal ${error.value} into Go struct field ${error.struct}.${error.field} of type ${error.goType}`;
  }
  return `json: cannot unmarshal ${error.value} into Go value of type ${error.goType}`;
}

/** decodeState.addErrorContext: an UnmarshalTypeError gets the current struct and field path. */
function withContext(s: State, error: DecodeError): DecodeError {
  if (error.kind !== 'type' || (s.struct === undefined && s.stack.length === 0)) return error;
  const field = error.field === '' ? s.stack.join('.') : `${s.stack.join('.')}.${error.field}`;
  return { ...error, struct: s.struct ?? '', field };
}

function save(s: State, error: DecodeError): undefined {
  if (s.saved === undefined) s.saved = withContext(s, error);
  return undefined;
}

function typeError(value: string, goType: string): DecodeError {
  return { kind: 'type', value, goType, struct: '', field: '' };
}

/** The JSON kind as Go names it in `cannot unmarshal <kind>`. */
const jsonKind = goJsonKind;

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** Go's decoder replaces lone UTF-16 surrogates in strings with U+FFFD (decode.go, `unquoteBytes`). */
function goString(value: string): string {
  return (value as unknown as WellFormed).isWellFormed() ? value : (value as unknown as WellFormed).toWellFormed();
}

function mismatch(s: State, value: Json, type: GoType): undefined {
  return save(s, typeError(jsonKind(value), goTypeName(type)));
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2 ** 63);
const INT64_LIMIT = 2 ** 63; // exclusive; 2^63 is exactly representable, 2^63−1 is not

/** strconv.ParseInt on the number's literal, then the overflow check of the field's size. */
function fitsInteger(n: number, kind: 'int32' | 'int64' | 'uint8'): boolean {
  if (!Number.isInteger(n)) return false;
  if (kind === 'int32') return n >= INT32_MIN && n <= INT32_MAX;
  if (kind === 'uint8') return n >= 0 && n <= 255;
  return n >= INT64_MIN && n < INT64_LIMIT;
}

/** A field's value: the decoded JSON, or undefined when the field ends up at its zero value (omitted). */
function decodeValue(value: Json, type: GoType, s: State): Json | undefined {
  if (value === null) return undefined; // zero value, no error, for every type here
  switch (type.kind) {
    case 'string':
      return typeof value === 'string' ? goString(value) : mismatch(s, value, type);
    case 'bool':
      return typeof value === 'boolean' ? value : mismatch(s, value, type);
    case 'int32':
    case 'int64':
      if (typeof value !== 'number') return mismatch(s, value, type);
      if (!fitsInteger(value, type.kind)) return save(s, typeError(`number ${jsonNumberLiteral(value)}`, goTypeName(type)));
      return value === 0 ? 0 : value; // no -0
    case 'float64':
      return typeof value === 'number' ? value : mismatch(s, value, type);
    case 'bytes':
      return decodeBytes(value, s);
    case 'slice':
      return Array.isArray(value) ? decodeSlice(value, type.elem, s) : mismatch(s, value, type);
    case 'map':
      return isObject(value) ? decodeMap(value, type.elem, s) : mismatch(s, value, type);
    case 'struct':
      return isObject(value) ? decodeStruct(value, type, s) : mismatch(s, value, type);
    case 'quantity':
      return decodeQuantity(value);
    case 'intOrString':
      return decodeIntOrString(value, s);
    case 'time':
      return decodeTime(value, RFC3339, s);
    case 'microTime':
      return decodeTime(value, RFC3339_MICRO, s);
    case 'rawExtension':
    case 'json':
    case 'fieldsV1':
      return cloneJson(value); // kept as raw JSON
    case 'jsonSchemaPropsOrBool':
      if (typeof value === 'boolean') return value;
      if (isObject(value)) return decodeNested(value, schemaPropsOf(type.id), s);
      throw new Fatal({ kind: 'plain', message: 'boolean or JSON schema expected' });
    case 'jsonSchemaPropsOrArray':
      if (isObject(value)) return decodeNested(value, schemaPropsOf(type.id), s);
      if (Array.isArray(value)) return decodeNested(value, { kind: 'slice', elem: schemaPropsOf(type.id) }, s);
      return undefined; // anything else leaves it empty, without an error
    case 'jsonSchemaPropsOrStringArray':
      if (isObject(value)) return decodeNested(value, schemaPropsOf(type.id), s);
      if (Array.isArray(value)) return decodeNested(value, { kind: 'slice', elem: { kind: 'string' } }, s);
      return undefined;
  }
}

/** An element of a slice or a value of a map: null is the element type's zero value, written out. */
function decodeElement(value: Json, type: GoType, s: State): Json {
  const decoded = decodeValue(value, type, s);
  return decoded === undefined ? zeroValue(type) : decoded;
}

/** How Go marshals the zero value of a type. */
function zeroValue(type: GoType): Json {
  switch (type.kind) {
    case 'string':
      return '';
    case 'bool':
    case 'jsonSchemaPropsOrBool':
      return false;
    case 'int32':
    case 'int64':
    case 'float64':
    case 'intOrString':
      return 0;
    case 'quantity':
      return '0';
    case 'struct':
      return {};
    default:
      return null;
  }
}

/** Whether a value of this type can hold struct fields, i.e. fields that could be dropped. */
function holdsStructs(type: GoType): boolean {
  switch (type.kind) {
    case 'struct':
    case 'jsonSchemaPropsOrArray':
    case 'jsonSchemaPropsOrBool':
    case 'jsonSchemaPropsOrStringArray':
      return true;
    case 'slice':
    case 'map':
      return holdsStructs(type.elem);
    default:
      return false;
  }
}

function decodeStruct(object: JsonObject, struct: StructType, s: State): JsonObject {
  const out: JsonObject = {};
  const outerStruct = s.struct;
  const depth = s.stack.length;
  for (const key of Object.keys(object)) {
    const type = struct.fields.get(key);
    if (type === undefined) {
      s.dropped.push(pathText(s.location, key));
      continue;
    }
    const via = struct.embedded.get(key);
    if (via !== undefined) for (const name of via) s.stack.push(name);
    s.stack.push(key);
    s.struct = struct.name;
    s.location.push(key);
    const decoded = decodeValue(object[key] as Json, type, s);
    s.location.pop();
    while (s.stack.length > depth) s.stack.pop();
    s.struct = outerStruct;
    if (decoded !== undefined && !omittedOnEncode(struct, key, type, decoded)) out[key] = decoded;
  }
  return out;
}

/**
 * Whether Go's encoding/json leaves the decoded field out when the object is written back: an
 * `omitempty` list or map left empty. The API's optional lists and maps carry omitempty and its
 * required ones do not (a pod's `containers`), so `readinessGates: []` a webhook adds is gone before
 * the next webhook sees the object (fixtures/apiserver-outcomes/patch-empty-list.json). Scalars at
 * their zero value are kept as written: whether Go omits one (a value field) or writes it (a pointer,
 * a field without omitempty: TokenRequestStatus.token) the published schemas do not say, and
 * equality treats an absent value field as its zero value anyway (lib/registry/equality.ts).
 */
function omittedOnEncode(struct: StructType, key: string, type: GoType, value: Json): boolean {
  const empty = type.kind === 'slice' ? Array.isArray(value) && value.length === 0 : type.kind === 'map' && isObject(value) && Object.keys(value).length === 0;
  return empty && !struct.required.includes(key);
}

function decodeSlice(array: Json[], elem: GoType, s: State): Json[] {
  const track = holdsStructs(elem);
  const out: Json[] = new Array(array.length);
  for (let i = 0; i < array.length; i++) {
    if (track) s.location.push(i);
    out[i] = decodeElement(array[i] as Json, elem, s);
    if (track) s.location.pop();
  }
  return out;
}

function decodeMap(object: JsonObject, elem: GoType, s: State): JsonObject {
  const track = holdsStructs(elem);
  const out: JsonObject = {};
  for (const key of Object.keys(object)) {
    if (track) s.location.push({ mapKey: key });
    out[goString(key)] = decodeElement(object[key] as Json, elem, s);
    if (track) s.location.pop();
  }
  return out;
}

/** `[]byte`: a base64 string (StdEncoding), or — as for any slice — an array of byte values. */
function decodeBytes(value: Json, s: State): Json | undefined {
  if (typeof value === 'string') {
    const decoded = decodeGoBase64(value);
    if (!decoded.ok) return save(s, { kind: 'plain', message: decoded.message });
    return encodeGoBase64(decoded.bytes);
  }
  if (Array.isArray(value)) {
    const bytes = new Uint8Array(value.length);
    value.forEach((element, i) => {
      if (element === null) return;
      if (typeof element !== 'number') save(s, typeError(jsonKind(element), 'uint8'));
      else if (!fitsInteger(element, 'uint8')) save(s, typeError(`number ${jsonNumberLiteral(element)}`, 'uint8'));
      else bytes[i] = element;
    });
    return encodeGoBase64(bytes);
  }
  return mismatch(s, value, { kind: 'bytes' });
}

/**
 * Outcomes of parsing a quantity or a time string, by the string: the same few values recur in every
 * object (`500m`, `128Mi`, managedFields times), and parsing them is most of a decode's cost. Bounded;
 * emptied when full.
 */
const CACHE_LIMIT = 4096;
const quantityCache = new Map<string, { text: string } | { error: string }>();
type TimeOutcome = { text: string | undefined } | { error: string };
const timeCaches: Record<typeof RFC3339 | typeof RFC3339_MICRO, Map<string, TimeOutcome>> = {
  [RFC3339]: new Map(),
  [RFC3339_MICRO]: new Map(),
};

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

/** resource.Quantity.UnmarshalJSON, then String(): the canonical text, or its error (fatal). */
function decodeQuantity(value: Json): string {
  if (typeof value === 'string') {
    const known = quantityCache.get(value) ?? remember(quantityCache, value, quantityOutcome(value));
    if ('error' in known) throw new Fatal({ kind: 'plain', message: known.error });
    return known.text;
  }
  const outcome = quantityOutcome(value);
  if ('error' in outcome) throw new Fatal({ kind: 'plain', message: outcome.error });
  return outcome.text;
}

function quantityOutcome(value: Json): { text: string } | { error: string } {
  const parsed = quantityFromJsonOrError(value);
  return parsed.ok ? { text: canonicalQuantity(parsed.quantity) } : { error: parsed.message };
}

/** intstr.IntOrString.UnmarshalJSON: a string, or encoding/json into an int32. */
function decodeIntOrString(value: Json, s: State): Json {
  if (typeof value === 'string') return goString(value);
  if (typeof value === 'number') {
    if (fitsInteger(value, 'int32')) return value === 0 ? 0 : value;
    throw new Fatal(withContext(s, typeError(`number ${jsonNumberLiteral(value)}`, 'int32')));
  }
  throw new Fatal(withContext(s, typeError(jsonKind(value), 'int32')));
}

/** metav1.Time / MicroTime UnmarshalJSON: encoding/json into a string, then time.Parse. */
function decodeTime(value: Json, layout: typeof RFC3339 | typeof RFC3339_MICRO, s: State): Json | undefined {
  if (typeof value !== 'string') throw new Fatal(withContext(s, typeError(jsonKind(value), 'string')));
  const cache = timeCaches[layout];
  const known = cache.get(value) ?? remember(cache, value, timeOutcome(layout, value));
  if ('error' in known) throw new Fatal({ kind: 'plain', message: known.error });
  return known.text;
}

function timeOutcome(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): TimeOutcome {
  const parsed = parseGoTime(layout, value);
  if (!parsed.ok) return { error: parsed.message };
  return { text: isZeroGoTime(parsed.time) ? undefined : formatGoTime(layout, parsed.time) };
}

/** `JSONSchemaProps` of the same apiextensions version as a JSONSchemaPropsOr* type. */
function schemaPropsOf(id: string): StructType {
  const struct = structByName(id.replace(/JSONSchemaPropsOr\w+$/, 'JSONSchemaProps'));
  if (struct === undefined) throw new Error(`schema table: no JSONSchemaProps next to ${id}`);
  return struct;
}

/**
 * The JSONSchemaPropsOr* types decode their content with a json.Unmarshal of their own: a fresh decoder
 * whose error, saved or not, is the UnmarshalJSON's error — fatal for the outer decode, which prefixes
 * its own context (`apiextensions/v1/marshal.go`).
 */
function decodeNested(value: Json, type: GoType, s: State): Json | undefined {
  const inner: State = { stack: [], struct: undefined, saved: undefined, location: s.location, dropped: s.dropped };
  let decoded: Json | undefined;
  try {
    decoded = decodeValue(value, type, inner);
  } catch (error) {
    if (error instanceof Fatal) throw new Fatal(withContext(s, error.error));
    throw error;
  }
  if (inner.saved !== undefined) throw new Fatal(withContext(s, inner.saved));
  return decoded;
}

function pathText(location: ReadonlyArray<string | number | MapKey>, last: string): string {
  let text = '';
  for (const segment of location) text += segmentText(segment, text === '');
  return text + segmentText(last, text === '');
}

function segmentText(segment: string | number | MapKey, first: boolean): string {
  if (typeof segment === 'number') return `[${segment}]`;
  if (typeof segment === 'object') return `[${segment.mapKey}]`;
  return first ? segment : `.${segment}`;
}
