// Go's regexp in the harness (lib/cel/libraries/go-regexp.ts: re2js, a port of RE2/J, with Go's error texts
// restored) against a plain JavaScript RegExp, which is what cel-js's own `matches` runs (its syntax, a
// backtracking engine) and what the harness's earlier translator emitted.
//
//   node go-regexp.mjs            # conformance on the harness's own cases, worst-case time, speed, load time
//
// The cases are those of test/cel/libraries/regex.test.ts (find/findAll results and regexp.Compile errors).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const here = new URL('.', import.meta.url).pathname;
const harnessFile = `${here}node_modules/.harness/go-regexp.cjs`;
await build({
  stdin: {
    contents: "export { loadCel } from './lib/cel/runtime'; export * from './lib/cel/libraries/go-regexp';",
    resolveDir: `${here}../..`,
    loader: 'ts',
  },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  external: ['re2js', '@marcbachmann/cel-js'],
  outfile: harnessFile,
  logLevel: 'warning',
});
const require = createRequire(import.meta.url);
const re2jsEntry = require.resolve('re2js');

const matchCases = [
  ['abc 123', '[0-9]+', undefined, '123'],
  ['1, 2, 3, 4', '[0-9]+', -1, ['1', '2', '3', '4']],
  ['1, 2, 3, 4', '[0-9]*', -1, ['1', '', '2', '', '3', '', '4']],
  ['abc 123', '[0-9]*', undefined, ''],
  ['abc 123', 'xyz', undefined, ''],
  ['123 abc 456', '[0-9]*', -1, ['123', '', '', '', '', '456']],
  ['123 abc 456', '[0-9]*', 1, ['123']],
  ['123 abc 456', 'xyz', -1, []],
  ['a1b2c3', '[0-9]', -1, ['1', '2', '3']],
  ['a1b2c3', '[0-9]', 0, []],
  ['a1b2c3', '[0-9]', 2, ['1', '2']],
  ['aaa', 'a*', -1, ['aaa']],
  ['baaab', 'a*', -1, ['', 'aaa', '']],
  ['héllo', '', -1, ['', '', '', '', '', '']],
  ['abc', 'a|ab', undefined, 'a'],
  ['abc', 'ab|a', undefined, 'ab'],
  ['<a><b>', '<.*>', undefined, '<a><b>'],
  ['<a><b>', '<.*?>', undefined, '<a>'],
  ['<a><b>', '(?U)<.*>', undefined, '<a>'],
  ['a\rb', 'a.b', undefined, 'a\rb'],
  ['a\nb', 'a.b', undefined, ''],
  ['a\nb', '(?s)a.b', undefined, 'a\nb'],
  ['\v', '\\s', undefined, ''],
  ['\u00a0', '\\s', undefined, ''],
  ['a\n', 'a$', undefined, ''],
  ['x\nab\ny', '(?m)^\\w+$', -1, ['x', 'ab', 'y']],
  ['a\nb', '\\Ab', undefined, ''],
  ['ab\n', 'b\\z', undefined, ''],
  ['foo food foo', '\\bfoo\\b', -1, ['foo', 'foo']],
  ['é1', '\\b1', undefined, '1'],
  ['HeLLo', '(?i)hello', undefined, 'HeLLo'],
  ['aB Ab', 'a(?i)b', -1, ['aB']],
  ['K \u212a k', '(?i)k', -1, ['K', '\u212a', 'k']],
  ['\u212a', '(?i)[^k]', undefined, ''],
  ['Straße', '(?i)STRASSE', undefined, ''],
  ['héllo wörld', '\\pL+', -1, ['héllo', 'wörld']],
  ['abc αβγ', '\\p{Greek}+', undefined, 'αβγ'],
  ['ab12', '[[:digit:]]+', undefined, '12'],
  ['ab12', '[[:^alpha:]]+', undefined, '12'],
  ['a_1-b', '\\w+', -1, ['a_1', 'b']],
  ['a+b', '\\Qa+b\\E', undefined, 'a+b'],
  ['A', '\\101', undefined, 'A'],
  ['😀', '\\x{1F600}', undefined, '😀'],
  ['a]b', '[]a]+', undefined, 'a]'],
  ['x{,5}', 'x{,5}', undefined, 'x{,5}'],
  ['aaa', 'a{2}', undefined, 'aa'],
  ['ab', '^*a', undefined, 'a'],
  ['ab', '(?P<first>a)(?<second>b)', undefined, 'ab'],
  ['registry.local/app:1.2', '[^:]+$', undefined, '1.2'],
  // Go 1.17+ (golang/go#46123); Go accepts a capture name used twice (regexp.go SubexpIndex).
  ['aaab', '(|a)*', -1, ['', '', '', '', '']],
  ['ab', '(?P<n>a)(?P<n>b)', undefined, 'ab'],
];
const errorCases = [
  ['(', 'missing closing ): `(`'],
  ['a(b', 'missing closing ): `a(b`'],
  [')', 'unexpected ): `)`'],
  ['a**', 'invalid nested repetition operator: `**`'],
  ['a*?*', 'invalid nested repetition operator: `*?*`'],
  ['x{2}{3}', 'invalid nested repetition operator: `{2}{3}`'],
  ['*', 'missing argument to repetition operator: `*`'],
  ['a|*', 'missing argument to repetition operator: `*`'],
  ['a{1001}', 'invalid repeat count: `{1001}`'],
  ['a{2,1}', 'invalid repeat count: `{2,1}`'],
  ['(a{500}){3}', 'invalid repeat count: `{3}`'],
  ['[a', 'missing closing ]: `[a`'],
  ['x[]', 'missing closing ]: `[]`'],
  ['[z-a]', 'invalid character class range: `z-a`'],
  ['[[:foo:]]', 'invalid character class range: `[:foo:]`'],
  ['\\pX', 'invalid character class range: `\\pX`'],
  ['\\p{Foo}', 'invalid character class range: `\\p{Foo}`'],
  ['\\p{L', 'invalid character class range: `\\p{L`'],
  ['\\1', 'invalid escape sequence: `\\1`'],
  ['\\8', 'invalid escape sequence: `\\8`'],
  ['\\q', 'invalid escape sequence: `\\q`'],
  ['\\C', 'invalid escape sequence: `\\C`'],
  ['\\xZZ', 'invalid escape sequence: `\\xZZ`'],
  ['\\x{}', 'invalid escape sequence: `\\x{}`'],
  ['[a-\\d]', 'invalid escape sequence: `\\d`'],
  ['\\', 'trailing backslash at end of expression: ``'],
  ['a\\', 'trailing backslash at end of expression: ``'],
  ['[a\\', 'trailing backslash at end of expression: ``'],
  ['(?=a)', 'invalid or unsupported Perl syntax: `(?=`'],
  ['(?!a)', 'invalid or unsupported Perl syntax: `(?!`'],
  ['(?i', 'invalid or unsupported Perl syntax: `(?i`'],
  ['(?-)', 'invalid or unsupported Perl syntax: `(?-)`'],
  ['(?<=a)b', 'invalid named capture: `(?<=a)b`'],
  ['(?P<>a)', 'invalid named capture: `(?P<>`'],
  ['(?P<a-b>x)', 'invalid named capture: `(?P<a-b>`'],
];

