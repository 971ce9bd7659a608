#!/usr/bin/env node
/**
 * Builds the schema table of Kubernetes' built-in API types (`kube-schemas.json`) from the installed npm
 * packages `kubernetes-models` and `@kubernetes-models/apimachinery` — never from hand-typed types.
 *
 *   node lib/registry/schema/build-table.mjs [--out FILE] [--if-missing]
 *
 * Two sources, each for what it knows:
 * - the TypeScript declarations (`<group>/<version>/<Kind>.d.ts`), read with the `typescript` compiler API
 *   (syntax only): property names, optional/required, literal-union enums, `Array<T>`, `{ [key: string]: T }`,
 *   references to other definitions;
 * - the ajv-compiled validators (`_schemas/<Id>.js`), probed with sample values, for what a declaration
 *   cannot say: integer or float, the `int32`/`int64` formats, and base64 (`byte`) strings.
 *
 * and a third for what neither carries: `openapi-extensions.json` beside this script, the OpenAPI vendor
 * extensions kube-apiserver merges lists, maps and structs by (`x-kubernetes-list-type`,
 * `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`, `x-kubernetes-patch-strategy`,
 * `x-kubernetes-patch-merge-key`, and the `default` of list-map keys), written in OpenAPI's own shape.
 * Every definition and field it names must exist in the packages, so a typo or a field kube dropped
 * fails the build.
 *
 * The output is compact JSON, deterministic for a given pair of package versions and extensions file (no
 * timestamps, sorted definitions). `--if-missing` keeps an existing table built from the same inputs.
 *
 * Table format 2:
 *   { format, packages: {name: version}, extensions: sha256 of openapi-extensions.json, verified: [package],
 *     defs: [Def], kinds: {"<apiVersion> <kind>": defIndex} }
 *   Def = { id: OpenAPI definition name, go: Go type as reflect prints it ("v1.PodSpec"),
 *           special?: "quantity"|"intOrString"|"time"|"microTime"|"rawExtension"|"json"|"fieldsV1"|
 *                     "jsonSchemaPropsOrArray"|"jsonSchemaPropsOrBool"|"jsonSchemaPropsOrStringArray",
 *           f?: {jsonName: Type}, r?: [required jsonName], e?: {jsonName: [enum values]},
           mt?: "atomic" (the struct's x-kubernetes-map-type), x?: {jsonName: Ext} }
 *   Ext = { lt?: list type "atomic"|"set"|"map", lk?: [list-map keys], mt?: "atomic"|"granular",
 *           ps?: patch strategy ("merge", "merge,retainKeys"…), pk?: patch merge key, d?: default }
 *   Type = "s" string | "b" bool | "i" int32 | "l" int64 | "f" float64 | "y" []byte | "@<defIndex>"
 *        | "[" + Type (slice) | "{" + Type (map with string keys)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXTENSIONS_FILE, encodeExtensions, readExtensions } from './openapi-extensions.mjs';
import { probeBytes, probeNumbers } from './probe-validators.mjs';

const FORMAT = 2;
/** The TypeScript compiler API, loaded only when a table is actually built (`--if-missing` stays fast). */
let ts;
const HERE = path.dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const args = { out: path.join(HERE, 'kube-schemas.json'), ifMissing: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--out') args.out = path.resolve(argv[++i] ?? fail('--out needs a file name'));
    else if (arg.startsWith('--out=')) args.out = path.resolve(arg.slice('--out='.length));
    else if (arg === '--if-missing') args.ifMissing = true;
    else fail(`unknown argument ${arg}; usage: node lib/registry/schema/build-table.mjs [--out FILE] [--if-missing]`);
  }
  return args;
}

function fail(message) {
  console.error(`build-table: ${message}`);
  process.exit(1);
}

/** A package's root directory, found the way Node resolves it from this script. */
function packageRoot(name) {
  let dir = path.dirname(fileURLToPath(import.meta.resolve(name)));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) fail(`cannot find the package.json of ${name}`);
    dir = parent;
  }
  return dir;
}

// How each package's directories map to OpenAPI definition-name prefixes (the Go package paths).
const GROUP_PREFIX = {
  'rbac.authorization.k8s.io': 'io.k8s.api.rbac',
  'flowcontrol.apiserver.k8s.io': 'io.k8s.api.flowcontrol',
  'apiextensions.k8s.io': 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions',
  'apiregistration.k8s.io': 'io.k8s.kube-aggregator.pkg.apis.apiregistration',
};

