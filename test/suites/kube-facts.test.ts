import path from 'node:path';
import { runSuite } from '../../scenarios';
import { testCommand } from '../../lib/cli/test';

// A suite written by hand from /work/shared/KUBE-FACTS.md; every case names the section it checks.
const file = path.join(__dirname, 'kube-facts.suite.yaml');

// Every case as a Jest test.
runSuite(file);

interface JsonReport {
  passed: number;
  failed: number;
  cases: { name: string; passed: boolean; failures: string[]; result: { allowed: boolean; auditAnnotations: Record<string, string> } }[];
}

describe('kube-facts.suite.yaml through the CLI (admission-harness test --json)', () => {
  let report: JsonReport;
  let exitCode: number;

  beforeAll(async () => {
    let text = '';
    exitCode = await testCommand({ files: [file], json: true }, (t) => (text += t));
    report = JSON.parse(text) as JsonReport;
  }, 30_000);

  it('passes every case, at least 45 of them', () => {
    const failing = report.cases.filter((c) => !c.passed).map((c) => `${c.name}:\n  ${c.failures.join('\n  ')}`);
    expect(failing).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.cases.length).toBeGreaterThanOrEqual(45);
    expect(report.passed).toBe(report.cases.length);
    expect(exitCode).toBe(0);
  });

  it('names a KUBE-FACTS section in every case, covering §1 to §13', () => {
    const sections = new Set(report.cases.flatMap((c) => [...c.name.matchAll(/§(\d+)/g)].map((m) => Number(m[1]))));
    for (const c of report.cases) expect(c.name).toMatch(/^§\d+/);
    expect([...sections].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  // Absences a suite's subset expectations cannot state.
  const annotationsOf = (prefix: string): Record<string, string> => {
    const found = report.cases.find((c) => c.name.startsWith(prefix));
    if (!found) throw new Error(`no case named ${prefix}…`);
    return found.result.auditAnnotations;
  };

  it('§5.2 records nothing for an invalid auditAnnotations key', () => {
    const keys = Object.keys(annotationsOf('§5.2 auditAnnotations are stored as <webhook>/<key>'));
    expect(keys.filter((k) => k.includes('invalid'))).toEqual([]);
  });

  it('§5.3 annotates neither the webhook skipped at index 0 nor the one that did not patch', () => {
    const annotations = annotationsOf('§5.3 mutation and patch annotations');
    expect(Object.keys(annotations).filter((k) => k.endsWith('round_0_index_0'))).toEqual([]);
    expect(annotations['patch.webhook.admission.k8s.io/round_0_index_2']).toBeUndefined();
  });

  it('§5.3 §12 an empty patch [] gets no patch annotation', () => {
    expect(Object.keys(annotationsOf('§12 §3.3 an empty patch')).filter((k) => k.startsWith('patch.'))).toEqual([]);
  });

  it('§4.1 a denial leaves no failed-open annotation, even with failurePolicy Ignore', () => {
    expect(Object.keys(annotationsOf('§4.1 §4.3 a denial is never subject')).filter((k) => k.startsWith('failed-open.'))).toEqual([]);
  });
});
