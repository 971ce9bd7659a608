// CEL conformance runner for two JS engines: @marcbachmann/cel-js and @bufbuild/cel.
// Test data: getConformanceSuite() from @bufbuild/cel-spec (cel-spec SimpleTest files, shipped as
// JSON-encoded cel.expr.conformance.test.SimpleTest messages inside ES modules).
//
// Usage:
//   node conformance.mjs                   # summary tables, writes results/conformance.json
//   node conformance.mjs --failures FILE   # also list failures of one file (e.g. string_ext), both engines
//   node conformance.mjs --failures FILE --engine cel-js|bufbuild
//   node conformance.mjs --homogeneous     # cel-js with homogeneousAggregateLiterals on, as kube configures it
//   node conformance.mjs --harness         # cel-js as the harness configures it: homogeneous literals and the
//                                          # functions lib/cel/library.ts registers (kube's libraries and extensions)
//
// Outcome per test and engine: pass | fail | n/r (not runnable: the test needs something the engine's
// public API cannot express, e.g. a protobuf message binding for cel-js, or a type check for
// @bufbuild/cel, which exports no checker).
import { mkdirSync, writeFileSync } from 'node:fs';
import { getConformanceSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { getTestRegistry } from '@bufbuild/cel-spec/testdata/registry.js';
import { equals, isMessage } from '@bufbuild/protobuf';
import { anyUnpack } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';

import * as celjs from '@marcbachmann/cel-js';
import { UnsignedInt, Duration as CjsDuration } from '@marcbachmann/cel-js/evaluator';
import * as buf from '@bufbuild/cel';
import { strings as bufStrings } from '@bufbuild/cel/ext';

const registry = getTestRegistry();
const args = process.argv.slice(2);
const failuresFor = args.includes('--failures') ? args[args.indexOf('--failures') + 1] : undefined;
const homogeneous = args.includes('--homogeneous'); // cel-js with kube's homogeneousAggregateLiterals
const onlyEngine = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : undefined;
// --harness: lib/cel/library.ts bundled against this folder's cel-js, so both share one cel-js instance.
const harnessLibrary = args.includes('--harness') ? await bundleHarnessLibrary() : undefined;

async function bundleHarnessLibrary() {
  const { build } = await import('esbuild');
  const here = new URL('.', import.meta.url).pathname;
  const outfile = `${here}node_modules/.harness/library.mjs`;
  await build({
    stdin: {
      contents: "export { registerLibrary } from './lib/cel/library';\nexport { loadCel } from './lib/cel/runtime';\n",
      resolveDir: `${here}../..`,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    external: ['@marcbachmann/cel-js'],
    outfile,
    logLevel: 'warning',
  });
  const library = await import(outfile);
  await library.loadCel();
  return library;
}

class NotRunnable extends Error {}

// ---------------------------------------------------------------------------------------------
// Canonical form for comparing values across engines:
//   {k: 'null'|'bool'|'int'|'uint'|'double'|'string'|'bytes'|'list'|'map'|'type'|'timestamp'|
//       'duration'|'optional'|'msg', ...}
// ---------------------------------------------------------------------------------------------
const hex = (u8) => Buffer.from(u8).toString('hex');
const C = {
  null: () => ({ k: 'null' }),
  bool: (v) => ({ k: 'bool', v }),
  int: (v) => ({ k: 'int', v: BigInt(v) }),
  uint: (v) => ({ k: 'uint', v: BigInt(v) }),
  double: (v) => ({ k: 'double', v }),
  string: (v) => ({ k: 'string', v }),
  bytes: (v) => ({ k: 'bytes', v: hex(v) }),
  list: (v) => ({ k: 'list', v }),
  map: (entries) => ({ k: 'map', v: entries }),
  type: (v) => ({ k: 'type', v }),
  ts: (s, n) => ({ k: 'timestamp', s: BigInt(s), n: Number(n) }),
  dur: (s, n) => ({ k: 'duration', s: BigInt(s), n: Number(n) }),
};

function canonEqual(a, b) {
  if (a.k !== b.k) return false;
  switch (a.k) {
    case 'null':
      return true;
    case 'double':
      return a.v === b.v || (Number.isNaN(a.v) && Number.isNaN(b.v));
    case 'list':
      return a.v.length === b.v.length && a.v.every((x, i) => canonEqual(x, b.v[i]));
    case 'map':
      return (
        a.v.length === b.v.length &&
        a.v.every(([ka, va]) => {
          const hit = b.v.find(([kb]) => canonEqual(ka, kb));
          return hit !== undefined && canonEqual(va, hit[1]);
        })
      );
    case 'timestamp':
    case 'duration':
      return a.s === b.s && a.n === b.n;
    case 'optional':
      return a.v === undefined ? b.v === undefined : b.v !== undefined && canonEqual(a.v, b.v);
    case 'msg':
      return a.type === b.type && equals(registry.getMessage(a.type), a.msg, b.msg, { registry, unpackAny: true });
    default:
      return a.v === b.v;
  }
}

function show(c) {
  if (c === undefined) return 'undefined';
  switch (c.k) {
    case 'null':
      return 'null';
    case 'int':
      return `${c.v}`;
    case 'uint':
      return `${c.v}u`;
    case 'double':
      return Number.isInteger(c.v) ? `${c.v}.0` : `${c.v}`;
    case 'string':
      return JSON.stringify(c.v);
    case 'bytes':
      return `b'${c.v}'`;
    case 'list':
      return `[${c.v.map(show).join(', ')}]`;
    case 'map':
      return `{${c.v.map(([k, v]) => `${show(k)}: ${show(v)}`).join(', ')}}`;
    case 'timestamp':
      return `timestamp(${c.s}s+${c.n}ns)`;
    case 'duration':
      return `duration(${c.s}s+${c.n}ns)`;
    case 'optional':
      return c.v === undefined ? 'optional.none()' : `optional.of(${show(c.v)})`;
    case 'msg':
      return `${c.type}{...}`;
    default:
      return `${c.k}(${String(c.v)})`;
  }
}

// Expected cel.expr.Value -> canonical
function canonFromProto(value) {
  const { case: kind, value: v } = value.kind;
  switch (kind) {
    case 'nullValue':
      return C.null();
    case 'boolValue':
      return C.bool(v);
    case 'int64Value':
      return C.int(v);
    case 'uint64Value':
      return C.uint(v);
    case 'doubleValue':
      return C.double(v);
    case 'stringValue':
      return C.string(v);
    case 'bytesValue':
      return C.bytes(v);
    case 'enumValue':
      return C.int(v.value);
    case 'typeValue':
      return C.type(v);
    case 'listValue':
      return C.list(v.values.map(canonFromProto));
    case 'mapValue':
      return C.map(v.entries.map((e) => [canonFromProto(e.key), canonFromProto(e.value)]));
    case 'objectValue': {
      const msg = anyUnpack(v, registry);
      if (!msg) throw new NotRunnable(`unknown Any ${v.typeUrl}`);
      return canonFromMessage(msg.$typeName, msg);
    }
    default:
      throw new NotRunnable(`expected value kind ${kind}`);
  }
}

function canonFromMessage(typeName, msg) {
  switch (typeName) {
    case 'google.protobuf.Timestamp':
      return C.ts(msg.seconds, msg.nanos);
    case 'google.protobuf.Duration':
      return C.dur(msg.seconds, msg.nanos);
    default:
      return { k: 'msg', type: typeName, msg };
  }
}

// ---------------------------------------------------------------------------------------------
// Engine adapters. Each returns {ok: true, value: canon} | {ok: false, error, phase}.
// ---------------------------------------------------------------------------------------------

// cel.expr.Type (proto) -> cel-js type string
const PRIM = { 1: 'bool', 2: 'int', 3: 'uint', 4: 'double', 5: 'string', 6: 'bytes' };
function celjsTypeName(t) {
  const { case: kind, value: v } = t.typeKind;
  switch (kind) {
    case 'dyn':
      return 'dyn';
    case 'null':
      return 'null'; // cel-js spells null_type "null"
    case 'primitive':
      return PRIM[v] ?? 'dyn';
    case 'wellKnown':
      return { 2: 'google.protobuf.Timestamp', 3: 'google.protobuf.Duration' }[v] ?? 'dyn';
    case 'listType':
      return `list<${celjsTypeName(v.elemType)}>`;
    case 'mapType':
      return `map<${celjsTypeName(v.keyType)}, ${celjsTypeName(v.valueType)}>`;
    case 'abstractType':
      if (v.name === 'optional_type') return `optional<${celjsTypeName(v.parameterTypes[0])}>`;
      return 'dyn';
    case 'type':
      return 'type';
    default:
      // wrapper types, message types, type params: cel-js has no equivalent declaration
      return 'dyn';
  }
}

function celjsInput(value) {
  const { case: kind, value: v } = value.kind;
  switch (kind) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
      return v;
    case 'int64Value':
      return v;
    case 'uint64Value':
      return new UnsignedInt(v);
    case 'bytesValue':
      return v;
    case 'enumValue':
      return BigInt(v.value);
    case 'listValue':
      return v.values.map(celjsInput);
    case 'mapValue': {
      const entries = v.entries.map((e) => [celjsInput(e.key), celjsInput(e.value)]);
      if (entries.every(([k]) => typeof k === 'string')) return Object.fromEntries(entries);
      return new Map(entries);
    }
    case 'objectValue': {
      const msg = anyUnpack(v, registry);
      if (msg?.$typeName === 'google.protobuf.Timestamp') {
        if (msg.nanos % 1e6) throw new NotRunnable('sub-millisecond timestamp binding');
        return new Date(Number(msg.seconds) * 1000 + msg.nanos / 1e6);
      }
      if (msg?.$typeName === 'google.protobuf.Duration') return new CjsDuration(msg.seconds, msg.nanos);
      throw new NotRunnable(`cel-js has no protobuf message values (${msg?.$typeName ?? v.typeUrl})`);
    }
    default:
      throw new NotRunnable(`binding kind ${kind}`);
  }
}

function celjsCanon(x) {
  if (x === null || x === undefined) return C.null();
  switch (typeof x) {
    case 'bigint':
      return C.int(x);
    case 'number':
      return C.double(x);
    case 'string':
      return C.string(x);
    case 'boolean':
      return C.bool(x);
  }
  if (x instanceof Uint8Array) return C.bytes(x);
  if (x instanceof UnsignedInt || x?.constructor?.name === 'UnsignedInt') return C.uint(x.value);
  if (x instanceof Date) {
    const ms = BigInt(x.getTime());
    const s = ms >= 0n ? ms / 1000n : -((-ms + 999n) / 1000n);
    return C.ts(s, Number(ms - s * 1000n) * 1e6);
  }
  if (x instanceof CjsDuration || x?.constructor?.name === 'Duration') return C.dur(x.seconds, x.nanos);
  if (x instanceof celjs.Optional) return { k: 'optional', v: x.hasValue() ? celjsCanon(x.value()) : undefined };
  if (x?.constructor?.name === 'Type') return C.type(x.name);
  if (Array.isArray(x)) return C.list(x.map(celjsCanon));
  if (x instanceof Map) return C.map([...x].map(([k, v]) => [celjsCanon(k), celjsCanon(v)]));
  if (typeof x === 'object') return C.map(Object.entries(x).map(([k, v]) => [C.string(k), celjsCanon(v)]));
  throw new Error(`cel-js: unrecognised result ${x}`);
}

const celjsEngine = {
  name: 'cel-js',
  run(test) {
    const o = test.original;
    const env = new celjs.Environment({
      unlistedVariablesAreDyn: true,
      homogeneousAggregateLiterals: homogeneous || !!harnessLibrary, // false = CEL spec default; kube turns it on
      enableOptionalTypes: true,
    });
    harnessLibrary?.registerLibrary(env);
    for (const d of o.typeEnv) {
      if (d.declKind.case === 'ident') env.registerVariable(d.name, celjsTypeName(d.declKind.value.type));
      else if (d.declKind.case === 'function') throw new NotRunnable('test declares functions without implementation');
    }
    const typed = o.resultMatcher.case === 'typedResult';
    let compiled;
    try {
      compiled = env.parse(o.expr);
    } catch (error) {
      return { ok: false, error, phase: 'parse' };
    }
    let checkedType;
    if (!o.disableCheck || typed || o.checkOnly) {
      const res = compiled.check();
      if (!res.valid) return { ok: false, error: res.error, phase: 'check' };
      checkedType = res.type;
    }
    if (o.checkOnly) return { ok: true, type: checkedType };
    const bindings = {};
    for (const [k, v] of Object.entries(o.bindings)) {
      if (v.kind.case !== 'value') throw new NotRunnable(`binding ${v.kind.case}`);
      bindings[k] = celjsInput(v.kind.value);
    }
    try {
      const out = compiled(bindings);
      if (out instanceof Promise) throw new Error('async result');
      return { ok: true, value: celjsCanon(out), type: checkedType };
    } catch (error) {
      if (error instanceof NotRunnable || !/Error$/.test(error?.name ?? '')) throw error;
      return { ok: false, error, phase: 'eval' };
    }
  },
};

function bufInput(value) {
  const { case: kind, value: v } = value.kind;
  switch (kind) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return buf.celUint(v);
    case 'enumValue':
      return BigInt(v.value);
    case 'listValue':
      return buf.celList(v.values.map(bufInput));
    case 'mapValue':
      return buf.celMap(new Map(v.entries.map((e) => [bufInput(e.key), bufInput(e.value)])));
    case 'objectValue': {
      const msg = anyUnpack(v, registry);
      if (!msg) throw new NotRunnable(`unknown Any ${v.typeUrl}`);
      return msg;
    }
    case 'typeValue':
      throw new NotRunnable('type value binding');
    default:
      return v;
  }
}

