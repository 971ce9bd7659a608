#!/usr/bin/env node
// Consumer tests: install the *packed* admission-harness into tiny projects outside the repository and
// run their specs, the way a user's project would load it (no transform, no path mapping, nothing
// resolved from this repository's node_modules).
//
//   node test/consumers/run.mjs [--node <path-to-node>]... [--only <consumer>]... [--timeout <s>] [--keep] [--relock]
//
// Needs a built package (`npm run build`). For each consumer folder here (jest-cjs, jest-esm, vitest)
// and each Node binary (`--node`, repeatable; default: the Node running this script) it:
//   1. packs the repository root once (`npm pack --ignore-scripts`) into a temporary folder under
//      os.tmpdir() as admission-harness.tgz,
//   2. copies the consumer folder next to it, so its `"admission-harness": "file:../admission-harness.tgz"`
//      points at the fresh tarball,
//   3. prepares the committed package-lock.json (see below) and runs `npm ci --offline --ignore-scripts`:
//      everything comes from the local npm cache, nothing from the network,
//   4. runs the consumer's `scripts.test`, then each of its `test:*` scripts (all of them always run,
//      under every Node given: `test:types*` are `tsc --noEmit` in that consumer's setups),
//      each with `sh -c`, the chosen Node's folder first on PATH, then the consumer's node_modules/.bin,
//      and CONSUMER_EXPECT_NODE set, which the specs assert against process.version.
// It prints one line per consumer and Node, then `N passed, N failed`; it exits 1 if any failed.
//
// Offline installs. CI runs only the root `npm ci` before this, so the npm cache holds exactly the
// tarballs of the root package-lock.json, and no packuments to rely on (npm ci fetches those only when a
// lock entry has no `resolved` URL, so whether they are cached depends on npm settings). So `npm install
// --offline jest` cannot work there. Instead each consumer has a committed
// package-lock.json whose every registry package is also in the root lockfile (same version and
// integrity), and at run time this script:
//   - points the `admission-harness` entry at the fresh tarball (`resolved: file:../admission-harness.tgz`,
//     no `integrity`, `version` from the root package.json) after checking that its `dependencies` still
//     equal the root package.json's (if not: relock);
//   - adds a `resolved` URL, built from `npm config get registry`, to every registry entry: the committed
//     locks carry none (this machine's npm has omit-lockfile-registry-resolved=true), and without one npm
//     must fetch the packument to find the tarball, which fails offline. With `resolved` + `integrity`, npm
//     reads the tarball from the cache by its integrity.
//
// Regenerating the consumer lockfiles (after the root's dependencies, or a consumer's package.json, change):
//   1. update and install the root first (`npm install`, so the root package-lock.json and the local
//      cache are current), then `npm run build`;
//   2. node test/consumers/run.mjs --relock
// For each consumer this seeds a scratch lockfile from the root package-lock.json (so the same versions
// are kept), runs `npm install --package-lock-only --prefer-offline --ignore-scripts` (this step may use
// the network), strips `resolved` URLs and the tarball's integrity, adds stub entries for optional
// platform packages that the registry here does not serve (see addOptionalStubs), refuses the result if
// any registry package is not in the root lockfile (add it to the root devDependencies, or align the
// consumer's range), writes test/consumers/<name>/package-lock.json, then runs the normal offline test.
// Commit the changed lockfiles.
//
// `--stub-optional <package-lock.json>` only adds those optional stub entries to the given lockfile, then
// exits: for the root lockfile, whose `npm ci` fails the same way ("Missing: @swc/core-darwin-arm64@ from
// lock file") whenever it was generated against this registry.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const TARBALL = 'admission-harness.tgz';
const TARBALL_SPEC = `file:../${TARBALL}`;
const OUTPUT_LIMIT = 200_000; // characters of a failed child's output to show (the end of it)

// ---------------------------------------------------------------------------------------------- args

function usage(message) {
  if (message) console.error(`run.mjs: ${message}`);
  console.error('usage: node test/consumers/run.mjs [--node <path>]... [--only <consumer>]... [--timeout <seconds>] [--keep] [--relock]');
  console.error('       node test/consumers/run.mjs --stub-optional <package-lock.json>');
  process.exit(2);
}

