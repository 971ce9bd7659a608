// coldstart: createHarness() to the first verified response, in fresh processes, against a bare
// https.createServer + https.request round trip (certificates made beforehand) in the same run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { harness } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);

export async function coldstart() {
  const { CertificateAuthority } = harness();
  const ca = await CertificateAuthority.create();
  const serving = await ca.issueServing();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-bench-'));
  const certs = path.join(dir, 'certs.json');
  writeFileSync(certs, JSON.stringify({ ...serving, ca: ca.cert }));
  const child = (...args) => JSON.parse(execFileSync(process.execPath, [path.join(here, 'coldstart-child.mjs'), ...args], { encoding: 'utf8' }));
  const ours = [];
  const baseline = [];
  const imports = [];
  const jestImports = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const h = child('harness');
      ours.push(h.ms);
      imports.push(h.importMs);
      baseline.push(child('baseline', certs).ms);
      jestImports.push(child('import-jest').ms);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    { name: 'coldstart', samples: ours, baseline, goal: 'first response ≤ 25 ms', goalMs: 25 },
    { name: 'import', samples: imports, baseline: undefined, goal: 'require("admission-harness")', goalMs: undefined },
    { name: 'import jest', samples: jestImports, baseline: undefined, goal: 'require("admission-harness/jest")', goalMs: undefined },
  ];
}
