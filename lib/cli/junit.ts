import { writeFileSync } from 'node:fs';

export interface JUnitCase {
  suite: string;
  name: string;
  durationMs: number;
  /** Failure lines; empty for a pass. */
  failures: string[];
  /** Why the case did not count (a known failure, or a scenario not run). */
  skipped?: string;
}

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);

/** Writes a JUnit XML report (one testsuite per suite name), the format CI systems ingest. */
export function writeJUnit(file: string, cases: readonly JUnitCase[]): void {
  const suites = new Map<string, JUnitCase[]>();
  for (const c of cases) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${cases.length}" failures="${cases.filter((c) => c.failures.length > 0).length}">`,
  ];
  for (const [suite, members] of suites) {
    const seconds = members.reduce((t, c) => t + c.durationMs, 0) / 1000;
    lines.push(
      `  <testsuite name="${escape(suite)}" tests="${members.length}" failures="${members.filter((c) => c.failures.length > 0).length}" skipped="${members.filter((c) => c.skipped !== undefined).length}" time="${seconds.toFixed(3)}">`,
    );
    for (const c of members) {
      const open = `    <testcase classname="${escape(suite)}" name="${escape(c.name)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
      if (c.skipped !== undefined) lines.push(`${open}>`, `      <skipped message="${escape(c.skipped)}"/>`, '    </testcase>');
      else if (c.failures.length === 0) lines.push(`${open}/>`);
      else lines.push(`${open}>`, `      <failure message="${escape(c.failures[0] ?? '')}">${escape(c.failures.join('\n'))}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  writeFileSync(file, `${lines.join('\n')}\n`);
}
