// Cold import cost of each library: a fresh `node` process per run, timing only the import (or
// require) inside it, plus the process's wall time. Median of --runs (default 10).
//   node import-cost.mjs [--runs 10]
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';

const RUNS = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 10;
const cwd = new URL('.', import.meta.url).pathname;

const cases = {
  'cel-js import()': `await import("@marcbachmann/cel-js")`,
  "bufbuild import() '@bufbuild/cel'": `await import("@bufbuild/cel")`,
  "bufbuild import() '@bufbuild/cel' + '/ext'": `await Promise.all([import("@bufbuild/cel"), import("@bufbuild/cel/ext")])`,
  'bufbuild require() (CJS build)': `require("@bufbuild/cel"); require("@bufbuild/cel/ext")`,
  'cel-js require() (require(esm), node >=20.19)': `require("@marcbachmann/cel-js")`,
  'cel-js import + first compile+eval': `const {Environment} = await import("@marcbachmann/cel-js"); new Environment().registerVariable("object","dyn").parse("object.a == 1")({object:{a:1n}})`,
  'bufbuild import + first compile+eval': `const {celEnv, parse, plan} = await import("@bufbuild/cel"); plan(celEnv(), parse("object.a == 1"))({object:{a:1n}})`,
  'baseline (empty)': ``,
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const rows = [];
for (const [label, body] of Object.entries(cases)) {
  const isCjs = body.includes('require(');
  const code = isCjs
    ? `const t0 = performance.now(); ${body}; const t1 = performance.now(); console.log(JSON.stringify({ms: t1 - t0, rss: process.memoryUsage().rss}))`
    : `const t0 = performance.now(); ${body}; const t1 = performance.now(); console.log(JSON.stringify({ms: t1 - t0, rss: process.memoryUsage().rss}))`;
  const inProc = [];
  const wall = [];
  const rss = [];
  for (let i = 0; i < RUNS; i++) {
    const w0 = performance.now();
    const out = execFileSync(process.execPath, isCjs ? ['-e', code] : ['--input-type=module', '-e', code], { cwd, encoding: 'utf8' });
    wall.push(performance.now() - w0);
    const r = JSON.parse(out.trim().split('\n').pop());
    inProc.push(r.ms);
    rss.push(r.rss / 2 ** 20);
  }
  rows.push({
    case: label,
    'import ms (median)': +median(inProc).toFixed(1),
    min: +Math.min(...inProc).toFixed(1),
    max: +Math.max(...inProc).toFixed(1),
    'process wall ms': +median(wall).toFixed(1),
    'RSS MiB after': +median(rss).toFixed(1),
  });
}
console.log(`node ${process.version}, ${RUNS} fresh processes per case`);
console.table(rows);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/import-cost.json', import.meta.url), JSON.stringify({ node: process.version, RUNS, rows }, null, 1));