function bufCanon(x) {
  if (x === null) return C.null();
  switch (typeof x) {
    case 'bigint':
      return C.int(x);
    case 'number':
      return C.double(x);
    case 'string':
      return C.string(x);
    case 'boolean':
      return C.bool(x);
  }
  if (x instanceof Uint8Array) return C.bytes(x);
  if (buf.isCelUint(x)) return C.uint(x.value);
  if (buf.isCelType(x)) return C.type(x.name);
  if (buf.isCelList(x)) return C.list([...x].map(bufCanon));
  if (buf.isCelMap(x)) return C.map([...x.entries()].map(([k, v]) => [bufCanon(k), bufCanon(v)]));
  if (isReflectMessage(x)) return canonFromMessage(x.desc.typeName, x.message);
  if (isMessage(x)) return canonFromMessage(x.$typeName, x);
  throw new Error(`bufbuild: unrecognised result ${x}`);
}

const bufEngine = {
  name: 'bufbuild',
  run(test) {
    const o = test.original;
    // @bufbuild/cel 0.6.1 exports no type checker (check.js is not in the package's exports map).
    if (o.checkOnly || o.resultMatcher.case === 'typedResult') throw new NotRunnable('no public type checker');
    let parsed;
    try {
      parsed = buf.parse(o.expr);
    } catch (error) {
      return { ok: false, error, phase: 'parse' };
    }
    const env = buf.celEnv({ registry, namespace: o.container || undefined, funcs: bufStrings });
    let evaluate;
    try {
      evaluate = buf.plan(env, parsed);
    } catch (error) {
      return { ok: false, error, phase: 'plan' };
    }
    const bindings = {};
    for (const [k, v] of Object.entries(o.bindings)) {
      if (v.kind.case !== 'value') throw new NotRunnable(`binding ${v.kind.case}`);
      bindings[k] = bufInput(v.kind.value);
    }
    const out = evaluate(bindings);
    if (buf.isCelError(out)) return { ok: false, error: out, phase: 'eval' };
    return { ok: true, value: bufCanon(out) };
  },
};

