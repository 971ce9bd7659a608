/**
 * ObjectMeta as a custom resource's decoder reads it (apiextensions-apiserver
 * pkg/apiserver/schema/objectmeta/coerce.go `GetObjectMetaWithOptions` and `SetObjectMeta`): the
 * `metadata` map is unmarshalled into a typed metav1.ObjectMeta and written back. That round trip is
 * what prunes metadata: unknown fields vanish, empty `omitempty` fields vanish, timestamps are
 * rewritten in UTC, and a member of the wrong type is a decode error (request bodies) or is dropped
 * (objects read back from storage, `DropMalformedFields`).
 */
import { isObject, type Json, type JsonObject } from '../../kube/json';
import { goJsonKind } from '../../go/json-errors';
import { goTypeName } from './openapi/go-values';

export interface ObjectMetaReading {
  /** The metadata as SetObjectMeta writes it back; undefined when there was none. */
  meta: JsonObject | undefined;
  /** Unknown members, as strict decoding reports them: `metadata.foo`, `spec.template.metadata.bar`. */
  unknown: string[];
  /** The unmarshal error, when malformed members are not dropped. */
  error?: string;
}

/** One typed member: decodes a JSON value or says why it cannot. */
type Decoder = (value: Json, at: Context) => Decoded;
type Decoded = { value: Json | undefined } | { error: string };

interface Context {
  /** The Go struct holding the field, for `Go struct field <Struct>.<path>`. */
  struct: string;
  /** The JSON field path from ObjectMeta down (encoding/json's FieldStack). */
  path: string;
  unknown: string[];
  /** Where unknown members are reported from: `metadata` or `spec.template.metadata`. */
  prefix: string;
}

/** encoding/json's UnmarshalTypeError inside a struct. */
function typeError(value: Json, goType: string, at: Context, detail?: string): { error: string } {
  const kind = detail ?? goJsonKind(value);
  return { error: `json: cannot unmarshal ${kind} into Go struct field ${at.struct}.${at.path} of type ${goType}` };
}

const stringField: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  return typeof value === 'string' ? { value: value === '' ? undefined : value } : typeError(value, 'string', at);
};

/** A string that is always written, even empty (OwnerReference's required members). */
const requiredString: Decoder = (value, at) => {
  if (value === null) return { value: '' };
  return typeof value === 'string' ? { value } : typeError(value, 'string', at);
};

function integer(omitZero: boolean): Decoder {
  return (value, at) => {
    if (value === null) return { value: undefined };
    if (typeof value !== 'number') return typeError(value, 'int64', at);
    if (!Number.isInteger(value)) return typeError(value, 'int64', at, `number ${value}`);
    return { value: omitZero && value === 0 ? undefined : value };
  };
}

const bool: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  return typeof value === 'boolean' ? { value } : typeError(value, 'bool', at);
};

const ZERO_TIME = Date.parse('0001-01-01T00:00:00Z');
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * metav1.Time: RFC 3339 in, `2006-01-02T15:04:05Z` (UTC, whole seconds) out; null or the zero time
 * leave it unset (and an unset creationTimestamp is not written back).
 */
const time: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  if (typeof value !== 'string') return typeError(value, 'string', at);
  const match = RFC3339.exec(value);
  const millis = match ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(millis)) {
    return { error: `parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(value)} as "2006"` };
  }
  const seconds = Math.floor(millis / 1000) * 1000;
  // Go's zero time is "unset" and is not written back.
  if (seconds === ZERO_TIME) return { value: undefined };
  return { value: new Date(seconds).toISOString().replace(/\.\d{3}Z$/, 'Z') };
};

const stringMap: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  if (!isObject(value)) return typeError(value, 'map[string]string', at);
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null) out[key] = '';
    else if (typeof item !== 'string') return typeError(item, 'string', at);
    else out[key] = item;
  }
  return { value: Object.keys(out).length === 0 ? undefined : out };
};

const stringList: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  if (!Array.isArray(value)) return typeError(value, '[]string', at);
  const out: string[] = [];
  for (const item of value) {
    if (item === null) out.push('');
    else if (typeof item !== 'string') return typeError(item, 'string', at);
    else out.push(item);
  }
  return { value: out.length === 0 ? undefined : out };
};

/** A raw JSON object kept as is (FieldsV1). */
const rawObject: Decoder = (value, at) => {
  if (value === null) return { value: undefined };
  return isObject(value) ? { value } : typeError(value, 'v1.FieldsV1', at);
};

type Fields = ReadonlyArray<readonly [string, Decoder]>;

const OWNER_REFERENCE: Fields = [
  ['apiVersion', requiredString],
  ['kind', requiredString],
  ['name', requiredString],
  ['uid', requiredString],
  ['controller', bool],
  ['blockOwnerDeletion', bool],
];

