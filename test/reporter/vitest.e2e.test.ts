// admission-harness/reporter in a real Vitest run: two test files in child processes (the forks pool,
// Vitest's default) or in worker threads of the main process, one report.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { formatTable } from '../../lib/admission-coverage';
import { thresholdFailure } from '../../lib/reporter/outcome';
import { makeProject, markers, run, vitestProject, type Project, type RunResult } from './e2e';
import { expectedCoverage, type Expected } from './expected';

let expected: Expected;
const projects: Project[] = [];
type Run = { project: Project; result: RunResult };
let forksMet: Run;
let forksNotMet: Run;
let threads: Run;

async function start(prefix: string, options: Record<string, unknown>, pool: 'forks' | 'threads'): Promise<Run> {
  const project = makeProject(prefix);
  projects.push(project);
  return { project, result: await run(project, vitestProject(project, options, pool)) };
}

beforeAll(async () => {
  expected = await expectedCoverage();
  [forksMet, forksNotMet] = await Promise.all([
    start('vitest-met', { threshold: expected.met, of: 'each', json: 'out/coverage/admission.json' }, 'forks'),
    start('vitest-not-met', { threshold: 100 }, 'forks'),
  ]);
  threads = await start('vitest-threads', { json: 'admission.json' }, 'threads');
});

afterAll(() => {
  for (const project of projects) rmSync(project.dir, { recursive: true, force: true });
});

describe('the forks pool', () => {
  it('prints the table of both files merged and exits 0 when the threshold is met', () => {
    expect({ code: forksMet.result.code, stdout: forksMet.result.stdout }).toEqual({ code: 0, stdout: expect.stringContaining(formatTable(expected.merged)) });
    expect(forksMet.result.stdout).toMatch(/Tests\s+2 passed \(2\)/);
  });

  it('collects from child processes, which inherited the directory from the main process', () => {
    const ran = markers(forksMet.project);
    expect(ran.a.pid).not.toBe(forksMet.result.pid);
    expect(ran.b.pid).not.toBe(forksMet.result.pid);
  });

  it('writes the merged summary as JSON, creating the folders', () => {
    expect(JSON.parse(readFileSync(path.join(forksMet.project.dir, 'out/coverage/admission.json'), 'utf8'))).toEqual(expected.merged);
  });

  it('fails the run, naming each webhook below the threshold, when it is not met', () => {
    const message = thresholdFailure(expected.merged, 100)!;
    expect({ code: forksNotMet.result.code, stderr: forksNotMet.result.stderr }).toEqual({ code: 1, stderr: expect.stringContaining(message) });
    expect(forksNotMet.result.stdout).toMatch(/Tests\s+2 passed \(2\)/);
  });
});

describe('the threads pool', () => {
  it('collects from worker threads of the main process, and reports the same coverage', () => {
    const ran = markers(threads.project);
    expect([ran.a.pid, ran.b.pid]).toEqual([threads.result.pid, threads.result.pid]);
    expect(ran.a.threadId).not.toBe(0);
    expect(ran.b.threadId).not.toBe(0);
    expect({ code: threads.result.code, stdout: threads.result.stdout }).toEqual({ code: 0, stdout: expect.stringContaining(formatTable(expected.merged)) });
    expect(JSON.parse(readFileSync(path.join(threads.project.dir, 'admission.json'), 'utf8'))).toEqual(expected.merged);
  });
});