function modelsPackagePrefix(dirParts) {
  if (dirParts.length === 1) return `io.k8s.api.core.${dirParts[0]}`; // v1/ is the core group
  const [group, version] = dirParts;
  if (GROUP_PREFIX[group]) return `${GROUP_PREFIX[group]}.${version}`;
  if (group.endsWith('.k8s.io')) return `io.k8s.api.${group.slice(0, -'.k8s.io'.length)}.${version}`;
  return `io.k8s.api.${group}.${version}`;
}

function apimachineryPackagePrefix(dirParts) {
  return `io.k8s.apimachinery.pkg.${dirParts.join('.')}`;
}

/** The identifier kubernetes-models derives from a definition name: `io.k8s.api.core.v1.Pod` → `IoK8sApiCoreV1Pod`. */
function camelId(id) {
  return id
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

// Definitions whose Go type has its own UnmarshalJSON: decode hands them the raw JSON.
const SPECIAL = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'microTime',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'fieldsV1',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'rawExtension',
};
const APIEXTENSIONS_SPECIAL = {
  JSON: 'json',
  JSONSchemaPropsOrArray: 'jsonSchemaPropsOrArray',
  JSONSchemaPropsOrBool: 'jsonSchemaPropsOrBool',
  JSONSchemaPropsOrStringArray: 'jsonSchemaPropsOrStringArray',
};

function specialOf(id) {
  if (SPECIAL[id]) return SPECIAL[id];
  const m = /^io\.k8s\.apiextensions-apiserver\.pkg\.apis\.apiextensions\.v1(?:beta1)?\.(\w+)$/.exec(id);
  return m ? APIEXTENSIONS_SPECIAL[m[1]] : undefined;
}

function listDeclarationFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory()) {
        if (entry.name !== '_schemas' && entry.name !== 'node_modules') walk(path.join(dir, entry.name));
      } else if (entry.name.endsWith('.d.ts') && entry.name !== 'index.d.ts') {
        files.push(path.join(dir, entry.name));
      }
    }
  };
  walk(root);
  return files;
}

/**
 * One declaration file → { id, goType, schemaModule, ts: {kind: 'interface', props} | {kind: 'alias'} }.
 * Property types stay as TS nodes until every file is known (references resolve across files).
 */
function readDeclaration(file, pkg) {
  const rel = path.relative(pkg.root, file).split(path.sep);
  const typeName = rel.pop().slice(0, -'.d.ts'.length);
  const id = `${pkg.prefix(rel)}.${typeName}`;
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports = new Map(); // local identifier → resolved .d.ts path
  let iface;
  let alias;
  let exportedId;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings && ts.isNamedImports(statement.importClause.namedBindings)) {
      const spec = statement.moduleSpecifier.text;
      const target = resolveImport(file, spec);
      if (target === undefined) continue;
      for (const element of statement.importClause.namedBindings.elements) imports.set(element.name.text, target);
    } else if (ts.isInterfaceDeclaration(statement) && statement.name.text === `I${typeName}`) {
      iface = statement;
    } else if (ts.isTypeAliasDeclaration(statement) && statement.name.text === `I${typeName}`) {
      alias = statement;
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        if (element.propertyName?.text === `I${typeName}` && element.name.text.startsWith('IIo')) exportedId = element.name.text.slice(1);
      }
    }
  }
  if (exportedId === undefined) fail(`${file}: no exported definition alias`);
  if (camelId(id) !== exportedId) fail(`${file}: derived definition name ${id} does not match the package's ${exportedId}`);
  if (!iface && !alias) fail(`${file}: neither interface nor type alias I${typeName}`);
  const goPackage = id.split('.').slice(-2, -1)[0];
  return {
    id,
    file,
    goType: `${goPackage}.${typeName}`,
    localName: `I${typeName}`,
    schemaModule: path.join(pkg.root, '_schemas', `${exportedId}.js`),
    imports,
    iface,
    alias,
  };
}

const APIMACHINERY_SPEC = '@kubernetes-models/apimachinery/';
let apimachineryRoot;

function resolveImport(fromFile, spec) {
  if (spec.startsWith('.')) return path.resolve(path.dirname(fromFile), spec).replace(/\.js$/, '.d.ts');
  if (spec.startsWith(APIMACHINERY_SPEC)) return path.join(apimachineryRoot, `${spec.slice(APIMACHINERY_SPEC.length)}.d.ts`);
  return undefined; // @kubernetes-models/base and the like: not definitions
}

