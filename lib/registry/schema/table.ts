/**
 * The built-in API's Go types, as the schema table (`kube-schemas.json`, made by `build-table.mjs` from the
 * npm package kubernetes-models and the OpenAPI extensions in `openapi-extensions.json`) describes them,
 * completed with the Go knowledge OpenAPI lacks (named types from `go-names.ts`, embedded structs from
 * `go-embedded.ts`). It is the one place the harness learns how kube merges a built-in list, map or
 * struct: server-side apply, strategic merge patch and managed fields all read it.
 *
 * The table is loaded lazily, once, on first use. Sources and Jest read it next to this module; a bundle
 * reads it next to the bundle file (the build copies it there), or wherever `setSchemaTablePath` says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EMBEDDED_RULES, TYPE_META_FIELDS, TYPE_META_VIA } from './go-embedded';
import { GO_NAMED_FIELD_TYPES } from './go-names';

/** The table's file name; the build must ship it next to the bundle that contains this module. */
export const SCHEMA_TABLE_FILE = 'kube-schemas.json';
/** The command that makes the table. */
export const SCHEMA_TABLE_COMMAND = 'node lib/registry/schema/build-table.mjs';

type Named<K extends string> = { readonly kind: K; readonly name?: string };

/** A Go type of the built-in API, as far as JSON decoding tells them apart. */
export type GoType =
  | (Named<'string'> & { readonly enum?: readonly string[] })
  | Named<'bool'>
  | Named<'int32'>
  | Named<'int64'>
  | Named<'float64'>
  /** `[]byte`: base64 in JSON. */
  | { readonly kind: 'bytes' }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | (Named<'map'> & { readonly elem: GoType })
  | StructType
  | SpecialType;

/** Types with their own UnmarshalJSON: decoding hands them the JSON value whole. */
export type SpecialKind =
  | 'quantity'
  | 'intOrString'
  | 'time'
  | 'microTime'
  | 'rawExtension'
  | 'json'
  | 'fieldsV1'
  | 'jsonSchemaPropsOrArray'
  | 'jsonSchemaPropsOrBool'
  | 'jsonSchemaPropsOrStringArray';

export interface SpecialType {
  readonly kind: SpecialKind;
  /** OpenAPI definition name. */
  readonly id: string;
  /** As reflect prints it: `resource.Quantity`, `intstr.IntOrString`, `v1.Time`… */
  readonly goName: string;
}

export interface StructType {
  readonly kind: 'struct';
  /** OpenAPI definition name, e.g. `io.k8s.api.core.v1.PodSpec`. */
  readonly id: string;
  /** As reflect prints it: `v1.PodSpec`. */
  readonly goName: string;
  /** The bare type name Go's UnmarshalTypeError reports as its Struct: `PodSpec`. */
  readonly name: string;
  /** json field name → type, in the package's (alphabetical) order. */
  readonly fields: ReadonlyMap<string, GoType>;
  readonly required: readonly string[];
  /** String fields whose schema lists the allowed values. */
  readonly enums: ReadonlyMap<string, readonly string[]>;
  /** json field → Go names of the embedded structs it is promoted from (outermost first). */
  readonly embedded: ReadonlyMap<string, readonly string[]>;
  /** For a top-level kind: its apiVersion and kind. */
  readonly gvk?: { readonly apiVersion: string; readonly kind: string };
  /** `x-kubernetes-map-type: atomic` on the definition (`+structType=atomic`): replaced whole, never merged. */
  readonly atomic: boolean;
  /** json field → what the field's OpenAPI extensions say (fields without any are absent). */
  readonly extensions: ReadonlyMap<string, FieldExtensions>;
}

