/**
 * What kube-apiserver makes of a mutation expression's CEL value.
 *
 * ApplyConfiguration (apiserver pkg/cel/mutation/dynamic/objects.go): the `Object` value is converted
 * field by field (`convertField`). A list or map that came from the request (`object`, `oldObject`…)
 * is converted throughout; a list or map literal built by the expression has only its elements'
 * `Value()` taken, so an `Object…` element becomes a map but a map or list literal inside it stays a
 * CEL value smd cannot read (a GoOpaque here), and so does `null` (structpb.NullValue). Before that,
 * `CheckTypeNamesMatchFieldPathNames` requires every nested `Object…` to be named after its field path.
 *
 * JSONPatch (admission/plugin/policy/mutating/patch/json_patch.go): each element becomes a JSON patch
 * operation; `value` is converted to a protobuf `Value` and marshalled, so ints become JSON numbers,
 * bytes base64, timestamps RFC 3339 strings and durations `<seconds>s`.
 */
import { celModule } from '../../cel/runtime';
import { goQuote } from '../../go/strconv';
import type { Json, JsonObject } from '../../kube/json';
import { CelObject, JSON_PATCH_TYPE } from './cel-objects';
import { GoOpaque, NULL_VALUE, goSyntax, goText, toJson, type GoMap, type GoValue } from '../../patch/smd/smd-values';

/** The objects and arrays of an activation's request data, as opposed to values the expression built. */
export type RequestValues = WeakSet<object>;

/**
 * The variables whose values kube converts from Go data (UnstructuredToVal): their lists and maps
 * give native values. `variables` is left out: a variable's value is a CEL value like any other (one
 * that takes request data keeps it, being the same objects).
 */
const REQUEST_VARIABLES = ['object', 'oldObject', 'params', 'namespaceObject', 'request'];

/** Collects the objects and arrays reachable from the activation's request variables. */
export function requestValues(activation: Readonly<Record<string, unknown>>): RequestValues {
  const seen: RequestValues = new WeakSet();
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null || seen.has(value) || value instanceof CelObject) return;
    if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return;
    seen.add(value);
    for (const member of Object.values(value)) visit(member);
  };
  for (const name of REQUEST_VARIABLES) visit(activation[name]);
  return seen;
}

export type Converted<T> = { ok: true; value: T } | { ok: false; error: string };

/** `CheckTypeNamesMatchFieldPathNames` (its errors joined by newlines, as errors.Join prints them). */
export function typeNameMismatches(value: unknown): string | undefined {
  if (!(value instanceof CelObject)) return undefined;
  const errors: string[] = [];
  const check = (node: unknown, path: readonly string[]) => {
    if (node instanceof CelObject) {
      const expected = path.join('.');
      if (node.typeName !== expected) {
        errors.push(`unexpected type name ${goQuote(node.typeName)}, expected ${goQuote(expected)}, which matches field name path from root Object type`);
      }
      for (const [field, member] of node) check(member, [...path, field]);
      return;
    }
    // Intermediate lists and maps are unnamed: their elements keep the path.
    if (Array.isArray(node)) for (const member of node) check(member, path);
    else if (isPlainMap(node)) for (const member of Object.values(node)) check(member, path);
  };
  check(value, [value.typeName]);
  return errors.length > 0 ? errors.join('\n') : undefined;
}

/** The apply configuration an `Object` value stands for. */
export function applyConfigurationValue(object: CelObject, request: RequestValues): GoMap {
  const out: GoMap = {};
  for (const [field, member] of object) out[field] = convertField(member, request);
  return out;
}

/** objects.go `convertField`. */
function convertField(value: unknown, request: RequestValues): GoValue {
  if (value instanceof CelObject) return value.typeName === JSON_PATCH_TYPE ? jsonPatchOpaque(value) : applyConfigurationValue(value, request);
  if (Array.isArray(value)) return request.has(value) ? value.map((item) => convertField(item, request)) : value.map((item) => nativeValue(item, request));
  if (isPlainMap(value)) {
    const out: GoMap = {};
    for (const [key, member] of Object.entries(value)) out[key] = request.has(value) ? convertField(member, request) : nativeValue(member, request);
    return out;
  }
  return nativeValue(value, request);
}

/** A CEL value's `Value()`: request data is Go data already, literals stay CEL values. */
function nativeValue(value: unknown, request: RequestValues): GoValue {
  if (value === null) return NULL_VALUE;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof CelObject) return value.typeName === JSON_PATCH_TYPE ? jsonPatchOpaque(value) : applyConfigurationValue(value, request);
  if ((Array.isArray(value) || isPlainMap(value)) && request.has(value)) return convertField(value, request);
  if (Array.isArray(value)) {
    const items = value.map((item) => nativeValue(item, request));
    return new GoOpaque(`[${items.map(goText).join(' ')}]`, `[]ref.Val{${items.map(goSyntax).join(', ')}}`, toJson(items));
  }
  if (isPlainMap(value)) {
    const members: GoMap = {};
    for (const [key, member] of Object.entries(value)) members[key] = nativeValue(member, request);
    return new GoOpaque(goText(members), goSyntax(members).replace(/^map\[string\]interface \{\}/, 'map[ref.Val]ref.Val'), toJson(members));
  }
  // bytes ([]byte: base64 in JSON), timestamps, durations, uints: Go values smd has no kind for.
  const json = jsonScalar(value);
  const encoded = json.ok ? json.value : null;
  if (value instanceof Uint8Array)
    return new GoOpaque(`[${[...value].join(' ')}]`, `[]byte{${[...value].map((b) => `0x${b.toString(16)}`).join(', ')}}`, encoded);
  return new GoOpaque(String(encoded ?? value), JSON.stringify(encoded), encoded);
}