const MANAGED_FIELDS_ENTRY: Fields = [
  ['manager', stringField],
  ['operation', stringField],
  ['apiVersion', stringField],
  ['time', time],
  ['fieldsType', stringField],
  ['fieldsV1', rawObject],
  ['subresource', stringField],
];

function structList(struct: string, goType: string, fields: Fields): Decoder {
  return (value, at) => {
    if (value === null) return { value: undefined };
    if (!Array.isArray(value)) return typeError(value, goType, at);
    const out: JsonObject[] = [];
    for (const [i, item] of value.entries()) {
      if (item !== null && !isObject(item)) return typeError(item, goType.replace(/^\[\]/, ''), at);
      // A null element decodes to the zero struct.
      const decoded = decodeStruct(item ?? {}, fields, { ...at, struct }, `${at.path}[${i}]`);
      if ('error' in decoded) return decoded;
      out.push(decoded.value);
    }
    return { value: out.length === 0 ? undefined : out };
  };
}

/** metav1.ObjectMeta's members in field order (the order SetObjectMeta writes them). */
const OBJECT_META: Fields = [
  ['name', stringField],
  ['generateName', stringField],
  ['namespace', stringField],
  ['selfLink', stringField],
  ['uid', stringField],
  ['resourceVersion', stringField],
  ['generation', integer(true)],
  ['creationTimestamp', time],
  ['deletionTimestamp', time],
  ['deletionGracePeriodSeconds', integer(false)],
  ['labels', stringMap],
  ['annotations', stringMap],
  ['ownerReferences', structList('OwnerReference', '[]v1.OwnerReference', OWNER_REFERENCE)],
  ['finalizers', stringList],
  ['managedFields', structList('ManagedFieldsEntry', '[]v1.ManagedFieldsEntry', MANAGED_FIELDS_ENTRY)],
];

/**
 * Decodes one struct: known members through their decoders, unknown ones reported (strict decoding)
 * with `unknownPath` as their parent. The first type error wins, as encoding/json reports it.
 */
function decodeStruct(object: JsonObject, fields: Fields, at: Context, unknownPath: string): { value: JsonObject } | { error: string } {
  const decoders = new Map(fields);
  for (const name of Object.keys(object)) {
    if (!decoders.has(name)) at.unknown.push(`${at.prefix}.${unknownPath ? `${unknownPath}.` : ''}${name}`);
  }
  const out: JsonObject = {};
  for (const [name, decode] of fields) {
    if (!Object.hasOwn(object, name)) {
      // Required members of nested structs are always written, as encoding/json writes them.
      if (decode === requiredString) out[name] = '';
      continue;
    }
    const decoded = decode(object[name] as Json, { ...at, path: at.path ? `${at.path}.${name}` : name });
    if ('error' in decoded) return decoded;
    if (decoded.value !== undefined) out[name] = decoded.value;
  }
  return { value: out };
}

/**
 * `GetObjectMetaWithOptions` then `SetObjectMeta`: `metadata` of `container` read as typed ObjectMeta.
 * `prefix` is the field path of the metadata (`metadata`, or `spec.template.metadata` for an embedded
 * resource). With `dropMalformed`, a member that does not decode is dropped instead of failing.
 */
export function readObjectMeta(metadata: Json | undefined, prefix: string, dropMalformed: boolean): ObjectMetaReading {
  if (metadata === undefined) return { meta: undefined, unknown: [] };
  const unknown: string[] = [];
  const at: Context = { struct: 'ObjectMeta', path: '', unknown, prefix };
  if (!isObject(metadata)) {
    if (metadata === null) return { meta: {}, unknown };
    const error = `json: cannot unmarshal ${goJsonKind(metadata)} into Go value of type v1.ObjectMeta`;
    return dropMalformed
      ? { meta: undefined, unknown, error: `invalid metadata: expected object, got ${goTypeName(metadata)}` }
      : { meta: undefined, unknown, error };
  }
  const decoded = decodeStruct(metadata, OBJECT_META, at, '');
  if ('value' in decoded) return { meta: decoded.value, unknown };
  if (!dropMalformed) return { meta: undefined, unknown, error: decoded.error };
  // Field by field, keeping those that decode on their own (coerce.go's best-effort path).
  const kept: JsonObject = {};
  for (const [name, value] of Object.entries(metadata)) {
    const single = decodeStruct({ [name]: value }, OBJECT_META, { ...at, unknown: [] }, '');
    if ('value' in single) Object.assign(kept, single.value);
  }
  const ordered: JsonObject = {};
  for (const [name] of OBJECT_META) if (Object.hasOwn(kept, name)) ordered[name] = kept[name] as Json;
  return { meta: ordered, unknown };
}
