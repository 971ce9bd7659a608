import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runSuite } from '../../scenarios';
import { testCommand } from '../../lib/cli/test';

// A suite written by hand from kube-apiserver's sources and recordings; every section names the upstream files it checks.
const file = path.join(__dirname, 'kube-apiserver.suite.yaml');

// Every case as a Jest test.
runSuite(file);

interface JsonReport {
  passed: number;
  failed: number;
  cases: { name: string; passed: boolean; failures: string[]; result: { allowed: boolean; auditAnnotations: Record<string, string> } }[];
}

describe('kube-apiserver.suite.yaml through the CLI (admission-harness test --json)', () => {
  let report: JsonReport;
  let exitCode: number;

  beforeAll(async () => {
    let text = '';
    exitCode = await testCommand({ files: [file], json: true }, (t) => (text += t));
    report = JSON.parse(text) as JsonReport;
  });

  it('passes every case, at least 45 of them', () => {
    const failing = report.cases.filter((c) => !c.passed).map((c) => `${c.name}:\n  ${c.failures.join('\n  ')}`);
    expect(failing).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.cases.length).toBeGreaterThanOrEqual(45);
    expect(report.passed).toBe(report.cases.length);
    expect(exitCode).toBe(0);
  });

  it('puts every case under a section that names the upstream source or recording it comes from', () => {
    const text = readFileSync(file, 'utf8');
    const sections = [...text.matchAll(/^ {2}# =+ (.*)$/gm)].map((m) => m[1]!);
    expect(sections.length).toBeGreaterThanOrEqual(10);
    for (const section of sections) expect(section).toMatch(/\.go\b|\(webhook\/|recorded|observed on a real kube-apiserver/);
    // The first case comes after the first section heading.
    expect(text.indexOf('  # ====')).toBeLessThan(text.indexOf("\n  - name: '", text.indexOf('\ncases:')));
  });

  // Absences a suite's subset expectations cannot state.
  const annotationsOf = (prefix: string): Record<string, string> => {
    const found = report.cases.find((c) => c.name.startsWith(prefix));
    if (!found) throw new Error(`no case named ${prefix}…`);
    return found.result.auditAnnotations;
  };

  it('records nothing for an invalid auditAnnotations key', () => {
    const keys = Object.keys(annotationsOf('auditAnnotations are stored as <webhook>/<key>'));
    expect(keys.filter((k) => k.includes('invalid'))).toEqual([]);
  });

  it('annotates neither the webhook skipped at index 0 nor the one that did not patch', () => {
    const annotations = annotationsOf('mutation and patch annotations');
    expect(Object.keys(annotations).filter((k) => k.endsWith('round_0_index_0'))).toEqual([]);
    expect(annotations['patch.webhook.admission.k8s.io/round_0_index_2']).toBeUndefined();
  });

  it('an empty patch [] gets no patch annotation', () => {
    expect(Object.keys(annotationsOf('an empty patch')).filter((k) => k.startsWith('patch.'))).toEqual([]);
  });

  it('a denial leaves no failed-open annotation, even with failurePolicy Ignore', () => {
    expect(Object.keys(annotationsOf('a denial is never subject')).filter((k) => k.startsWith('failed-open.'))).toEqual([]);
  });
});