function parseArgs(argv) {
  const options = { nodes: [], only: [], timeoutMs: 300_000, keep: false, relock: false, stubOptional: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) usage(`${arg} needs a value`);
      return next;
    };
    if (arg === '--node') options.nodes.push(path.resolve(value()));
    else if (arg.startsWith('--node=')) options.nodes.push(path.resolve(arg.slice(7)));
    else if (arg === '--only') options.only.push(value());
    else if (arg.startsWith('--only=')) options.only.push(arg.slice(7));
    else if (arg === '--timeout' || arg.startsWith('--timeout=')) {
      const seconds = Number(arg.includes('=') ? arg.split('=')[1] : value());
      if (!(seconds > 0)) usage('--timeout needs a positive number of seconds');
      options.timeoutMs = seconds * 1000;
    } else if (arg === '--keep') options.keep = true;
    else if (arg === '--relock') options.relock = true;
    else if (arg === '--stub-optional') options.stubOptional = path.resolve(value());
    else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown argument ${JSON.stringify(arg)}`);
  }
  return options;
}

// ------------------------------------------------------------------------------------------ children

const running = new Set();

/**
 * Runs a command in its own process group with no stdin, collecting stdout+stderr. Resolves
 * { code, signal, output, timedOut }; on timeout the whole group is killed.
 */
function run(command, args, { cwd, env, deadline }) {
  return new Promise((resolve) => {
    let output = '';
    const append = (chunk) => {
      output += chunk;
      if (output.length > 4 * OUTPUT_LIMIT) output = output.slice(-2 * OUTPUT_LIMIT);
    };
    let child;
    try {
      child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      resolve({ code: null, signal: null, output: String(error), timedOut: false });
      return;
    }
    running.add(child);
    child.stdout.setEncoding('utf8').on('data', append);
    child.stderr.setEncoding('utf8').on('data', append);
    let timedOut = false;
    const remaining = deadline - Date.now();
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child);
      },
      Math.max(remaining, 0),
    );
    child.on('error', (error) => append(`\n${error.stack ?? error}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, output, timedOut });
    });
  });
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Synchronous helper for quick setup commands; throws with the output on failure. */
function runSync(command, args, { cwd = ROOT, env = process.env, what } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    const detail = result.error ? String(result.error) : `exit code ${result.status}${result.signal ? `, signal ${result.signal}` : ''}`;
    throw new Error(`${what ?? `${command} ${args.join(' ')}`} failed (${detail}):\n${indent(`${result.stdout ?? ''}${result.stderr ?? ''}`)}`);
  }
  return result.stdout;
}

