// admission-harness/reporter under Jest's own --shard: each shard (a CI machine of its own) writes its
// part of the coverage to a file of its own, and `admission-harness merge-coverage` makes them one.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { formatTable } from '../../lib/admission-coverage';
import { thresholdFailure } from '../../lib/reporter/outcome';
import { cli } from '../cli/captured';
import { jestProject, makeProject, run, type Project, type RunResult } from './e2e';
import { expectedCoverage, type Expected } from './expected';

let expected: Expected;
let project: Project;
let shards: RunResult[];
const shardFile = (i: number) => path.join(project.dir, `out/admission.shard-${i}-of-2.json`);

beforeAll(async () => {
  expected = await expectedCoverage();
  project = makeProject('jest-shard');
  // A threshold no single shard reaches: a shard leaves it to the merge.
  const args = jestProject(project, { threshold: 100, json: 'out/admission.json', html: 'out/admission.html' });
  // One after the other, as two CI machines would each run theirs; the deadline only guards against a hung child.
  shards = [await run(project, [...args, '--shard=1/2'], 240_000), await run(project, [...args, '--shard=2/2'], 240_000)];
}, 600_000);

afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

it('runs one test file per shard, each passing without judging a threshold its part cannot reach', () => {
  for (const result of shards) {
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(/Tests:\s+1 passed, 1 total/) });
    expect(result.stderr).not.toContain('below the threshold');
  }
});

it('writes each shard’s summary to a file of its own, says where and how to merge, and writes no HTML of a part', () => {
  for (const [i, result] of shards.entries()) {
    expect(result.stderr).toContain(
      `Admission coverage of shard ${i + 1}/2 written to out/admission.shard-${i + 1}-of-2.json; once every shard has run: admission-harness merge-coverage out/admission.shard-*-of-2.json --threshold 100 --html out/admission.html`,
    );
  }
  const parts = [1, 2].map((i) => JSON.parse(readFileSync(shardFile(i), 'utf8')) as Expected['merged']);
  // Each shard ran one file, which reaches one webhook only.
  expect(parts.map((part) => part.webhooks.filter((w) => w.covered === 0).length)).toEqual([1, 1]);
  expect(new Set(parts.map((part) => JSON.stringify(part)))).toEqual(new Set([JSON.stringify(expected.perFile.a), JSON.stringify(expected.perFile.b)]));
  expect(existsSync(path.join(project.dir, 'out/admission.html'))).toBe(false);
  expect(existsSync(path.join(project.dir, 'out/admission.json'))).toBe(false);
});

it('merge-coverage makes the shards one: the table, the JSON and the threshold of the whole run', async () => {
  const json = path.join(project.dir, 'out/merged.json');
  const met = await cli('merge-coverage', shardFile(1), shardFile(2), '--threshold', String(expected.met), '--json', json);
  expect({ code: met.code, stderr: met.stderr }).toEqual({ code: 0, stderr: '' });
  expect(met.stdout).toBe(`${formatTable(expected.merged)}\n`);
  expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual(expected.merged);

  const notMet = await cli('merge-coverage', path.join(project.dir, 'out'), '--threshold', '100');
  expect(notMet.code).toBe(1);
  expect(notMet.stdout).toContain(thresholdFailure(expected.merged, 100));
});

it('merge-coverage refuses a file that is no summary, and no file at all (exit 2)', async () => {
  const none = await cli('merge-coverage');
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('admission-harness: merge-coverage: no summary file given');
  const missing = await cli('merge-coverage', path.join(project.dir, 'nowhere.json'));
  expect(missing.code).toBe(2);
  expect(missing.stderr).toContain(`merge-coverage: cannot read ${path.join(project.dir, 'nowhere.json')}`);
  const notSummary = await cli('merge-coverage', path.join(project.dir, 'jest.config.json'));
  expect(notSummary.code).toBe(2);
  expect(notSummary.stderr).toContain(`${path.join(project.dir, 'jest.config.json')} is not an admission coverage summary`);
});
