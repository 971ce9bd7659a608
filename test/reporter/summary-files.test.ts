// What each harness leaves for the reporter: with ADMISSION_HARNESS_COVERAGE_DIR set, close() writes
// the harness's summary to a file of its own, and the files of several harnesses merge into one report.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHarness, objects, review, stub } from '../../lib';
import { mergeSummaries } from '../../lib/admission-coverage';
import { HarnessError } from '../../lib/errors';
import { COVERAGE_DIR_ENV, readSummaryFiles, writeSummaryFile } from '../../lib/admission-coverage/summary-files';
import { mutating, validating } from '../dispatch/helpers';

const manifests = [
  mutating('m', { name: 'm.example.com', rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] } as never),
  validating('v', {
    name: 'v.example.com',
    rules: [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
  } as never),
];
const makeHarness = () =>
  createHarness({ seed: 5, namespaces: [{ name: 'shop' }], manifests, stubs: { 'm.example.com': stub.allow(), 'v.example.com': stub.allow() } });

let dir: string;
let previous: string | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ah-summary-files-'));
  previous = process.env[COVERAGE_DIR_ENV];
  process.env[COVERAGE_DIR_ENV] = dir;
});
afterEach(() => {
  if (previous === undefined) delete process.env[COVERAGE_DIR_ENV];
  else process.env[COVERAGE_DIR_ENV] = previous;
  rmSync(dir, { recursive: true, force: true });
});

it('writes one file per closed harness, and the files merge into the union of their coverage', async () => {
  const pod = objects.pod({ name: 'web', namespace: 'shop' }, { seed: 5 });
  const first = await makeHarness();
  await first.call('m.example.com', review.create(pod));
  const second = await makeHarness();
  await second.admit(review.create(objects.deployment({ name: 'api', namespace: 'shop' }, { seed: 5 })));
  await second.call('m.example.com', review.update(pod, { ...pod, metadata: { ...pod.metadata, labels: { tier: 'web' } } }));
  const third = await makeHarness();
  await third.call('m.example.com', review.create(pod));
  const inProcess = [first, second, third].map((h) => h.coverage().summary());
  await Promise.all([first.close(), second.close(), third.close()]);

  const names = readdirSync(dir);
  expect(names).toHaveLength(3);
  // Unique per process, thread and write; no temp file left behind.
  for (const name of names) expect(name).toMatch(new RegExp(`^${process.pid}-\\d+-\\d+-[0-9a-f]{8}\\.json$`));
  const read = readSummaryFiles(dir);
  expect(mergeSummaries(read)).toEqual(mergeSummaries(inProcess));
  const merged = mergeSummaries(read);
  // Each harness alone covered less than the three together.
  for (const alone of inProcess) expect(alone.covered).toBeLessThan(merged.covered);
});

it('writes nothing for a harness that recorded no call or admission', async () => {
  const h = await makeHarness();
  await h.close();
  expect(readdirSync(dir)).toEqual([]);
});

it('writes nothing when the variable is unset', async () => {
  delete process.env[COVERAGE_DIR_ENV];
  const h = await makeHarness();
  await h.call('m.example.com', review.create(objects.pod({ name: 'web', namespace: 'shop' }, { seed: 5 })));
  await h.close();
  expect(readdirSync(dir)).toEqual([]);
});

it('throws from close() a HarnessError naming the file it could not write, after closing the harness', async () => {
  const missing = path.join(dir, 'gone');
  process.env[COVERAGE_DIR_ENV] = missing;
  const h = await makeHarness();
  await h.call('m.example.com', review.create(objects.pod({ name: 'web', namespace: 'shop' }, { seed: 5 })));
  const error = await h.close().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HarnessError);
  expect((error as HarnessError).message).toMatch(
    new RegExp(`cannot write the harness's admission coverage to ${missing}/${process.pid}-\\d+-\\d+-[0-9a-f]{8}\\.json`),
  );
  expect((error as HarnessError).message).toContain(COVERAGE_DIR_ENV);
  // Closed all the same: a second close() is a no-op and the harness refuses further use.
  await expect(h.close()).resolves.toBeUndefined();
  await expect(h.call('m.example.com', review.create(objects.pod({ name: 'web', namespace: 'shop' }, { seed: 5 })))).rejects.toMatchObject({
    code: 'HARNESS_CLOSED',
  });
});

describe('readSummaryFiles', () => {
  const summary = { covered: 0, total: 0, percent: 100, webhooks: [] };

  it('reads the files writeSummaryFile wrote, ignoring dot-files (writes in progress)', () => {
    const file = writeSummaryFile(dir, summary);
    writeFileSync(path.join(dir, '.1-0-1-00000000.json.tmp'), '{"partial');
    expect(path.dirname(file)).toBe(dir);
    expect(readSummaryFiles(dir)).toEqual([summary]);
  });

  it('names a file that is not JSON, or not a summary', () => {
    writeFileSync(path.join(dir, 'broken.json'), '{"webhooks": [');
    expect(() => readSummaryFiles(dir)).toThrow(new RegExp(`cannot read the admission coverage summary ${path.join(dir, 'broken.json')}`));
    writeFileSync(path.join(dir, 'broken.json'), '{"webhooks": [{"name": "x"}]}');
    expect(() => readSummaryFiles(dir)).toThrow(`${path.join(dir, 'broken.json')} is not an admission coverage summary`);
  });
});