/** A TS type node → table type string, with numbers and strings left as placeholders for the probes. */
function convertType(node, decl, byFile, problems) {
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { t: 's' };
    case ts.SyntaxKind.NumberKeyword:
      return { t: 'n' }; // refined by the validator probe
    case ts.SyntaxKind.BooleanKeyword:
      return { t: 'b' };
    case ts.SyntaxKind.LiteralType:
      if (ts.isStringLiteral(node.literal)) return { t: 's', enum: [node.literal.text] };
      break;
    case ts.SyntaxKind.UnionType: {
      const values = [];
      for (const member of node.types) {
        if (ts.isLiteralTypeNode(member) && ts.isStringLiteral(member.literal)) values.push(member.literal.text);
        else values.push(undefined);
      }
      if (values.every((v) => v !== undefined)) return { t: 's', enum: values };
      break;
    }
    case ts.SyntaxKind.TypeLiteral: {
      const [member] = node.members;
      if (node.members.length === 1 && ts.isIndexSignatureDeclaration(member) && member.type) {
        return { t: '{', elem: convertType(member.type, decl, byFile, problems) };
      }
      // An object written out in place (kubernetes-models inlines `PersistentVolumeClaim` in
      // `volumeClaimTemplates` to relax its apiVersion/kind): matched to its definition afterwards.
      if (node.members.every((m) => ts.isPropertySignature(m) && m.type && propertyName(m) !== undefined)) {
        return { t: 'inline', where: decl.id, props: node.members.map((m) => [propertyName(m), convertType(m.type, decl, byFile, problems)]) };
      }
      break;
    }
    case ts.SyntaxKind.TypeReference: {
      const name = ts.isIdentifier(node.typeName) ? node.typeName.text : undefined;
      if (name === 'Array' && node.typeArguments?.length === 1) {
        return { t: '[', elem: convertType(node.typeArguments[0], decl, byFile, problems) };
      }
      if (name === decl.localName) return { t: '@', id: decl.id };
      const target = decl.imports.get(name);
      const targetDecl = target && byFile.get(target);
      if (targetDecl) return { t: '@', id: targetDecl.id };
      break;
    }
    default:
      break;
  }
  problems.push(`${decl.id}: unsupported type ${ts.SyntaxKind[node.kind]}`);
  return { t: '?' };
}

function propertyName(member) {
  const n = member.name;
  return ts.isStringLiteral(n) || ts.isIdentifier(n) ? n.text : undefined;
}

function encodeType(type, indexOf) {
  switch (type.t) {
    case '[':
    case '{':
      return type.t + encodeType(type.elem, indexOf);
    case '@':
      return `@${indexOf.get(type.id)}`;
    default:
      return type.t;
  }
}

