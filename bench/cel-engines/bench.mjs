// Speed of Kubernetes-style expressions on a ~3 KB Pod, @marcbachmann/cel-js vs @bufbuild/cel.
//   node bench.mjs [--n 20000] [--batches 15]
// compile = what is done once per expression: cel-js env.parse(expr) + .check(); bufbuild parse(expr) +
// plan(env, ast) (bufbuild has no public type checker, so it does less work here).
// eval = calling the compiled program with the bindings (pre-converted: ints as BigInt), N times per
// batch; the median of the batches' per-call times is reported.
import { writeFileSync, mkdirSync } from 'node:fs';
import { Environment } from '@marcbachmann/cel-js';
import { celEnv, parse, plan, isCelError } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { podJson, requestJson, paramsJson, celValue, EXPRESSIONS } from './pod.mjs';

const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
const N = arg('--n', 20000);
const BATCHES = arg('--batches', 15);
const COMPILE_REPS = arg('--compile-reps', 300);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const now = () => Number(process.hrtime.bigint());

const bindings = { object: celValue(podJson), oldObject: null, request: celValue(requestJson), params: celValue(paramsJson) };

// cel-js environment as kube configures it (see lib/cel/environment.ts), variables as dyn.
function celjsEnv({ typedRequest = false } = {}) {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  if (typedRequest) {
    env
      .registerType('kubernetes.GroupVersionKind', { fields: { group: 'string', version: 'string', kind: 'string' } })
      .registerType('kubernetes.GroupVersionResource', { fields: { group: 'string', version: 'string', resource: 'string' } })
      .registerType('kubernetes.UserInfo', { fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } })
      .registerType('kubernetes.AdmissionRequest', {
        fields: {
          uid: 'string',
          kind: 'kubernetes.GroupVersionKind',
          resource: 'kubernetes.GroupVersionResource',
          requestKind: 'kubernetes.GroupVersionKind',
          requestResource: 'kubernetes.GroupVersionResource',
          name: 'string',
          namespace: 'string',
          operation: 'string',
          userInfo: 'kubernetes.UserInfo',
          dryRun: 'bool',
        },
      });
  }
  return env
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable('params', 'dyn')
    .registerVariable('request', typedRequest ? 'kubernetes.AdmissionRequest' : 'dyn');
}

const engines = {
  'cel-js': {
    env: celjsEnv(),
    compile(env, expr) {
      const fn = env.parse(expr);
      const res = fn.check();
      if (!res.valid) throw res.error;
      return fn;
    },
    evaluate: (fn, b) => fn(b),
  },
  bufbuild: {
    env: celEnv({ funcs: strings }),
    compile(env, expr) {
      return plan(env, parse(expr));
    },
    evaluate(fn, b) {
      const r = fn(b);
      if (isCelError(r)) throw r;
      return r;
    },
  },
};

let sink = 0;
function timeEval(engine, fn) {
  for (let i = 0; i < Math.min(N, 5000); i++) sink ^= engine.evaluate(fn, bindings) ? 1 : 0; // warm-up
  const perCall = [];
  for (let b = 0; b < BATCHES; b++) {
    const t0 = now();
    for (let i = 0; i < N; i++) sink ^= engine.evaluate(fn, bindings) ? 1 : 0;
    perCall.push((now() - t0) / N);
  }
  return median(perCall);
}
function timeCompile(engine, env, expr) {
  for (let i = 0; i < 50; i++) engine.compile(env, expr); // warm-up
  const each = [];
  for (let i = 0; i < COMPILE_REPS; i++) {
    const t0 = now();
    engine.compile(env, expr);
    each.push(now() - t0);
  }
  return median(each);
}

const cases = [...EXPRESSIONS.map(([name, expr]) => ({ name, expr }))];
const rows = [];
for (const { name, expr } of cases) {
  const row = { expr: name };
  const results = {};
  for (const [ename, engine] of Object.entries(engines)) {
    const fn = engine.compile(engine.env, expr);
    results[ename] = engine.evaluate(fn, bindings);
    row[`${ename} compile µs`] = +(timeCompile(engine, engine.env, expr) / 1000).toFixed(1);
    row[`${ename} eval ns`] = Math.round(timeEval(engine, fn));
  }
  if (results['cel-js'] !== results.bufbuild) throw new Error(`${name}: engines disagree ${results['cel-js']} vs ${results.bufbuild}`);
  row.result = results['cel-js'];
  row['eval ratio buf/cel-js'] = +(row['bufbuild eval ns'] / row['cel-js eval ns']).toFixed(2);
  row['compile ratio buf/cel-js'] = +(row['bufbuild compile µs'] / row['cel-js compile µs']).toFixed(2);
  rows.push(row);
}

// Extra: cel-js with the typed request variable the harness declares (kubernetes.AdmissionRequest).
{
  const env = celjsEnv({ typedRequest: true });
  const expr = EXPRESSIONS.find(([n]) => n === 'name-and-op')[1];
  const fn = engines['cel-js'].compile(env, expr);
  rows.push({
    expr: 'name-and-op, cel-js typed request',
    'cel-js compile µs': +(timeCompile(engines['cel-js'], env, expr) / 1000).toFixed(1),
    'cel-js eval ns': Math.round(timeEval(engines['cel-js'], fn)),
    result: fn(bindings),
  });
}

// Environment construction (once per process in the harness, but it is part of first-use latency).
const envRows = {};
for (const [label, make] of [
  ['cel-js new Environment + 4 variables', () => celjsEnv()],
  ['cel-js ... + typed request (4 registerType)', () => celjsEnv({ typedRequest: true })],
  ['bufbuild celEnv({funcs: strings})', () => celEnv({ funcs: strings })],
]) {
  for (let i = 0; i < 50; i++) make();
  const each = [];
  for (let i = 0; i < 300; i++) {
    const t0 = now();
    make();
    each.push(now() - t0);
  }
  envRows[label] = +(median(each) / 1000).toFixed(1);
}

console.log(`node ${process.version}, N=${N} evals x ${BATCHES} batches (median per call), compile median of ${COMPILE_REPS}`);
console.table(rows);
console.log('environment construction, median µs:', envRows);
const sum = (k) => rows.slice(0, EXPRESSIONS.length).reduce((a, r) => a + r[k], 0);
console.log(
  `sum over the 5 expressions: eval cel-js ${sum('cel-js eval ns')} ns, bufbuild ${sum('bufbuild eval ns')} ns (x${(sum('bufbuild eval ns') / sum('cel-js eval ns')).toFixed(2)}); ` +
    `compile cel-js ${sum('cel-js compile µs').toFixed(1)} µs, bufbuild ${sum('bufbuild compile µs').toFixed(1)} µs`,
);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/bench.json', import.meta.url), JSON.stringify({ node: process.version, N, BATCHES, rows, envRows }, null, 1));
if (sink === 42) console.log('');
