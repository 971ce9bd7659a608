import type { Json, JsonObject } from '../kube/json';

/*
 * Request bodies in application/vnd.kubernetes.protobuf, as client-go's typed clients send them (kubectl's
 * `create configmap`, `auth can-i`): the envelope of apimachinery:pkg/runtime/serializer/protobuf/protobuf.go
 * (the magic "k8s\0", then a runtime.Unknown holding TypeMeta and the object's bytes), the object decoded with
 * the field numbers of k8s.io/api's generated.proto into the JSON the REST handlers read. client-go has no
 * fallback from protobuf to JSON (its 415 fallback is for CBOR only), so the mock API decodes what it can.
 */

type Scalar = 'string' | 'bytes' | 'bool' | 'int' | 'strings' | 'time' | 'stringMap' | 'bytesMap';
type FieldType = Scalar | { message: Table } | { messages: Table } | { messageMap: Table };
type Table = Readonly<Record<number, readonly [name: string, type: FieldType]>>;

const TIME: FieldType = 'time';
const OBJECT_META: Table = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', TIME],
  11: ['labels', 'stringMap'],
  12: ['annotations', 'stringMap'],
  14: ['finalizers', 'strings'],
};
const LABEL_REQUIREMENT: Table = { 1: ['key', 'string'], 2: ['operator', 'string'], 3: ['values', 'strings'] };
const SELECTOR_ATTRIBUTES: Table = { 1: ['rawSelector', 'string'], 2: ['requirements', { messages: LABEL_REQUIREMENT }] };
const RESOURCE_ATTRIBUTES: Table = {
  1: ['namespace', 'string'],
  2: ['verb', 'string'],
  3: ['group', 'string'],
  4: ['version', 'string'],
  5: ['resource', 'string'],
  6: ['subresource', 'string'],
  7: ['name', 'string'],
  8: ['fieldSelector', { message: SELECTOR_ATTRIBUTES }],
  9: ['labelSelector', { message: SELECTOR_ATTRIBUTES }],
};
const NON_RESOURCE_ATTRIBUTES: Table = { 1: ['path', 'string'], 2: ['verb', 'string'] };
const ACCESS_REVIEW_SPEC: Table = {
  1: ['resourceAttributes', { message: RESOURCE_ATTRIBUTES }],
  2: ['nonResourceAttributes', { message: NON_RESOURCE_ATTRIBUTES }],
  3: ['user', 'string'],
  4: ['groups', 'strings'],
  5: ['extra', { messageMap: { 1: ['items', 'strings'] } }],
  6: ['uid', 'string'],
};
const withMeta = (rest: Table): Table => ({ 1: ['metadata', { message: OBJECT_META }], ...rest });

/** The kinds whose protobuf bodies are decoded, by `apiVersion kind`. */
const KINDS: Readonly<Record<string, Table>> = {
  'v1 ConfigMap': withMeta({ 2: ['data', 'stringMap'], 3: ['binaryData', 'bytesMap'], 4: ['immutable', 'bool'] }),
  'v1 Secret': withMeta({ 2: ['data', 'bytesMap'], 3: ['type', 'string'], 4: ['stringData', 'stringMap'], 5: ['immutable', 'bool'] }),
  'v1 Namespace': withMeta({ 2: ['spec', { message: { 1: ['finalizers', 'strings'] } }] }),
  'v1 ServiceAccount': withMeta({ 4: ['automountServiceAccountToken', 'bool'] }),
  'authorization.k8s.io/v1 SelfSubjectAccessReview': withMeta({ 2: ['spec', { message: ACCESS_REVIEW_SPEC }] }),
  'authorization.k8s.io/v1 SubjectAccessReview': withMeta({ 2: ['spec', { message: ACCESS_REVIEW_SPEC }] }),
  'authorization.k8s.io/v1 LocalSubjectAccessReview': withMeta({ 2: ['spec', { message: ACCESS_REVIEW_SPEC }] }),
  'authorization.k8s.io/v1 SelfSubjectRulesReview': withMeta({ 2: ['spec', { message: { 1: ['namespace', 'string'] } }] }),
  'authentication.k8s.io/v1 SelfSubjectReview': withMeta({}),
};

/** Why a protobuf body could not be read. */
export class ProtobufError extends Error {}

