// admission-harness/reporter under Vitest's --shard: each shard writes its part of the coverage to a
// file of its own, and `admission-harness merge-coverage` makes them one (as under Jest's).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { formatTable } from '../../lib/admission-coverage';
import { cli } from '../cli/captured';
import { makeProject, run, vitestProject, type Project, type RunResult } from './e2e';
import { expectedCoverage, type Expected } from './expected';

let expected: Expected;
let project: Project;
let shards: RunResult[];
const shardFile = (i: number) => path.join(project.dir, `out/admission.shard-${i}-of-2.json`);

beforeAll(async () => {
  expected = await expectedCoverage();
  project = makeProject('vitest-shard');
  const args = vitestProject(project, { threshold: 100, json: 'out/admission.json' }, 'forks');
  // One after the other, as two CI machines would each run theirs; the deadline only guards against a hung child.
  shards = [await run(project, [...args, '--shard=1/2'], 240_000), await run(project, [...args, '--shard=2/2'], 240_000)];
}, 600_000);

afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

it('runs one test file per shard, each passing and writing its part to a file of its own, with no threshold judged', () => {
  for (const [i, result] of shards.entries()) {
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: expect.stringMatching(/Tests\s+1 passed \(1\)/) });
    expect(result.stdout).toContain(`Admission coverage of shard ${i + 1}/2 written to out/admission.shard-${i + 1}-of-2.json`);
    expect(`${result.stdout}${result.stderr}`).not.toContain('below the threshold');
  }
  expect(existsSync(path.join(project.dir, 'out/admission.json'))).toBe(false);
});

it('merge-coverage makes the shards one, the same as one run of both files', async () => {
  const json = path.join(project.dir, 'out/merged.json');
  const merged = await cli('merge-coverage', shardFile(1), shardFile(2), '--threshold', String(expected.met), '--json', json);
  expect({ code: merged.code, stdout: merged.stdout }).toEqual({ code: 0, stdout: `${formatTable(expected.merged)}\n` });
  expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual(expected.merged);
});
