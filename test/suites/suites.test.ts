import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSuite, runSuiteFile } from '../../scenarios';
import { testCommand } from '../../lib/cli/test';

const basic = path.join(__dirname, 'basic.suite.yaml');

// The suites as Jest tests, the way users run their own.
runSuite(basic);
// Policies only, no webhook, params among the suite's objects.
runSuite(path.join(__dirname, 'policies.suite.yaml'));

describe('admission-harness test', () => {
  it('reports cases, failures and the trace of a failing case', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const broken = path.join(dir, 'broken.suite.yaml');
      // The stub now denies with 422 where the case expects 403.
      writeFileSync(broken, readFileSync(basic, 'utf8').replace('code: 403', 'code: 422'));
      let text = '';
      const junit = path.join(dir, 'junit.xml');
      const code = await testCommand({ files: [broken], json: true, junit }, (t) => (text += t));
      expect(code).toBe(1);
      const report = JSON.parse(text) as { passed: number; failed: number; cases: { name: string; passed: boolean; failures: string[]; result: { code?: number } }[] };
      expect(report).toMatchObject({ passed: 2, failed: 1 });
      const failing = report.cases.find((c) => !c.passed)!;
      expect(failing.name).toBe('without the peer, the policy denies');
      expect(failing.failures[0]).toBe('code: expected 403, got 422');
      expect(failing.failures.at(-1)).toMatch(/^trace:\nCREATE pods prod\/web/);
      expect(readFileSync(junit, 'utf8')).toContain('<testcase classname="' + broken + '" name="without the peer, the policy denies"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects unknown fields, naming file and path', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-suite-'));
    try {
      const typo = path.join(dir, 'typo.suite.yaml');
      writeFileSync(typo, readFileSync(basic, 'utf8').replace('callCounts:', 'callCount:'));
      await expect(runSuiteFile(typo)).rejects.toThrow(`${typo} cases[1].expect.callCount: unknown field`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
