// `check --coverage-threshold`: the battery's admission coverage gates CI like code coverage does.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cli } from './captured';

const root = path.join(__dirname, '../..');
const example = path.join(root, 'examples/pod-defaults/deploy/webhooks.yaml');
const app = path.join(root, 'examples/pod-defaults/src/app.ts');
const few = ['--only', 'uid-echo', '--seed', '5'];
// The example's webhooks, the validating one with a matchCondition: the battery sends requests with
// h.call, which never decides matchConditions, so that webhook's coverage stays under 100 %.
const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-check-coverage-'));
const manifest = path.join(dir, 'webhooks.yaml');
writeFileSync(
  manifest,
  `${readFileSync(example, 'utf8').trimEnd()}\n    matchConditions:\n      - name: not-kube-system\n        expression: "request.namespace != 'kube-system'"\n`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('passes at or under the coverage reached and fails above it, naming each webhook under the threshold (exit 1)', async () => {
  const json = await cli('check', '--manifests', manifest, '--module', app, ...few, '--json', '--coverage-threshold', '0');
  expect(json.code).toBe(0);
  const { coverage, failed } = JSON.parse(json.stdout) as {
    failed: number;
    coverage: { percent: number; threshold: number; thresholdMet: boolean; webhooks: { type: string; configuration: string; name: string; percent: number }[] };
  };
  expect(failed).toBe(0);
  expect(coverage).toMatchObject({ threshold: 0, thresholdMet: true });
  const lowest = Math.min(...coverage.webhooks.map((w) => w.percent));
  expect(lowest).toBeLessThan(100);

  // The percentage is rounded to two decimals (5/7 prints 71.43): the threshold under it is met.
  const at = await cli('check', '--manifests', manifest, '--module', app, ...few, '--coverage-threshold', String(Math.floor(lowest)));
  expect(at.code).toBe(0);
  expect(at.stdout).not.toContain('below the threshold');

  const above = await cli('check', '--manifests', manifest, '--module', app, ...few, '--coverage-threshold', '100');
  expect(above.code).toBe(1);
  const under = coverage.webhooks.filter((w) => w.percent < 100).map((w) => `  ${w.type} ${w.configuration}/${w.name}: ${w.percent}%`);
  expect(above.stdout).toContain('\nadmission coverage below the threshold of 100%:\n');
  for (const line of under) expect(above.stdout).toContain(line);
});

it('refuses a threshold that is not a percentage before running anything (exit 2)', async () => {
  const result = await cli('check', '--manifests', manifest, '--module', app, '--coverage-threshold', '120');
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('admission-harness: --coverage-threshold takes a percentage from 0 to 100, got "120"\n  hint: e.g. --coverage-threshold 80');
});
