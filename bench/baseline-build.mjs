// The build the "no slower than before" rows compare with: dist/ of an earlier commit, built once into
// the system's temp directory and kept there (a build takes minutes on a loaded machine).
// BENCH_BASELINE_REF names the commit (by default the tree issue 26 set its goals against);
// BENCH_BASELINE_DIST points at a dist/ built already. Progress goes to stderr, never to stdout.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The tree when issue 26 ("the speed a user feels") stated "no slower than today". */
export const DEFAULT_BASELINE_REF = 'a54e92900ac36ed326b844b7237e59accfd94223';

/** `{ dist, label }` of the baseline build, or `{ error }` saying why there is none (no git, a failed build). */
export function baselineBuild() {
  if (process.env.BENCH_BASELINE_DIST) return { dist: path.resolve(process.env.BENCH_BASELINE_DIST), label: process.env.BENCH_BASELINE_DIST };
  const ref = process.env.BENCH_BASELINE_REF ?? DEFAULT_BASELINE_REF;
  try {
    const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const dir = path.join(os.tmpdir(), `admission-harness-bench-baseline-${commit}`);
    const dist = path.join(dir, 'dist');
    const label = `build of ${commit.slice(0, 7)}`;
    if (existsSync(path.join(dist, '.build-hash'))) return { dist, label };
    process.stderr.write(`bench: building the baseline (${commit.slice(0, 7)}) into ${dir}, once…\n`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const archive = spawnSync('git', ['archive', '--format=tar', commit], { cwd: root, maxBuffer: 1 << 30 });
    if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr}`);
    const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
    if (untar.status !== 0) throw new Error(`tar failed: ${untar.stderr}`);
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
    const built = spawnSync(process.execPath, ['lib/build.mjs'], { cwd: dir, stdio: ['ignore', 2, 2] });
    if (built.status !== 0 || !existsSync(path.join(dist, '.build-hash'))) throw new Error('its build failed');
    return { dist, label };
  } catch (error) {
    return { error: `no baseline build (${ref}): ${error.message.split('\n')[0]}` };
  }
}