/** A field's OpenAPI vendor extensions, as kube-apiserver reads them. */
export interface FieldExtensions {
  /** `x-kubernetes-list-type`. */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** `x-kubernetes-list-map-keys`. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-map-type` on a map, or on a `$ref` to a struct. */
  readonly mapType?: 'atomic' | 'granular';
  /** `x-kubernetes-patch-strategy`: `merge`, `retainKeys` or `merge,retainKeys`. */
  readonly patchStrategy?: string;
  /** `x-kubernetes-patch-merge-key`. */
  readonly patchMergeKey?: string;
  /** The OpenAPI `default` (kept for list-map key fields). */
  readonly default?: unknown;
}

interface TableExtensions {
  lt?: 'atomic' | 'set' | 'map';
  lk?: string[];
  mt?: 'atomic' | 'granular';
  ps?: string;
  pk?: string;
  d?: unknown;
}

interface TableDef {
  id: string;
  go: string;
  special?: SpecialKind;
  f?: Record<string, string>;
  r?: string[];
  e?: Record<string, string[]>;
  mt?: 'atomic';
  x?: Record<string, TableExtensions>;
}

interface TableFile {
  format: number;
  packages: Record<string, string>;
  verified: string[];
  defs: TableDef[];
  kinds: Record<string, number>;
}

interface LoadedTable {
  readonly packages: Readonly<Record<string, string>>;
  readonly verified: readonly string[];
  readonly byId: ReadonlyMap<string, StructType | SpecialType>;
  readonly kinds: ReadonlyMap<string, StructType>;
}

const TABLE_FORMAT = 2;
let configuredPath: string | undefined;
let loaded: LoadedTable | undefined;

/** Where to read the table from (e.g. a bundle whose table sits elsewhere); resets the loaded table. */
export function setSchemaTablePath(file: string | undefined): void {
  configuredPath = file;
  loaded = undefined;
}

/** The path the table is read from. */
export function schemaTablePath(): string {
  if (configuredPath !== undefined) return configuredPath;
  // CommonJS (the sources under Jest, the CJS bundle): the directory of this module or bundle.
  if (typeof __dirname === 'string') return path.join(__dirname, SCHEMA_TABLE_FILE);
  // The ESM bundle defines `require` from its own URL (tsup banner), so this resolves next to it.
  return require.resolve(`./${SCHEMA_TABLE_FILE}`);
}

function table(): LoadedTable {
  if (loaded === undefined) loaded = load(schemaTablePath());
  return loaded;
}

function load(file: string): LoadedTable {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (cause) {
    throw new Error(
      `The schema table of the built-in Kubernetes types is missing: ${file} could not be read. ` +
        `Make it with \`${SCHEMA_TABLE_COMMAND}\` (it reads the installed kubernetes-models package).`,
      { cause },
    );
  }
  const data = JSON.parse(text) as TableFile;
  if (data.format !== TABLE_FORMAT) {
    throw new Error(`The schema table ${file} has format ${data.format}, this code reads format ${TABLE_FORMAT}: rebuild it with \`${SCHEMA_TABLE_COMMAND}\`.`);
  }
  return build(data);
}

