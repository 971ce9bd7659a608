// battery: the conformance battery against the example webhook, end to end in a fresh process
// (`check` as CI runs it), against starting Node with nothing to do.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

export async function battery() {
  const ours = [];
  const base = [];
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    base.push(performance.now() - started);
    started = performance.now();
    execFileSync(
      process.execPath,
      [
        path.join(root, 'dist/cli.cjs'),
        'check',
        '--manifests',
        'examples/pod-defaults/deploy/webhooks.yaml',
        '--module',
        'examples/pod-defaults/src/app.ts',
        '--seed',
        '1',
        '--json',
      ],
      { cwd: root, stdio: 'pipe' },
    );
    ours.push(performance.now() - started);
  }
  return [{ name: 'battery', unit: 'ms', samples: ours, baseline: base, goal: '≤ 1.5 s', goalMs: 1500 }];
}
