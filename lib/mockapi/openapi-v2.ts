import { createHash } from 'node:crypto';
import type { ResourceCatalog } from '../kube/catalog';
import { isObject, type Json, type JsonObject } from '../kube/json';
import { addKindSchema } from './openapi-schemas';

/*
 * `/openapi/v2`: the Swagger 2.0 document kube-openapi's handler serves (kube-openapi pkg/handler/handler.go,
 * OpenAPIService.ServeHTTP), as JSON or as the gnostic protobuf `openapi.v2.Document` (gnostic
 * openapiv2/OpenAPIv2.proto). kubectl before 1.27 (Debian bookworm's 1.20 among them) reads only the protobuf
 * one, for `explain` and for apply's client-side validation (client-go discovery OpenAPISchema), and gives up on
 * a 404 with `failed to download openapi`. The definitions are the OpenAPI v3 documents' schemas, every
 * group-version's together, under the same names; the paths are left empty (kubectl reads only definitions).
 */

const INFO = { title: 'Kubernetes', version: 'v1.36.2' };
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
// Accepted as the same format: the name kubectl up to 1.26 asks for.
const PROTOBUF_DEPRECATED = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** A v3 schema as Swagger 2.0 writes it: `#/definitions/` references; what 2.0 lacks (oneOf, nullable…) dropped. */
function toV2(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toV2);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string') out[key] = value.replace('#/components/schemas/', '#/definitions/');
    else if (key === 'oneOf' || key === 'anyOf' || key === 'not' || key === 'nullable') continue;
    else if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toV2(sub)]));
    else if (key === 'items' || key === 'additionalProperties' || key === 'allOf') out[key] = toV2(value);
    else out[key] = value;
  }
  // resource.Quantity is `oneOf: [string, number]` in v3 and a string in v2.
  if (isObject(schema) && Array.isArray(schema.oneOf) && out.type === undefined) out.type = 'string';
  return out;
}

/** The Swagger 2.0 document of every resource the catalog serves. */
export function swaggerDocument(catalog: ResourceCatalog): JsonObject {
  const schemas = new Map<string, JsonObject>();
  for (const entry of catalog.resources()) addKindSchema(entry, schemas);
  const definitions = Object.fromEntries([...schemas].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, schema]) => [name, toV2(schema)]));
  return { swagger: '2.0', info: INFO, paths: {}, definitions };
}

// ------------------------------------------------------------------------------------------ protobuf

