// admission-harness/reporter in a real Jest run: two test files in two workers, one report.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { formatTable } from '../../lib/admission-coverage';
import { thresholdFailure } from '../../lib/reporter/outcome';
import { jestProject, makeProject, markers, run, type Project, type RunResult } from './e2e';
import { expectedCoverage, type Expected } from './expected';

let expected: Expected;
const projects: Project[] = [];
let met: { project: Project; result: RunResult };
let notMet: { project: Project; result: RunResult };

beforeAll(async () => {
  expected = await expectedCoverage();
  const start = async (prefix: string, options: Record<string, unknown>) => {
    const project = makeProject(prefix);
    projects.push(project);
    return { project, result: await run(project, jestProject(project, options)) };
  };
  [met, notMet] = await Promise.all([
    start('jest-met', { threshold: expected.met, json: 'out/coverage/admission.json', html: 'out/coverage/admission.html' }),
    start('jest-not-met', { threshold: 100 }),
  ]);
});

afterAll(() => {
  for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
});

it('needs both files for the coverage it reports: each covers one webhook only', () => {
  for (const file of [expected.perFile.a, expected.perFile.b]) expect(file.webhooks.filter((w) => w.covered === 0)).toHaveLength(1);
  expect(expected.merged.webhooks.every((w) => w.covered > 0)).toBe(true);
});

it('prints the table of both files merged and exits 0 when the threshold is met', () => {
  expect({ code: met.result.code, stderr: met.result.stderr }).toEqual({ code: 0, stderr: expect.stringContaining(formatTable(expected.merged)) });
  expect(met.result.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
});

it('collects from Jest workers, which inherited the directory from the main process', () => {
  const ran = markers(met.project);
  expect(ran.a.pid).not.toBe(met.result.pid);
  expect(ran.b.pid).not.toBe(met.result.pid);
});

it('writes the merged summary as JSON, creating the folders', () => {
  const written: unknown = JSON.parse(readFileSync(path.join(met.project.dir, 'out/coverage/admission.json'), 'utf8'));
  expect(written).toEqual(expected.merged);
});

it('writes the HTML report of the merged summary', () => {
  const page = readFileSync(path.join(met.project.dir, 'out/coverage/admission.html'), 'utf8');
  expect(page).toMatch(/^<!doctype html>/i);
  for (const webhook of expected.merged.webhooks) expect(page).toContain(webhook.name);
});

it('fails the run, naming each webhook below the threshold, when it is not met', () => {
  const message = thresholdFailure(expected.merged, 100)!;
  expect(message).toContain('mutating pod-defaults/pod-defaults.example.com');
  expect(message).toContain('validating pod-policy/image-policy.example.com');
  expect({ code: notMet.result.code, stderr: notMet.result.stderr }).toEqual({ code: 1, stderr: expect.stringContaining(message) });
  // The tests themselves passed: the reporter alone failed the run.
  expect(notMet.result.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
});