// ---------------------------------------------------------------------------------------------
// Judge one outcome against the test's expectation
// ---------------------------------------------------------------------------------------------
const normType = (s) =>
  String(s)
    .replace(/\s+/g, '')
    .replace(/\(/g, '<')
    .replace(/\)/g, '>')
    .replace(/optional_type</g, 'optional<')
    .replace(/^null$/, 'null_type');

function judge(test, engine) {
  const o = test.original;
  let r;
  try {
    r = engine.run(test);
  } catch (e) {
    if (e instanceof NotRunnable) return { status: 'n/r', why: e.message };
    return { status: 'fail', why: `harness/engine threw: ${e?.message ?? e}`.split('\n')[0] };
  }
  const m = o.resultMatcher;
  const errText = (r) => `${r.phase} error: ${String(r.error?.message ?? r.error).split('\n')[0]}`;
  switch (m.case) {
    case 'evalError': {
      if (r.ok) return { status: 'fail', why: `expected error, got ${show(r.value)}`, got: show(r.value) };
      const want = m.value.errors.map((e) => e.message);
      const msg = String(r.error?.message ?? r.error)
        .toLowerCase()
        .replace(/_/g, ' ');
      const textMatch = want.some((w) => msg.includes(w.toLowerCase().replace(/_/g, ' ')));
      return { status: 'pass', errPhase: r.phase, textMatch, want: want.join('; '), got: errText(r) };
    }
    case 'typedResult': {
      if (!r.ok) return { status: 'fail', why: errText(r) };
      const want = normType(test.type);
      const got = normType(r.type);
      if (want !== got) return { status: 'fail', why: `type ${got}, want ${want}` };
      if (!o.checkOnly && m.value.result) {
        const exp = canonFromProto(m.value.result);
        if (!canonEqual(exp, r.value)) return { status: 'fail', why: `got ${show(r.value)}, want ${show(exp)}` };
      }
      return { status: 'pass' };
    }
    case 'value':
    case undefined: {
      let exp;
      try {
        exp = m.case === 'value' ? canonFromProto(m.value) : C.bool(true);
      } catch (e) {
        if (e instanceof NotRunnable) return { status: 'n/r', why: e.message };
        throw e;
      }
      if (o.checkOnly) return r.ok ? { status: 'pass' } : { status: 'fail', why: errText(r) };
      if (!r.ok) return { status: 'fail', why: errText(r), want: show(exp) };
      if (!canonEqual(exp, r.value)) return { status: 'fail', why: `got ${show(r.value)}, want ${show(exp)}` };
      return { status: 'pass' };
    }
    default:
      return { status: 'n/r', why: `matcher ${m.case}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------------
const PROTO_FILES = new Set(['dynamic', 'enums', 'proto2', 'proto2_ext', 'proto3', 'wrappers']);
// Sections whose semantics show up in Kubernetes CEL (JSON-shaped data, kube's base environment).
const K8S_FILES = [
  'basic',
  'comparisons',
  'conversions',
  'fields',
  'fp_math',
  'integer_math',
  'lists',
  'logic',
  'macros',
  'parse',
  'plumbing',
  'string',
  'string_ext',
  'timestamps',
  'optionals',
  'bindings_ext',
  'math_ext',
];
const namesMessage = (t) => {
  const { case: kind, value: v } = t?.typeKind ?? {};
  if (kind === 'messageType' || kind === 'wrapper') return true;
  if (kind === 'listType') return namesMessage(v.elemType);
  if (kind === 'mapType') return namesMessage(v.keyType) || namesMessage(v.valueType);
  return false;
};
// A test needs protobuf messages when it names a message type, a container, or binds a message.
const protoDependent = (t) =>
  PROTO_FILES.has(t.file) ||
  Boolean(t.original.container) ||
  /TestAllTypes|NestedMessage|NestedEnum|GlobalEnum|google\.protobuf\.(?!Timestamp|Duration)|proto[23]\./.test(t.original.expr) ||
  t.original.typeEnv.some((d) => d.declKind.case === 'ident' && namesMessage(d.declKind.value.type)) ||
  Object.values(t.original.bindings).some((b) => {
    const v = b.kind.value?.kind;
    return v?.case === 'objectValue' && !/Timestamp|Duration/.test(v.value.typeUrl);
  });

const tests = [];
(function walk(s, path) {
  for (const t of s.tests) tests.push({ ...t, file: path[0], path: [...path, t.original.name ?? t.name].join('/') });
  for (const c of s.suites) walk(c, [...path, c.name]);
})(getConformanceSuite(), []);

const engines = [celjsEngine, bufEngine].filter((e) => !onlyEngine || e.name === onlyEngine);
const results = tests.map((t) => {
  const row = { path: t.path, file: t.file, expr: t.original.expr, proto: protoDependent(t) };
  // disable_check tests that cel-go's checker rejects: kube (which always checks) rejects them when compiling
  const goRejects = t.original.disableCheck && /^ERROR/.test(t.error ?? '');
  for (const e of engines) {
    row[e.name] = judge(t, e);
    if (goRejects && row[e.name].status === 'fail' && /^(parse|check|eval) error/.test(row[e.name].why)) row[e.name].goCheckRejects = true;
  }
  return row;
});

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------
const count = (rows, eng) => {
  const c = { pass: 0, fail: 0, 'n/r': 0 };
  for (const r of rows) c[r[eng].status]++;
  return c;
};
const pct = (c) => {
  const run = c.pass + c.fail;
  return run ? `${((100 * c.pass) / run).toFixed(1)}%` : '-';
};
const fmt = (c) => `${c.pass}/${c.fail}/${c['n/r']}`;

const files = [...new Set(results.map((r) => r.file))];
const table = [];
for (const f of files) {
  const rows = results.filter((r) => r.file === f);
  const line = { file: f, tests: rows.length, proto: rows.filter((r) => r.proto).length };
  for (const e of engines) {
    const c = count(rows, e.name);
    line[`${e.name} p/f/nr`] = fmt(c);
    line[`${e.name} %`] = pct(c);
  }
  table.push(line);
}
const subsets = {
  ALL: results,
  'ALL excl. proto-dependent': results.filter((r) => !r.proto),
  'K8s-relevant sections': results.filter((r) => K8S_FILES.includes(r.file)),
  'K8s-relevant excl. proto': results.filter((r) => K8S_FILES.includes(r.file) && !r.proto),
};
for (const [name, rows] of Object.entries(subsets)) {
  const line = { file: name, tests: rows.length, proto: rows.filter((r) => r.proto).length };
  for (const e of engines) {
    const c = count(rows, e.name);
    line[`${e.name} p/f/nr`] = fmt(c);
    line[`${e.name} %`] = pct(c);
  }
  table.push(line);
}
console.log('pass/fail/not-runnable per file; % = pass / (pass + fail)');
console.table(table);

for (const e of engines) {
  const gr = results.filter((r) => r[e.name].goCheckRejects);
  console.log(
    `${e.name}: ${gr.length} failures (${gr.filter((r) => !r.proto).length} not proto-dependent) are errors on disable_check expressions that cel-go's checker also rejects: kube, which always checks, rejects them at compile time too`,
  );
}

// Failures that matter for Kubernetes expressions, by theme (non-proto tests only).
const THEMES = [
  [
    'heterogeneous numeric ==/in (int/uint/double mixed)',
    (r) => /^(comparisons\/(eq|ne)_literal\/.*mixed|lists\/in\/.*(uint|double)|lists\/index\/zero_based_(uint|double))/.test(r.path),
  ],
  ['cross-type numeric ordering near 2^63', (r) => /^comparisons\/.*(lossy|big_double|big_int)/.test(r.path)],
  ['bytes: ordering / literal encoding', (r) => /^(comparisons|basic)\/.*bytes/.test(r.path)],
  ['optional types', (r) => r.file === 'optionals'],
  ['string extension library', (r) => r.file === 'string_ext'],
  [
    'int/uint overflow and range of conversions',
    (r) => /^(integer_math|conversions\/(int|uint)\/.*range|conversions\/(int|uint)\/.*(overflow|neg))/.test(r.path) || /int64_min/.test(r.path),
  ],
  ['type conversions (int(uint), string(timestamp), identity)', (r) => r.file === 'conversions' && !/range/.test(r.path)],
  ['errors absorbed by && / || / ?: (error vs value)', (r) => r.file === 'logic' || /unbound_is_runtime_error|short_circuit/.test(r.path)],
  ['has() on maps / map literal field selection', (r) => /^fields\/(map_has|quoted_map_fields)/.test(r.path)],
  ['map keys (int/bool/null/float keys, duplicates)', (r) => /^fields\/qualified_identifier_resolution\/map_|macros\/exists_one\/map/.test(r.path)],
  ['dotted variable names / namespaces', (r) => /^fields\/qualified_identifier_resolution\/(qualified|map_field|ident)|^namespace/.test(r.path)],
  ['timestamps & durations (range, tz offsets, conversions)', (r) => r.file === 'timestamps'],
  ['macros (all/exists/exists_one/map/filter)', (r) => r.file === 'macros'],
  ['two-variable comprehensions (macros2)', (r) => r.file === 'macros2'],
  ['cel.bind (bindings_ext)', (r) => r.file === 'bindings_ext'],
  ['math extension', (r) => r.file === 'math_ext'],
  ['parser (reserved words, raw bytes, leading-dot numbers, quoted fields)', (r) => r.file === 'parse'],
];
const themeRows = THEMES.map(([name, pred]) => {
  const rows = results.filter((r) => !r.proto && pred(r));
  const line = { theme: name, tests: rows.length };
  for (const e of engines) {
    const fails = rows.filter((r) => r[e.name].status === 'fail');
    line[`${e.name} fail`] = fails.length;
    line[`${e.name} fail, go-checker-rejected`] = fails.filter((r) => r[e.name].goCheckRejects).length;
  }
  return line;
});
console.log('Kubernetes-relevant failure themes (non-proto tests; a test may fall in two themes)');
console.table(themeRows);

// Error tests: how many engine errors carry the spec's (cel-go's) error text
for (const e of engines) {
  const errs = results.filter((r) => r[e.name].errPhase);
  const text = errs.filter((r) => r[e.name].textMatch).length;
  const phases = {};
  for (const r of errs) phases[r[e.name].errPhase] = (phases[r[e.name].errPhase] ?? 0) + 1;
  console.log(`${e.name}: expected-error tests passed ${errs.length}; error text contains the spec's text in ${text}; error phase ${JSON.stringify(phases)}`);
}

mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(
  new URL('./results/conformance.json', import.meta.url),
  JSON.stringify({ table, themes: themeRows, results }, (_, v) => (typeof v === 'bigint' ? `${v}` : v), 1),
);

if (failuresFor) {
  for (const e of engines) {
    console.log(`\n== ${e.name} failures in ${failuresFor}`);
    for (const r of results.filter((r) => (failuresFor === 'ALL' || r.file === failuresFor) && r[e.name].status !== 'pass')) {
      console.log(
        `${r[e.name].status.padEnd(4)} ${r.path}${r.proto ? ' [proto]' : ''}\n     ${r.expr.replace(/\s+/g, ' ').slice(0, 160)}\n     -> ${r[e.name].why}`,
      );
    }
  }
}