function indent(text) {
  const trimmed = text.length > OUTPUT_LIMIT ? `… (${text.length - OUTPUT_LIMIT} characters cut)\n${text.slice(-OUTPUT_LIMIT)}` : text;
  return trimmed
    .replace(/\s+$/, '')
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)}s`;

// ----------------------------------------------------------------------------------------- packaging

/** Every file the root package.json points consumers at (exports, main, module, types, bin). */
function publishedEntryFiles(pkg) {
  const files = new Set();
  const visit = (value) => {
    if (typeof value === 'string') {
      if (value.startsWith('./') && !value.includes('*')) files.add(path.posix.normalize(value));
    } else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(pkg.exports);
  for (const field of ['main', 'module', 'types', 'typings']) if (typeof pkg[field] === 'string') visit(`./${path.posix.normalize(pkg[field])}`);
  visit(typeof pkg.bin === 'string' ? `./${pkg.bin}` : Object.values(pkg.bin ?? {}).map((p) => `./${path.posix.normalize(p)}`));
  return [...files].map((p) => p.replace(/^\.\//, ''));
}

function checkBuilt(pkg) {
  const missing = publishedEntryFiles(pkg).filter((file) => file !== 'package.json' && !fs.existsSync(path.join(ROOT, file)));
  if (missing.length > 0) {
    const what = fs.existsSync(path.join(ROOT, 'dist'))
      ? `${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} missing`
      : `${path.join(ROOT, 'dist')} does not exist`;
    throw new Error(`the package is not built: ${what}.\n    Build it first: (cd ${ROOT} && npm run build)`);
  }
}

/** `npm pack` of the root into dir/admission-harness.tgz; checks every entry file is in the tarball. */
function pack(pkg, dir) {
  const stdout = runSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { what: 'npm pack' });
  const start = stdout.indexOf('[');
  const [info] = JSON.parse(stdout.slice(start));
  fs.renameSync(path.join(dir, info.filename), path.join(dir, TARBALL));
  const packed = new Set(info.files.map((f) => f.path));
  const notPacked = publishedEntryFiles(pkg).filter((file) => !packed.has(file));
  if (notPacked.length > 0) throw new Error(`the tarball lacks files that package.json points at: ${notPacked.join(', ')} (check "files" in package.json)`);
  // MIT (and the rest) require the licence texts of the code bundled into dist to ship with it.
  if (!packed.has('dist/THIRD-PARTY-LICENSES.txt'))
    throw new Error('the tarball lacks dist/THIRD-PARTY-LICENSES.txt: build with npm run build (lib/build.mjs writes it)');
  const licenses = fs.readFileSync(path.join(ROOT, 'dist/THIRD-PARTY-LICENSES.txt'), 'utf8');
  const missing = ['@faker-js/faker', 'msw', '@marcbachmann/cel-js', 're2js'].filter((name) => !licenses.includes(`\n${name}@`));
  if (missing.length > 0) throw new Error(`dist/THIRD-PARTY-LICENSES.txt lacks the licences of bundled ${missing.join(', ')}`);
  return info;
}

// ---------------------------------------------------------------------------------------- lockfiles

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));
const writeJson = (file, value) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

const packageNameOf = (location, entry) => entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

function sameDeps(a = {}, b = {}) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** Adapts a committed consumer lockfile to this run's tarball and makes it installable offline. */
function prepareLock(consumer, lockFile, rootPkg, registry) {
  if (!fs.existsSync(lockFile)) throw new Error(`${consumer}/package-lock.json is missing: run node test/consumers/run.mjs --relock`);
  const lock = readJson(lockFile);
  const self = lock.packages?.['node_modules/admission-harness'];
  if (!self) throw new Error(`${consumer}/package-lock.json has no node_modules/admission-harness entry: run node test/consumers/run.mjs --relock`);
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    if (!sameDeps(self[field], rootPkg[field])) {
      throw new Error(
        `${consumer}/package-lock.json is stale: its admission-harness ${field} ${JSON.stringify(self[field] ?? {})} differ from package.json's ${JSON.stringify(rootPkg[field] ?? {})}.\n    Regenerate the consumer lockfiles: node test/consumers/run.mjs --relock`,
      );
    }
  }
  self.version = rootPkg.version;
  self.resolved = TARBALL_SPEC;
  delete self.integrity;
  const base = registry.endsWith('/') ? registry : `${registry}/`;
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location || entry.link || entry.resolved || !entry.integrity || !entry.version) continue;
    const name = packageNameOf(location, entry);
    entry.resolved = `${base}${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
  }
  writeJson(lockFile, lock);
}

/** Node's lookup of `name` from the package at `location`, over lockfile paths. */
function lockLookup(packages, location, name) {
  let base = location;
  for (;;) {
    const key = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return undefined;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
}

/**
 * The registry reached here answers 404 for some platform-specific optional packages (darwin, win32, …
 * builds of native bindings). `npm install` then leaves them out of the lockfile, and `npm ci` rejects
 * that lockfile ("Missing: @unrs/resolver-binding-darwin-arm64@ from lock file"). A stub entry (exact
 * version, optional, no integrity) satisfies `npm ci`; on a platform that needs the package the
 * optional install fails and is skipped, as with any optional dependency.
 */
function addOptionalStubs(lock) {
  const packages = lock.packages;
  const added = [];
  for (const [location, entry] of Object.entries({ ...packages })) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      if (lockLookup(packages, location, name)) continue;
      const version = spec.replace(/^[\^~=v]+/, '');
      if (!/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version))
        throw new Error(`cannot stub optional dependency ${name}@${spec} of ${location || 'the root'}: not an exact version`);
      const key = `${location ? `${location}/` : ''}node_modules/${name}`;
      const top = `node_modules/${name}`;
      const at = packages[top] ? key : top;
      packages[at] = { version, ...(entry.dev ? { dev: true } : {}), optional: true };
      added.push(`${name}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b, 'en')));
  return added;
}