/** Protobuf's wire format, just what the Document needs: varints, fixed64 doubles, length-delimited fields. */
class Writer {
  private readonly chunks: Uint8Array[] = [];
  private varint(value: number): void {
    const bytes: number[] = [];
    let rest = value;
    while (rest > 0x7f) {
      bytes.push((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    bytes.push(rest);
    this.chunks.push(Uint8Array.from(bytes));
  }
  bytes(field: number, value: Uint8Array): void {
    this.varint((field << 3) | 2);
    this.varint(value.length);
    this.chunks.push(value);
  }
  string(field: number, value: unknown): void {
    if (typeof value === 'string' && value !== '') this.bytes(field, Buffer.from(value, 'utf8'));
  }
  bool(field: number, value: unknown, always = false): void {
    if (value === true || (always && value === false)) {
      this.varint(field << 3);
      this.varint(value === true ? 1 : 0);
    }
  }
  int(field: number, value: unknown): void {
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) {
      this.varint(field << 3);
      this.varint(value);
    }
  }
  double(field: number, value: unknown): void {
    if (typeof value !== 'number') return;
    this.varint((field << 3) | 1);
    const buffer = Buffer.alloc(8);
    buffer.writeDoubleLE(value);
    this.chunks.push(buffer);
  }
  message(field: number, build: (writer: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }
  /** gnostic's Named* pair messages (NamedSchema, NamedAny): the name in field 1, the value message in field 2. */
  named(field: number, name: string, build: (writer: Writer) => void): void {
    this.message(field, (pair) => {
      pair.string(1, name);
      pair.message(2, build);
    });
  }
  finish(): Uint8Array {
    return Buffer.concat(this.chunks);
  }
}

/** gnostic's `Any`: the value as YAML text (JSON is YAML), which is how kube-openapi reads vendor extensions back. */
const writeAny = (value: Json) => (w: Writer) => w.string(2, JSON.stringify(value));

/** `openapi.v2.Schema`, field numbers from gnostic's OpenAPIv2.proto. */
function writeSchema(w: Writer, schema: JsonObject): void {
  w.string(1, schema.$ref);
  w.string(2, schema.format);
  w.string(3, schema.title);
  w.string(4, schema.description);
  if (schema.default !== undefined) w.message(5, writeAny(schema.default));
  w.double(6, schema.multipleOf);
  w.double(7, schema.maximum);
  w.bool(8, schema.exclusiveMaximum);
  w.double(9, schema.minimum);
  w.bool(10, schema.exclusiveMinimum);
  w.int(11, schema.maxLength);
  w.int(12, schema.minLength);
  w.string(13, schema.pattern);
  w.int(14, schema.maxItems);
  w.int(15, schema.minItems);
  w.bool(16, schema.uniqueItems);
  w.int(17, schema.maxProperties);
  w.int(18, schema.minProperties);
  for (const name of Array.isArray(schema.required) ? schema.required : []) w.string(19, name);
  for (const value of Array.isArray(schema.enum) ? schema.enum : []) w.message(20, writeAny(value));
  const extra = schema.additionalProperties;
  if (isObject(extra)) w.message(21, (item) => item.message(1, (s) => writeSchema(s, extra)));
  else if (typeof extra === 'boolean') w.message(21, (item) => item.bool(2, extra, true));
  if (typeof schema.type === 'string') w.message(22, (type) => type.string(1, schema.type));
  const items = schema.items;
  if (isObject(items)) w.message(23, (list) => list.message(1, (s) => writeSchema(s, items)));
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) if (isObject(part)) w.message(24, (s) => writeSchema(s, part));
  const properties = schema.properties;
  if (isObject(properties)) {
    w.message(25, (props) => {
      for (const [name, sub] of Object.entries(properties)) {
        if (isObject(sub)) props.named(1, name, (s) => writeSchema(s, sub));
      }
    });
  }
  w.bool(27, schema.readOnly);
  for (const [name, value] of Object.entries(schema)) {
    if (name.startsWith('x-')) w.named(31, name, writeAny(value));
  }
}

/** The Document as gnostic's protobuf message. */
export function swaggerProtobuf(document: JsonObject): Uint8Array {
  const w = new Writer();
  w.string(1, document.swagger);
  w.message(2, (info) => {
    info.string(1, INFO.title);
    info.string(2, INFO.version);
  });
  w.message(8, () => undefined);
  const definitions = isObject(document.definitions) ? document.definitions : {};
  w.message(9, (defs) => {
    for (const [name, schema] of Object.entries(definitions)) {
      if (isObject(schema)) defs.named(1, name, (s) => writeSchema(s, schema));
    }
  });
  return w.finish();
}

// ------------------------------------------------------------------------------------------ serving

interface Served {
  json: string;
  protobuf: Uint8Array;
  etag: string;
}
const cache = new WeakMap<ResourceCatalog, { fingerprint: string; served: Served }>();

const fingerprintOf = (catalog: ResourceCatalog): string =>
  catalog
    .resources()
    .map((e) => `${e.group}/${e.version}/${e.resource}/${e.kind}`)
    .join(',');

function servedFor(catalog: ResourceCatalog): Served {
  const fingerprint = fingerprintOf(catalog);
  const known = cache.get(catalog);
  if (known && known.fingerprint === fingerprint) return known.served;
  const document = swaggerDocument(catalog);
  const json = JSON.stringify(document);
  const served = { json, protobuf: swaggerProtobuf(document), etag: createHash('sha512').update(json).digest('hex').toUpperCase() };
  cache.set(catalog, { fingerprint, served });
  return served;
}

/** Which format an Accept header picks, in the handler's order of preference; undefined when none fits (406). */
function formatFor(accept: string | null): 'json' | 'protobuf' | undefined {
  const ranges = (accept || '*/*').split(',').map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '');
  for (const range of ranges) {
    if (range === 'application/json' || range === 'application/*' || range === '*/*') return 'json';
    if (range === OPENAPI_V2_PROTOBUF || range === PROTOBUF_DEPRECATED) return 'protobuf';
  }
  return undefined;
}

/** The answer to `GET /openapi/v2`: body, status and headers. */
export function serveOpenApiV2(catalog: ResourceCatalog, accept: string | null): { code: number; body: string | Uint8Array; headers: Record<string, string> } {
  const format = formatFor(accept);
  if (!format) return { code: 406, body: '', headers: {} };
  const served = servedFor(catalog);
  const headers = { ETag: `"${served.etag}"`, Vary: 'Accept', 'X-Varied-Accept': accept ?? '' };
  return format === 'json'
    ? { code: 200, body: served.json, headers: { ...headers, 'Content-Type': 'application/json' } }
    : { code: 200, body: served.protobuf, headers: { ...headers, 'Content-Type': OPENAPI_V2_PROTOBUF } };
}