function build(data: TableFile): LoadedTable {
  // Two passes: every struct object exists before fields refer to it (definitions refer to each other
  // and to themselves, e.g. JSONSchemaProps).
  const nodes: Array<StructType | SpecialType> = data.defs.map((def) => {
    if (def.special) return { kind: def.special, id: def.id, goName: def.go };
    const struct: StructType = {
      kind: 'struct',
      id: def.id,
      goName: def.go,
      name: def.go.slice(def.go.indexOf('.') + 1),
      fields: new Map(),
      required: def.r ?? [],
      enums: new Map(Object.entries(def.e ?? {})),
      embedded: new Map(),
      atomic: def.mt === 'atomic',
      extensions: new Map(Object.entries(def.x ?? {}).map(([field, x]) => [field, fieldExtensions(x)])),
    };
    return struct;
  });
  const decode = (encoded: string, enumValues?: readonly string[]): GoType => {
    switch (encoded[0]) {
      case '[':
        return { kind: 'slice', elem: decode(encoded.slice(1)) };
      case '{':
        return { kind: 'map', elem: decode(encoded.slice(1)) };
      case '@': {
        const node = nodes[Number(encoded.slice(1))];
        if (node === undefined) throw new Error(`schema table: dangling reference ${encoded}`);
        return node;
      }
      case 's':
        return enumValues ? { kind: 'string', enum: enumValues } : STRING;
      case 'b':
        return BOOL;
      case 'i':
        return INT32;
      case 'l':
        return INT64;
      case 'f':
        return FLOAT64;
      case 'y':
        return BYTES;
      default:
        throw new Error(`schema table: unknown type ${encoded}`);
    }
  };
  data.defs.forEach((def, i) => {
    const node = nodes[i] as StructType | SpecialType;
    if (node.kind !== 'struct') return;
    const fields = node.fields as Map<string, GoType>;
    for (const [name, encoded] of Object.entries(def.f ?? {})) fields.set(name, decode(encoded, def.e?.[name]));
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const kinds = new Map<string, StructType>();
  for (const [key, index] of Object.entries(data.kinds)) {
    const struct = nodes[index];
    if (struct?.kind !== 'struct') throw new Error(`schema table: kind ${key} is not a struct`);
    const [apiVersion = '', kind = ''] = key.split(' ');
    (struct as { gvk?: StructType['gvk'] }).gvk = { apiVersion, kind };
    kinds.set(key, struct);
    const embedded = struct.embedded as Map<string, readonly string[]>;
    for (const field of TYPE_META_FIELDS) if (struct.fields.has(field)) embedded.set(field, TYPE_META_VIA);
  }
  applyEmbeddedRules(byId);
  applyGoNames(byId);
  return { packages: data.packages, verified: data.verified, byId, kinds };
}

function fieldExtensions(x: TableExtensions): FieldExtensions {
  const out: { -readonly [K in keyof FieldExtensions]: FieldExtensions[K] } = {};
  if (x.lt !== undefined) out.listType = x.lt;
  if (x.lk !== undefined) out.listMapKeys = x.lk;
  if (x.mt !== undefined) out.mapType = x.mt;
  if (x.ps !== undefined) out.patchStrategy = x.ps;
  if (x.pk !== undefined) out.patchMergeKey = x.pk;
  if (Object.hasOwn(x, 'd')) out.default = x.d;
  return out;
}

const STRING: GoType = { kind: 'string' };
const BOOL: GoType = { kind: 'bool' };
const INT32: GoType = { kind: 'int32' };
const INT64: GoType = { kind: 'int64' };
const FLOAT64: GoType = { kind: 'float64' };
const BYTES: GoType = { kind: 'bytes' };

function applyEmbeddedRules(byId: ReadonlyMap<string, StructType | SpecialType>): void {
  for (const rule of EMBEDDED_RULES) {
    for (const id of rule.structs) {
      const struct = byId.get(id);
      if (struct?.kind !== 'struct') continue;
      const embedded = struct.embedded as Map<string, readonly string[]>;
      for (const field of struct.fields.keys()) {
        const promoted = rule.fields ? rule.fields.includes(field) : !(rule.except ?? []).includes(field);
        if (promoted) embedded.set(field, rule.via);
      }
    }
  }
}

function applyGoNames(byId: ReadonlyMap<string, StructType | SpecialType>): void {
  for (const [id, names] of Object.entries(GO_NAMED_FIELD_TYPES)) {
    const struct = byId.get(id);
    if (struct?.kind !== 'struct') continue; // a group version this package does not have
    const fields = struct.fields as Map<string, GoType>;
    for (const [field, goName] of Object.entries(names)) {
      const type = fields.get(field);
      if (type === undefined) continue;
      fields.set(field, withName(type, goName, `${id}.${field}`));
    }
  }
}

/** The same type under its Go name; `[]X` names a slice's element. */
function withName(type: GoType, goName: string, where: string): GoType {
  if (goName.startsWith('[]')) {
    if (type.kind !== 'slice') throw new Error(`go-names: ${where} is not a slice`);
    return { kind: 'slice', elem: withName(type.elem, goName.slice(2), where) };
  }
  switch (type.kind) {
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
    case 'float64':
    case 'map':
      return { ...type, name: goName };
    default:
      throw new Error(`go-names: ${where} is a ${type.kind}, which cannot take the name ${goName}`);
  }
}

/** The struct of a built-in top-level kind; undefined when the table has no such kind (custom resources…). */
export function structForKind(apiVersion: string, kind: string): StructType | undefined {
  return table().kinds.get(`${apiVersion} ${kind}`);
}

/**
 * The struct of a built-in kind by API group (`''` for core) and kind, in its GA version when it has one:
 * for callers that know the group but not the version (a strategic merge patch's schema).
 */
export function structForGroupKind(group: string, kind: string): StructType | undefined {
  let found: StructType | undefined;
  for (const [key, struct] of table().kinds) {
    const [apiVersion = '', name] = key.split(' ');
    const slash = apiVersion.indexOf('/');
    const [g, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
    if (g !== group || name !== kind) continue;
    if (!/alpha|beta/.test(version)) return struct;
    found ??= struct;
  }
  return found;
}

/** A definition's struct by its OpenAPI name (`io.k8s.api.core.v1.PodSpec`). */
export function structByName(id: string): StructType | undefined {
  const node = table().byId.get(id);
  return node?.kind === 'struct' ? node : undefined;
}

/** Every struct definition of the table. */
export function builtinStructs(): StructType[] {
  return [...table().byId.values()].filter((node): node is StructType => node.kind === 'struct');
}

/** Every top-level kind of the table, as `"<apiVersion> <kind>"`. */
export function builtinKinds(): string[] {
  return [...table().kinds.keys()];
}

/**
 * The OpenAPI packages (`io.k8s.api.core.v1`…) whose list, map and struct extensions were read in full;
 * definitions of other packages follow the OpenAPI defaults (a list atomic, a map and a struct granular).
 */
export function verifiedSchemaPackages(): readonly string[] {
  return table().verified;
}

/** The versions of the npm packages the table was built from. */
export function schemaTablePackages(): Readonly<Record<string, string>> {
  return table().packages;
}

/** The Go type as reflect.Type.String() prints it: `[]v1.Container`, `map[string]string`, `int32`, `v1.ResourceList`. */
export function goTypeName(t: GoType): string {
  switch (t.kind) {
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
    case 'float64':
      return t.name ?? t.kind;
    case 'bytes':
      return '[]uint8';
    case 'slice':
      return `[]${goTypeName(t.elem)}`;
    case 'map':
      return t.name ?? `map[string]${goTypeName(t.elem)}`;
    default:
      return t.goName;
  }
}