/** Regenerates consumer/package-lock.json from the root lockfile and the fresh tarball. */
function relock(consumer, workDir, rootLock) {
  const scratch = path.join(workDir, `relock-${consumer}`);
  fs.mkdirSync(scratch);
  const pkg = readJson(path.join(HERE, consumer, 'package.json'));
  fs.copyFileSync(path.join(HERE, consumer, 'package.json'), path.join(scratch, 'package.json'));
  // Seed with the root lockfile: npm keeps every locked version that satisfies the consumer, prunes the rest.
  writeJson(path.join(scratch, 'package-lock.json'), { ...rootLock, name: pkg.name, version: pkg.version });
  runSync('npm', ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: scratch,
    what: `npm install --package-lock-only for ${consumer}`,
  });
  const lock = readJson(path.join(scratch, 'package-lock.json'));
  const known = new Set(
    Object.values(rootLock.packages)
      .map((entry) => entry.integrity)
      .filter(Boolean),
  );
  const foreign = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location) continue;
    if (location === 'node_modules/admission-harness') {
      delete entry.integrity;
      entry.resolved = TARBALL_SPEC;
      continue;
    }
    if (entry.resolved && !entry.resolved.startsWith('file:')) delete entry.resolved;
    if (entry.integrity && !known.has(entry.integrity)) foreign.push(`${location}@${entry.version}`);
  }
  if (foreign.length > 0) {
    throw new Error(
      `${consumer}: ${foreign.length} locked package(s) are not in the root package-lock.json, so CI's npm cache would lack them:\n    ${foreign.join('\n    ')}\n    Add them to the root devDependencies (or align ${consumer}/package.json's ranges with the root's) and relock.`,
    );
  }
  const stubs = addOptionalStubs(lock);
  writeJson(path.join(HERE, consumer, 'package-lock.json'), lock);
  return { entries: Object.keys(lock.packages).length - 1, stubs: stubs.length };
}

// ------------------------------------------------------------------------------------------- main