interface WireField {
  number: number;
  varint?: bigint;
  bytes?: Uint8Array;
}

/** The fields of one message, in order, as the protobuf wire format lays them out. */
function readFields(buffer: Uint8Array): WireField[] {
  const fields: WireField[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= buffer.length) throw new ProtobufError('truncated varint');
      const byte = buffer[at++] as number;
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < buffer.length) {
    const tag = varint();
    const number = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) fields.push({ number, varint: varint() });
    else if (wire === 2) {
      const length = Number(varint());
      if (at + length > buffer.length) throw new ProtobufError('truncated field');
      fields.push({ number, bytes: buffer.subarray(at, at + length) });
      at += length;
    } else if (wire === 1 || wire === 5) at += wire === 1 ? 8 : 4;
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }
  return fields;
}

const utf8 = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes ?? new Uint8Array());

function mapEntry(bytes: Uint8Array | undefined): [string, WireField | undefined] {
  const fields = readFields(bytes ?? new Uint8Array());
  return [utf8(fields.find((f) => f.number === 1)?.bytes), fields.find((f) => f.number === 2)];
}

function timeOf(bytes: Uint8Array | undefined): string | undefined {
  const fields = readFields(bytes ?? new Uint8Array());
  const seconds = fields.find((f) => f.number === 1)?.varint ?? 0n;
  return seconds === 0n ? undefined : new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A message as JSON, leaving out empty values as the JSON encoding's omitempty does. */
function decodeMessage(bytes: Uint8Array, table: Table): JsonObject {
  const out: JsonObject = {};
  for (const field of readFields(bytes)) {
    const spec = table[field.number];
    if (!spec) continue; // a field the table does not know: dropped, as an unknown JSON field would be
    const [name, type] = spec;
    const value = decodeValue(field, type, out[name]);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function decodeValue(field: WireField, type: FieldType, previous: Json | undefined): Json | undefined {
  if (typeof type === 'object') {
    if ('message' in type) return decodeMessage(field.bytes ?? new Uint8Array(), type.message);
    if ('messages' in type) return [...((previous as Json[] | undefined) ?? []), decodeMessage(field.bytes ?? new Uint8Array(), type.messages)];
    const [key, entry] = mapEntry(field.bytes);
    return { ...((previous as JsonObject | undefined) ?? {}), [key]: entry?.bytes ? decodeMessage(entry.bytes, type.messageMap) : {} };
  }
  switch (type) {
    case 'string':
      return utf8(field.bytes) || undefined;
    case 'bytes':
      return Buffer.from(field.bytes ?? []).toString('base64');
    case 'bool':
      return field.varint ? true : undefined;
    case 'int':
      return field.varint ? Number(field.varint) : undefined;
    case 'strings':
      return [...((previous as Json[] | undefined) ?? []), utf8(field.bytes)];
    case 'time':
      return timeOf(field.bytes);
    case 'stringMap':
    case 'bytesMap': {
      const [key, entry] = mapEntry(field.bytes);
      const value = type === 'stringMap' ? utf8(entry?.bytes) : Buffer.from(entry?.bytes ?? []).toString('base64');
      return { ...((previous as JsonObject | undefined) ?? {}), [key]: value };
    }
  }
}

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

/**
 * The JSON object a protobuf request body encodes. Throws ProtobufError for bytes that are no Kubernetes
 * protobuf envelope, or for a kind the mock API has no field table for.
 */
export function decodeProtobufObject(body: Uint8Array): JsonObject {
  if (body.length < 4 || MAGIC.some((byte, index) => body[index] !== byte))
    throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  const unknown = readFields(body.subarray(4));
  const typeMeta = readFields(unknown.find((f) => f.number === 1)?.bytes ?? new Uint8Array());
  const apiVersion = utf8(typeMeta.find((f) => f.number === 1)?.bytes);
  const kind = utf8(typeMeta.find((f) => f.number === 2)?.bytes);
  const table = KINDS[`${apiVersion} ${kind}`];
  if (!table) throw new ProtobufError(`the mock API does not decode protobuf bodies of ${apiVersion} ${kind}: send it as application/json`);
  const raw = unknown.find((f) => f.number === 2)?.bytes ?? new Uint8Array();
  return { apiVersion, kind, ...decodeMessage(raw, table) };
}
