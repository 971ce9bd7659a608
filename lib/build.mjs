#!/usr/bin/env node
// Builds dist/ with tsup, then adds what the bundles read beside them (the schema table of
// Kubernetes' types, lib/registry/schema/build-table.mjs), the suite format's JSON Schema for editors,
// and the licence texts of the third-party code bundled into it.
//
//   node lib/build.mjs               build, with tsup's log (npm run build)
//   node lib/build.mjs --if-changed  build only when the sources changed since the last build, saying
//                                    so in one line, else print nothing (npm run demo, npm run bench)
//
// "Changed" is a hash of every file that goes into dist (sources, configs, the lockfile), stored in
// dist/.build-hash: a checkout or a touch that changes no byte does not rebuild. Files generated from
// the installed packages are not sources: `npm test`'s pre-step writes the schema table into lib/, and
// the build makes its own copy in dist from the same packages (whose versions the lockfile hashes).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-hash');
const INPUTS = ['lib', 'matchers', 'scenarios', 'package.json', 'package-lock.json', 'tsup.config.ts', 'tsconfig.json'];
/** Generated into the inputs' folders, never written by hand (see above): not hashed. */
export const GENERATED = ['lib/registry/schema/kube-schemas.json'];
export const LICENSES_FILE = 'THIRD-PARTY-LICENSES.txt';

function files(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (
    !readdirSync(path.dirname(full), { withFileTypes: true })
      .find((d) => d.name === path.basename(full))
      ?.isDirectory()
  )
    return [entry];
  return readdirSync(full, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) => files(root, path.join(entry, d.name)));
}

/** A hash of every byte that goes into dist, of the checkout at `root` (this one by default). */
export function sourceHash(root = ROOT) {
  const hash = createHash('sha256');
  const generated = new Set(GENERATED.map((file) => path.normalize(file)));
  for (const file of INPUTS.flatMap((entry) => files(root, entry)).filter((file) => !generated.has(path.normalize(file)))) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The package that owns a bundled file: `node_modules/@scope/name/…` → { name, dir }. */
function packageOf(input) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input.split(path.sep).join('/'));
  if (!match) return undefined;
  const at = input.split(path.sep).join('/').lastIndexOf(`node_modules/${match[1]}/`);
  return { name: match[1], dir: path.join(ROOT, input.slice(0, at), 'node_modules', match[1]) };
}

/**
 * dist/THIRD-PARTY-LICENSES.txt: for every package whose code esbuild put into dist, its name, version,
 * licence and licence text. MIT and the like require the text to travel with the code; packages left
 * external are installed with their own. What was bundled is read from the bundles themselves (esbuild
 * heads each module it inlines with a `// node_modules/<package>/…` line), so every build's output
 * counts, whichever of tsup's builds wrote it.
 */
function writeLicenses() {
  const packages = new Map();
  for (const bundle of readdirSync(DIST).filter((f) => /\.(c|m)?js$/.test(f))) {
    for (const [, input] of readFileSync(path.join(DIST, bundle), 'utf8').matchAll(/^\/\/ (\S*node_modules\/\S+)$/gm)) {
      const owner = packageOf(input);
      if (owner && !packages.has(owner.dir)) packages.set(owner.dir, owner.name);
    }
  }
  const sections = [...packages]
    .map(([dir, name]) => {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
      const text = licenseFile
        ? readFileSync(path.join(dir, licenseFile), 'utf8').trim()
        : `(no licence file in the package; package.json says ${JSON.stringify(pkg.license)})`;
      return { id: `${name}@${pkg.version}`, license: typeof pkg.license === 'string' ? pkg.license : JSON.stringify(pkg.license), text };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
  const header = `Third-party code bundled into admission-harness's dist/, with its licence.\n${sections.length} packages.\n`;
  const body = sections.map((s) => `${'='.repeat(78)}\n${s.id} (${s.license})\n${'='.repeat(78)}\n\n${s.text}\n`).join('\n');
  writeFileSync(path.join(DIST, LICENSES_FILE), `${header}\n${body}`);
  return sections.length;
}

function build({ quiet }) {
  rmSync(DIST, { recursive: true, force: true });
  const tsup = path.join(ROOT, 'node_modules', '.bin', 'tsup');
  const result = spawnSync(tsup, [], { cwd: ROOT, encoding: 'utf8', stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(`build failed (tsup exit ${result.status ?? result.signal})\n`);
    process.exit(1);
  }
  const table = spawnSync(process.execPath, [path.join(ROOT, 'lib/registry/schema/build-table.mjs'), '--out', path.join(DIST, 'kube-schemas.json')], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (table.status !== 0) {
    if (quiet) process.stderr.write(`${table.stdout ?? ''}${table.stderr ?? ''}`);
    process.stderr.write(`build failed (the schema table: exit ${table.status ?? table.signal})\n`);
    process.exit(1);
  }
  copyFileSync(path.join(ROOT, 'lib/suite/suite.schema.json'), path.join(DIST, 'suite.schema.json'));
  const count = writeLicenses();
  if (!quiet) console.log(`${LICENSES_FILE}: ${count} bundled packages`);
  writeFileSync(STAMP, `${sourceHash()}\n`);
}

/** Whether the build recorded in `stamp` is of the sources as they are now. */
export function isCurrent(stamp = STAMP, root = ROOT) {
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceHash(root);
}

/**
 * `--if-changed`: builds (with `build`) only when the stamp is not of the sources as they are, and then
 * says so first, since a quiet build takes a while on a slow machine. Returns whether it built.
 */
export function buildIfChanged({ stamp = STAMP, root = ROOT, say = (line) => process.stderr.write(`${line}\n`), run = () => build({ quiet: true }) } = {}) {
  if (isCurrent(stamp, root)) return false;
  say(existsSync(stamp) ? 'building dist/ (the sources changed since the last build)…' : 'building dist/ (first build)…');
  run();
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--if-changed')) buildIfChanged();
  else build({ quiet: false });
}