function nodeVersion(nodePath) {
  const result = spawnSync(nodePath, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (result.error || result.status !== 0) throw new Error(`--node ${nodePath} does not run: ${result.error ?? result.stderr}`);
  return result.stdout.trim();
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.stubOptional) {
    const lock = readJson(options.stubOptional);
    const added = addOptionalStubs(lock);
    writeJson(options.stubOptional, lock);
    console.log(`${options.stubOptional}: added ${added.length} optional stub entries${added.length ? `:\n  ${added.join('\n  ')}` : ''}`);
    return;
  }
  const rootPkg = readJson(path.join(ROOT, 'package.json'));
  const consumers = fs
    .readdirSync(HERE, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(HERE, d.name, 'package.json')))
    .map((d) => d.name)
    .sort();
  for (const name of options.only) if (!consumers.includes(name)) usage(`no consumer named ${JSON.stringify(name)} (have: ${consumers.join(', ')})`);
  const selected = options.only.length > 0 ? consumers.filter((c) => options.only.includes(c)) : consumers;
  const nodes = (options.nodes.length > 0 ? options.nodes : [process.execPath]).map((bin) => ({ bin, version: nodeVersion(bin) }));

  checkBuilt(rootPkg);
  const workDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'admission-harness-consumers-')));
  if (!path.relative(ROOT, workDir).startsWith('..')) throw new Error(`the temporary folder ${workDir} is inside the repository: set TMPDIR elsewhere`);
  const cleanup = () => {
    for (const child of running) killGroup(child);
    if (options.keep) console.log(`kept ${workDir}`);
    else fs.rmSync(workDir, { recursive: true, force: true });
  };
  for (const [signal, number] of [
    ['SIGINT', 2],
    ['SIGTERM', 15],
  ]) {
    process.on(signal, () => {
      cleanup();
      process.exit(128 + number);
    });
  }
  // Consumers must resolve nothing but their own node_modules: warn about stray ones above the work dir.
  for (let dir = path.dirname(workDir); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules')))
      console.log(`warning: ${path.join(dir, 'node_modules')} exists; consumers could resolve packages from it`);
    if (path.dirname(dir) === dir) break;
  }

  let passed = 0;
  let failed = 0;
  try {
    const packStart = Date.now();
    const info = pack(rootPkg, workDir);
    console.log(`packed ${info.id} (${info.files.length} files, ${(info.size / 1024).toFixed(1)} kB) in ${seconds(Date.now() - packStart)}`);
    const registry = runSync('npm', ['config', 'get', 'registry'], { what: 'npm config get registry' }).trim();

    if (options.relock) {
      const rootLock = readJson(path.join(ROOT, 'package-lock.json'));
      for (const consumer of selected) {
        const { entries, stubs } = relock(consumer, workDir, rootLock);
        console.log(`relocked ${consumer}: ${entries} packages, ${stubs} optional stubs -> test/consumers/${consumer}/package-lock.json`);
      }
    }

    const npmEnv = {
      ...process.env,
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    for (const [index, node] of nodes.entries()) {
      for (const consumer of selected) {
        const label = `${consumer} on node ${node.version}`;
        const dir = path.join(workDir, `${consumer}-${index}-${node.version}`);
        const deadline = Date.now() + options.timeoutMs;
        let stage = 'setup';
        let result;
        let installMs = 0;
        let testMs = 0;
        try {
          fs.cpSync(path.join(HERE, consumer), dir, { recursive: true, filter: (src) => !/[\\/]node_modules$/.test(src) });
          prepareLock(consumer, path.join(dir, 'package-lock.json'), rootPkg, registry);
          stage = 'npm ci --offline';
          let started = Date.now();
          result = await run('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, env: npmEnv, deadline });
          installMs = Date.now() - started;
          if (result.code === 0 && !result.timedOut) {
            const scripts = readJson(path.join(dir, 'package.json')).scripts ?? {};
            if (!scripts.test) throw new Error(`${consumer}/package.json has no scripts.test`);
            // Type checks run under every Node too: tsc resolves @types/node and the package's conditions the same
            // way everywhere, but a setup that works only on one Node is what this matrix exists to catch.
            const names = ['test', ...Object.keys(scripts).filter((name) => name.startsWith('test:'))];
            const env = {
              ...process.env,
              PATH: [path.dirname(node.bin), path.join(dir, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter),
              CONSUMER_EXPECT_NODE: node.version,
              // Plain logs: Vitest colours its output whenever CI is set, even into a pipe.
              ...(process.env.FORCE_COLOR ? {} : { NO_COLOR: '1' }),
            };
            // Every test script runs even when an earlier one failed, so one report shows all problems.
            const failures = [];
            let output = '';
            started = Date.now();
            for (const name of names) {
              const step = await run('sh', ['-c', scripts[name]], { cwd: dir, env, deadline });
              output += `$ ${scripts[name]}\n${step.output}\n`;
              if (step.code !== 0 || step.timedOut) {
                failures.push(
                  `${name}: ${step.timedOut ? `timed out after ${seconds(options.timeoutMs)}` : step.code !== null ? `exit code ${step.code}` : `signal ${step.signal}`}`,
                );
              }
              if (step.timedOut) break;
            }
            testMs = Date.now() - started;
            stage = failures.join('; ');
            result = { code: failures.length === 0 ? 0 : 1, signal: null, output, timedOut: false, explained: failures.length > 0 };
          }
        } catch (error) {
          result = { code: null, signal: null, output: String(error.message ?? error), timedOut: false };
        }
        if (result.code === 0 && !result.timedOut) {
          passed++;
          console.log(`ok   ${label}  (install ${seconds(installMs)}, test ${seconds(testMs)})`);
        } else {
          failed++;
          const why = result.timedOut
            ? `timed out after ${seconds(options.timeoutMs)}`
            : result.code !== null
              ? `exit code ${result.code}`
              : result.signal
                ? `signal ${result.signal}`
                : 'error';
          const timing = installMs > 0 ? `, install ${seconds(installMs)}${testMs > 0 ? `, test ${seconds(testMs)}` : ''}` : '';
          console.log(`FAIL ${label}  (${result.explained ? stage : `${stage}: ${why}`}${timing})`);
          console.log(indent(result.output));
        }
      }
    }
  } finally {
    cleanup();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(`run.mjs: ${error.message ?? error}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