const g = require(harnessFile);
await g.loadCel();
const engines = [
  {
    name: 'harness (re2js)',
    compile: (p) => g.compileGoRegexp(p),
    error: (p) => g.goRegexpError(p),
    find: (re, s) => g.goFindString(re, s),
    findAll: (re, s, n) => g.goFindAllString(re, s, n),
    test: (re, s) => g.goMatchString(re, s),
    // compileGoRegexp caches; the uncached compile is what a new pattern costs.
    uncached: (p) => g.compileGoRegexp(p),
  },
  {
    name: 'JavaScript RegExp',
    compile: (p) => new RegExp(p, 'gu'),
    error: (p) => {
      try {
        new RegExp(p, 'u');
        return undefined;
      } catch (e) {
        return e.message;
      }
    },
    find: (re, s) => {
      re.lastIndex = 0;
      return re.exec(s)?.[0] ?? '';
    },
    findAll: (re, s, n) => [...s.matchAll(re)].map((m) => m[0]).slice(0, n < 0 ? undefined : n),
    // cel-js's string.matches: a new RegExp each call.
    test: (re, s) => new RegExp(re.source).test(s),
    uncached: (p) => new RegExp(p, 'u'),
  },
];

const re2jsVersion = JSON.parse(readFileSync(path.join(path.dirname(re2jsEntry), '..', 'package.json'), 'utf8')).version;
console.log(`node ${process.version}, re2js ${re2jsVersion}`);
console.log('\n# conformance: the harness cases');
for (const e of engines) {
  let ok = 0;
  const bad = [];
  for (const [s, p, n, want] of matchCases) {
    let got;
    try {
      const re = e.compile(p);
      got = n === undefined ? e.find(re, s) : e.findAll(re, s, n);
    } catch (err) {
      got = `THROW ${err.message}`;
    }
    if (JSON.stringify(got) === JSON.stringify(want)) ok++;
    else bad.push(`match ${JSON.stringify(p)} on ${JSON.stringify(s)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  let eok = 0;
  for (const [p, msg] of errorCases) {
    const want = `error parsing regexp: ${msg}`;
    const got = e.error(p);
    if (got === want) eok++;
    else bad.push(`error ${JSON.stringify(p)}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  console.log(`${e.name}: results ${ok}/${matchCases.length}, errors ${eok}/${errorCases.length}`);
  if (e === engines[0]) for (const b of bad) console.log(`  ${b}`);
}

const median = (a) => a.sort((x, y) => x - y)[a.length >> 1];
function perCall(fn, reps) {
  const runs = [];
  for (let r = 0; r < 7; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) fn();
    runs.push(Number(process.hrtime.bigint() - t) / reps);
  }
  return median(runs);
}

console.log('\n# worst case: (a+)+$ on "a"×n + "b", one match, ms');
for (const n of [20, 24, 26, 28]) {
  const row = [`n=${n}`];
  for (const e of engines) {
    const re = e.compile('(a+)+$');
    const t = process.hrtime.bigint();
    e.test(re, `${'a'.repeat(n)}b`);
    row.push(`${e.name} ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(2)}`);
  }
  console.log(row.join('  '));
}
{
  const re = engines[0].compile('(a+)+$');
  const t = process.hrtime.bigint();
  engines[0].test(re, `${'a'.repeat(100_000)}b`);
  console.log(`n=100000  ${engines[0].name} ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(2)}`);
}

console.log('\n# kube-style patterns on short strings: matches() ns, compile µs (uncached)');
const kube = [
  ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-app-01'],
  ['^(?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[\\w][\\w.-]{0,127})?$', 'registry.example.com/team/app:1.2.3'],
  ['^https?://', 'https://example.com/x'],
  ['[0-9]+', 'abc 123'],
  ['(?i)^(true|false)$', 'TRUE'],
];
for (const [p, s] of kube) {
  const row = [p.length > 36 ? `${p.slice(0, 33)}...` : p];
  for (const e of engines) {
    let re;
    try {
      re = e.compile(p);
    } catch {
      row.push(`${e.name} refuses`);
      continue;
    }
    let k = 0;
    const match = perCall(() => e.test(re, s), 20000);
    const compile = perCall(() => e.uncached(`${p}|${k++}`), 200) / 1000;
    row.push(`${e.name} ${match.toFixed(0)} ns, ${compile.toFixed(0)} µs`);
  }
  console.log(row.join('  '));
}

console.log('\n# 1 MiB string, ms');
const big = 'lorem ipsum dolor sit amet 12345 '.repeat(32768).slice(0, 1 << 20);
for (const [p, mode] of [
  ['^[a-z0-9 ]*$', 'matches'],
  ['amet [0-9]+', 'findAll'],
]) {
  const row = [`${mode} ${p}`];
  for (const e of engines) {
    const re = e.compile(p);
    row.push(`${e.name} ${(perCall(() => (mode === 'findAll' ? e.findAll(re, big, -1) : e.test(re, big)), 1) / 1e6).toFixed(1)}`);
  }
  console.log(row.join('  '));
}

console.log('\n# cold require() of re2js in a fresh process, median of 10, ms');
const times = [];
for (let i = 0; i < 10; i++) {
  const out = execFileSync(process.execPath, [
    '-e',
    `const t=process.hrtime.bigint();require(${JSON.stringify(re2jsEntry)});console.log(Number(process.hrtime.bigint()-t)/1e6)`,
  ]);
  times.push(Number(out));
}
console.log(`re2js: ${median(times).toFixed(1)}`);