async function build() {
  ts = (await import('typescript')).default;
  const modelsRoot = packageRoot('kubernetes-models');
  apimachineryRoot = packageRoot('@kubernetes-models/apimachinery');
  const packages = [
    { name: 'kubernetes-models', root: modelsRoot, prefix: modelsPackagePrefix },
    { name: '@kubernetes-models/apimachinery', root: apimachineryRoot, prefix: apimachineryPackagePrefix },
  ];
  const versions = {};
  for (const pkg of packages) versions[pkg.name] = JSON.parse(fs.readFileSync(path.join(pkg.root, 'package.json'), 'utf8')).version;

  const decls = [];
  for (const pkg of packages) for (const file of listDeclarationFiles(pkg.root)) decls.push(readDeclaration(file, pkg));
  const byFile = new Map(decls.map((d) => [d.file, d]));
  const byId = new Map();
  for (const d of decls) {
    if (byId.has(d.id)) fail(`definition ${d.id} declared twice`);
    byId.set(d.id, d);
  }

  const problems = [];
  const extensions = readExtensions();
  for (const id of Object.keys(extensions.definitions)) if (!byId.has(id)) problems.push(`${EXTENSIONS_FILE}: no definition ${id}`);
  for (const decl of decls) {
    decl.special = specialOf(decl.id);
    decl.props = [];
    decl.required = [];
    if (decl.special || !decl.iface) {
      if (!decl.special) problems.push(`${decl.id}: a type alias that is not a known special type`);
      continue;
    }
    for (const member of decl.iface.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const name = propertyName(member);
      if (name === undefined) continue;
      decl.props.push([name, convertType(member.type, decl, byFile, problems)]);
      if (!member.questionToken) decl.required.push(name);
    }
  }

  // Inline object literals: the one definition with the same property names and the same references.
  const resolveInline = (type) => {
    if (type.t === '[' || type.t === '{') return resolveInline(type.elem);
    if (type.t !== 'inline') return;
    const names = type.props
      .map(([n]) => n)
      .sort()
      .join(',');
    const matches = decls.filter((candidate) => {
      if (
        candidate.props
          .map(([n]) => n)
          .sort()
          .join(',') !== names
      )
        return false;
      const theirs = new Map(candidate.props);
      return type.props.every(([n, t]) => t.t !== '@' || (theirs.get(n)?.t === '@' && theirs.get(n).id === t.id));
    });
    if (matches.length !== 1) {
      problems.push(`${type.where}: an inline object matching ${matches.length} definitions (${names})`);
      return;
    }
    type.t = '@';
    type.id = matches[0].id;
    delete type.props;
  };
  for (const decl of decls) for (const [, type] of decl.props) resolveInline(type);

  // What only the validators know.
  for (const decl of decls) {
    if (decl.props.length === 0) continue;
    await probeNumbers(decl, decl.props, problems);
    if (fs.readFileSync(decl.schemaModule, 'utf8').includes('format:"byte"')) await probeBytes(decl, decl.props);
  }

  const sorted = [...decls].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const indexOf = new Map(sorted.map((d, i) => [d.id, i]));
  const kinds = {};
  const defs = sorted.map((decl) => {
    const def = { id: decl.id, go: decl.goType };
    if (decl.special) {
      def.special = decl.special;
      return def;
    }
    const fields = {};
    const enums = {};
    for (const [name, type] of decl.props) {
      fields[name] = encodeType(type, indexOf);
      if (type.t === 's' && type.enum) enums[name] = type.enum;
    }
    def.f = fields;
    if (decl.required.length > 0) def.r = decl.required;
    // apiVersion and kind literals mark a top-level kind; they are not enums the user chooses from.
    const apiVersion = enums.apiVersion;
    const kind = enums.kind;
    if (apiVersion?.length === 1 && kind?.length === 1) {
      const key = `${apiVersion[0]} ${kind[0]}`;
      if (key in kinds) fail(`kind ${key} is declared by ${sorted[kinds[key]].id} and ${decl.id}`);
      kinds[key] = indexOf.get(decl.id);
      delete enums.apiVersion;
      delete enums.kind;
    }
    if (Object.keys(enums).length > 0) def.e = enums;
    Object.assign(def, encodeExtensions(decl, extensions, problems));
    return def;
  });

  if (problems.length > 0) fail(`the packages hold shapes this script does not know:\n  ${problems.join('\n  ')}`);
  const sortedKinds = Object.fromEntries(
    Object.keys(kinds)
      .sort()
      .map((k) => [k, kinds[k]]),
  );
  return { format: FORMAT, packages: versions, extensions: extensions.hash, verified: extensions.verified, defs, kinds: sortedKinds };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.ifMissing && fs.existsSync(args.out)) {
    try {
      const existing = JSON.parse(fs.readFileSync(args.out, 'utf8'));
      const installed = {
        'kubernetes-models': JSON.parse(fs.readFileSync(path.join(packageRoot('kubernetes-models'), 'package.json'), 'utf8')).version,
        '@kubernetes-models/apimachinery': JSON.parse(fs.readFileSync(path.join(packageRoot('@kubernetes-models/apimachinery'), 'package.json'), 'utf8'))
          .version,
      };
      const sameInputs = JSON.stringify(existing.packages) === JSON.stringify(installed) && existing.extensions === readExtensions().hash;
      if (existing.format === FORMAT && sameInputs) return;
    } catch {
      // unreadable: rebuild
    }
  }
  const started = performance.now();
  const table = await build();
  const text = `${JSON.stringify(table)}\n`;
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  const temp = `${args.out}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, args.out);
  const ms = Math.round(performance.now() - started);
  console.log(
    `build-table: ${table.defs.length} definitions, ${Object.keys(table.kinds).length} kinds, ${text.length} bytes → ${path.relative(process.cwd(), args.out)} (${ms} ms)`,
  );
}

await main();