function jsonPatchOpaque(patch: CelObject): GoOpaque {
  return new GoOpaque(
    `&{${String(patch.get('op') ?? '')} ${String(patch.get('from') ?? '')} ${String(patch.get('path') ?? '')}}`,
    '&unstructured.JSONPatchVal{}',
    null,
  );
}

/** The JSON patch operations a `list(JSONPatch)` value stands for (json_patch.go `evaluatePatchExpression`). */
export function jsonPatchOperations(list: unknown): Converted<JsonObject[]> {
  if (!Array.isArray(list)) return { ok: false, error: 'type mismatch: JSONPatchType.expression should evaluate to array' };
  const operations: JsonObject[] = [];
  for (const element of list) {
    if (!(element instanceof CelObject) || element.typeName !== JSON_PATCH_TYPE) {
      return { ok: false, error: 'type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch: cannot convert to native type' };
    }
    const op = element.get('op');
    const path = element.get('path');
    const from = element.get('from');
    const operation: JsonObject = { op: typeof op === 'string' ? op : '', path: typeof path === 'string' ? path : '' };
    if (typeof from === 'string' && from.length > 0) operation.from = from;
    if (element.has('value')) {
      const value = element.get('value');
      if (value instanceof CelObject) {
        const mismatch = typeNameMismatches(value);
        if (mismatch !== undefined) return { ok: false, error: `type mismatch: ${mismatch}` };
      }
      const json = protobufJson(value);
      if (!json.ok) return { ok: false, error: `JSONPath valueExpression evaluated to a type that could not marshal to JSON: ${json.error}` };
      operation.value = json.value;
    }
    operations.push(operation);
  }
  return { ok: true, value: operations };
}

/** A CEL value converted to `structpb.Value` and marshalled to JSON. */
function protobufJson(value: unknown): Converted<Json> {
  if (value instanceof CelObject) {
    if (value.typeName === JSON_PATCH_TYPE) return { ok: false, error: `cannot convert to native type: *structpb.Value` };
    return protobufJson(Object.fromEntries(value));
  }
  if (Array.isArray(value)) {
    const items: Json[] = [];
    for (const item of value) {
      const converted = protobufJson(item);
      if (!converted.ok) return converted;
      items.push(converted.value);
    }
    return { ok: true, value: items };
  }
  if (isPlainMap(value)) {
    const out: JsonObject = {};
    for (const [key, member] of Object.entries(value)) {
      const converted = protobufJson(member);
      if (!converted.ok) return converted;
      out[key] = converted.value;
    }
    return { ok: true, value: out };
  }
  return jsonScalar(value);
}

function jsonScalar(value: unknown): Converted<Json> {
  const { Optional } = celModule();
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'bigint') return { ok: true, value: Number(value) };
  if (typeof value === 'number') {
    // protojson refuses NaN and infinities in a Value.
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, error: `invalid value ${value}` };
  }
  if (value instanceof Uint8Array) return { ok: true, value: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return { ok: true, value: rfc3339Nano(value) };
  if (value instanceof Optional) return { ok: false, error: 'unsupported type: optional_type' };
  if (isDuration(value)) return { ok: true, value: durationText(value) };
  // cel-js's uint (UnsignedInt) holds its value as a bigint behind valueOf.
  if (typeof value === 'object' && value !== null) {
    const primitive = (value as { valueOf(): unknown }).valueOf();
    if (typeof primitive === 'bigint' || typeof primitive === 'number') return { ok: true, value: Number(primitive) };
  }
  return { ok: false, error: `unsupported type: ${typeof value}` };
}

/** cel-js's duration (not exported from its main entry): whole seconds as a bigint and nanoseconds. */
function isDuration(value: unknown): value is { seconds: bigint; nanos: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { seconds?: unknown }).seconds === 'bigint' &&
    typeof (value as { nanos?: unknown }).nanos === 'number'
  );
}

/** Go's time.RFC3339Nano: fractional seconds without trailing zeros, UTC as `Z`. */
function rfc3339Nano(date: Date): string {
  return date.toISOString().replace(/\.(\d*?)0*Z$/, (_, digits: string) => (digits ? `.${digits}Z` : 'Z'));
}

/** The JSON form of a protobuf Duration: seconds with up to nine decimals, and `s`. */
function durationText({ seconds, nanos }: { seconds: bigint; nanos: number }): string {
  const negative = seconds < 0n || nanos < 0;
  const whole = (seconds < 0n ? -seconds : seconds).toString();
  const fraction = Math.abs(nanos).toString().padStart(9, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}s`;
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
