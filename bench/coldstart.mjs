// coldstart: require('admission-harness') and createHarness() to the first verified response, in fresh
// processes, against the same measures of the baseline build (bench/baseline-build.mjs, an earlier
// commit's dist) and against a bare https.createServer + https.request round trip (certificates made
// beforehand), in the same run; the three alternate, so both builds meet the same machine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineBuild } from './baseline-build.mjs';
import { harness } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** "No slower": within the spread of paired fresh processes on a shared machine. */
const NO_SLOWER = 1.05;

export async function coldstart() {
  const { CertificateAuthority } = harness();
  const ca = await CertificateAuthority.create();
  const serving = await ca.issueServing();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-'));
  const certs = path.join(dir, 'certs.json');
  writeFileSync(certs, JSON.stringify({ ...serving, ca: ca.cert }));
  const previous = baselineBuild();
  if (previous.error) process.stderr.write(`bench: ${previous.error}\n`);
  const child = (...args) => JSON.parse(execFileSync(process.execPath, [path.join(here, 'coldstart-child.mjs'), ...args], { encoding: 'utf8' }));
  const ours = [];
  const imports = [];
  const bare = [];
  const before = [];
  const importsBefore = [];
  const jestImports = [];
  const measureOurs = () => {
    const h = child('harness', path.join(here, '..', 'dist'));
    ours.push(h.ms);
    imports.push(h.importMs);
  };
  const measureBefore = () => {
    if (!previous.dist) return;
    const h = child('harness', previous.dist);
    before.push(h.ms);
    importsBefore.push(h.importMs);
  };
  try {
    for (let i = 0; i < RUNS; i++) {
      // The order flips every run: neither build always goes first after the bare round trip.
      if (i % 2) {
        measureOurs();
        measureBefore();
      } else {
        measureBefore();
        measureOurs();
      }
      bare.push(child('baseline', certs).ms);
      jestImports.push(child('import-jest').ms);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const versus = previous.dist ? `≤ ${NO_SLOWER}× the ${previous.label}: no slower than before` : `no slower than before (${previous.error})`;
  const goalRatio = previous.dist ? NO_SLOWER : undefined;
  // Runs are paired too: each run's own ratio, so the machine's drift between runs cancels.
  const pairs = (a, b) => (b.length === a.length ? a.map((x, i) => x / b[i]) : undefined);
  return [
    { name: 'coldstart', samples: ours, baseline: before.length ? before : undefined, ratios: pairs(ours, before), goal: versus, goalRatio },
    {
      name: 'import',
      samples: imports,
      baseline: importsBefore.length ? importsBefore : undefined,
      ratios: pairs(imports, importsBefore),
      goal: `require("admission-harness"), ${versus}`,
      goalRatio,
    },
    { name: 'coldstart/bare', samples: ours, baseline: bare, goal: 'first response ≤ 25 ms (baseline: bare https round trip)', goalMs: 25 },
    { name: 'import jest', samples: jestImports, baseline: undefined, goal: 'require("admission-harness/jest")', goalMs: undefined },
  ];
}
