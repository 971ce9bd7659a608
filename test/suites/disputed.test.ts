// The disputed suite: cases on which the harness is known to disagree with kube-apiserver, kept visible.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runSuite, runSuiteFile } from '../../scenarios';
import { testCommand } from '../../lib/cli/test';

const file = path.join(__dirname, 'disputed.suite.yaml');

// Each case as a Jest test that must fail (it.failing): Jest lists it, and fails it once the harness agrees.
runSuite(file);

describe('known failures', () => {
  it('are run and reported as known failures, with why, and do not fail the run', async () => {
    const report = await runSuiteFile(file);
    expect(report).toMatchObject({ passed: 0, failed: 0, knownFailures: 1 });
    const [disputed] = report.cases;
    expect(disputed).toMatchObject({ verdict: 'known-failure', passed: false, knownFailure: expect.stringContaining('a real kube-apiserver v1.36.2 gave') });
    expect(disputed?.failures[0]).toBe(
      'message: expected "Internal error occurred: failed calling webhook \\"va.example.com\\": failed to call webhook: forbidden at http level", got "Internal error occurred: failed calling webhook \\"va.example.com\\": failed to call webhook: go away"',
    );

    let text = '';
    expect(await testCommand({ files: [file], json: false }, (t) => (text += t))).toBe(0);
    expect(text).toContain(
      '  ~ recorded: HTTP 403 with a JSON Status body, Fail - forbidden at http level, not the Status message — known failure: the harness reports',
    );
    expect(text).toMatch(/^0 passed, 0 failed, 1 known failure$/m);
  });

  it('fail the run once they pass: the mark must go', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ah-known-'));
    try {
      const marked = path.join(dir, 'marked.suite.yaml');
      const basic = readFileSync(path.join(__dirname, 'basic.suite.yaml'), 'utf8');
      writeFileSync(marked, basic.replace(/^ {2}- name: (.*)$/m, '  - name: $1\n    knownFailure: thought broken'));
      const report = await runSuiteFile(marked);
      expect(report).toMatchObject({ failed: 1, knownFailures: 0 });
      expect(report.cases[0]).toMatchObject({ verdict: 'failed', failures: ['passed, though marked knownFailure (thought broken): remove the mark'] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
