import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import { HarnessError } from '../../lib/errors';
import { formatResult, loadFixtures, replayFixture, replayReportJson, replayFixtures, runFixture, type LoadedFixture } from '../../lib/replay';
import { yaml } from '../../lib/yaml';
import { replay, UPDATE_VARIABLE } from '../../scenarios/replay';
import { app } from '../../examples/pod-defaults/src/app';
import { MANIFESTS, MUTATE, tempDir, VALIDATE, writeFile } from './helpers';

/*
 * Admission fixtures (kind RecordedAdmission): the request through the whole chain of the example's
 * two webhooks (h.admit), each webhook's answer compared with its own recorded one, in chain order.
 */

const MUTATING = `pod-defaults/${MUTATE}`;
const VALIDATING = `pod-policy/${VALIDATE}`;
const temp = tempDir('admission');
const pod = objects.pod({ images: ['nginx:1.27'], namespace: 'shop', name: 'web-1' });

/** An admission fixture of the pod's CREATE, without answers (as `review --out` writes it), in `dir`. */
function newAdmission(dir: string): string {
  const [file] = writeFixtures(dir, [
    {
      source: { from: 'objects', request: 'pods CREATE', seed: 1 },
      request: { ...review.create(pod).attributes, uid: 'admission-1' },
      limits: [],
      admission: true,
    },
  ]);
  return file!;
}

// Written here, at the top level, so that replay() below registers its test for it.
const registered = newAdmission(path.join(temp.dir, 'registered'));

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: app, manifests: [MANIFESTS], namespaces: [{ name: 'shop' }], seed: 41 });
});
afterAll(async () => {
  await h.close();
  temp.remove();
});

/** The fixture file's answers, as `--update` wrote them. */
function answersIn(file: string): { webhook: string; round: number; response: Record<string, unknown> }[] {
  return (yaml().parse(readFileSync(file, 'utf8'), { version: '1.1' }) as { answers: never }).answers;
}

describe('record and replay an admission', () => {
  let file: string;
  let fixture: LoadedFixture;
  beforeAll(async () => {
    file = newAdmission(path.join(temp.dir, 'recorded'));
    [fixture] = loadFixtures([file]) as [LoadedFixture];
    const recorded = await runFixture(h, fixture, { update: true });
    expect(recorded).toMatchObject({ unit: 'admission', verdict: 'updated', updated: true });
    [fixture] = loadFixtures([file]) as [LoadedFixture];
  });

  it('records each call of the chain, reinvocation included, and passes replayed', async () => {
    expect(answersIn(file).map((a) => [a.webhook, a.round, a.response.uid])).toEqual([
      [MUTATING, 0, 'admission-1'],
      [MUTATING, 1, 'admission-1'],
      [VALIDATING, 0, 'admission-1'],
    ]);
    const result = await replayFixture(h, fixture);
    expect(result.verdict).toBe('passed');
    expect(result.webhooks.map((w) => [w.reference, w.mismatches])).toEqual([
      [MUTATING, []],
      [MUTATING, []],
      [VALIDATING, []],
    ]);
    expect(replayReportJson(await replayFixtures(h, [fixture])).fixtures[0]).toMatchObject({ unit: 'admission', verdict: 'passed' });
  });

  it("with the webhook option, compares that webhook's answers alone", async () => {
    const result = await replayFixture(h, fixture, { webhook: VALIDATE });
    expect(result.webhooks.map((w) => w.reference)).toEqual([VALIDATING]);
    expect(result.verdict).toBe('passed');
  });

  it('fails an answer recorded but not given, and one given but not recorded, then records the chain anew', async () => {
    const document = yaml().parse(readFileSync(file, 'utf8'), { version: '1.1' }) as { answers: { webhook: string; round: number }[] };
    // The validating webhook's answer moved to a round it is never called in; the mutating reinvocation dropped.
    document.answers = [document.answers[0]!, { ...document.answers[2]!, round: 1 }, document.answers[2]!].slice(0, 2);
    const edited = writeFile(temp.dir, 'edited.yaml', [document]);
    const [changed] = loadFixtures([edited]);
    const result = await replayFixture(h, changed!);
    expect(result.verdict).toBe('failed');
    expect(result.chain).toEqual([
      `${MUTATING} (round 1): answered, but the recording has no answer from it`,
      `${VALIDATING} (round 0): answered, but the recording has no answer from it`,
      `${VALIDATING} (round 1): the recording has its answer, but it was not called: the chain did not reach it`,
    ]);
    const text = formatResult(result);
    expect(text).toContain(`  ${MUTATING} (round 1): answered, but the recording has no answer from it\n`);
    expect(text).toContain(`the admission as replayed:\n    CREATE pods shop/web-1 · seed 41\n`);

    const update = await runFixture(h, changed!, { update: true });
    expect(update).toMatchObject({ verdict: 'updated', updated: true });
    expect(formatResult(update)).toContain('the answers were rewritten with the new ones in');
    expect(answersIn(edited).map((a) => [a.webhook, a.round])).toEqual([
      [MUTATING, 0],
      [MUTATING, 1],
      [VALIDATING, 0],
    ]);
  });

  it("says why no webhook was called when the namespace does not exist in the harness's cluster", async () => {
    const bare = await createHarness({ target: app, manifests: [MANIFESTS], seed: 41 });
    try {
      const result = await replayFixture(bare, fixture);
      expect(result.verdict).toBe('failed');
      expect(result.chain?.[0]).toBe(
        `${MUTATING} (round 0): the recording has its answer, but it was not called: the request was rejected before it: 404 namespaces "shop" not found`,
      );
    } finally {
      await bare.close();
    }
  });

  it('refuses an answer naming a webhook the manifests do not declare, with the nearest spelling', async () => {
    const document = yaml().parse(readFileSync(file, 'utf8'), { version: '1.1' }) as { answers: { webhook: string }[] };
    document.answers[0]!.webhook = 'pod-defaults.exmaple.com';
    const [misspelt] = loadFixtures([writeFile(temp.dir, 'misspelt.yaml', [document])]);
    const error = await replayFixture(h, misspelt!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toContain(
      `misspelt.yaml: answers[0].webhook: no webhook "pod-defaults.exmaple.com" in the manifests (did you mean "${MUTATE}"?); they declare ${MUTATING}, ${VALIDATING}`,
    );
  });
});

describe('loading admission fixtures', () => {
  it('names each malformed answer by its field and line', () => {
    const document = {
      apiVersion: 'admission-harness/v1alpha1',
      kind: 'RecordedAdmission',
      source: { from: 'objects', request: 'pods CREATE', seed: 1 },
      request: { ...review.create(pod).attributes, uid: 'u-1' },
      answers: [
        { webhok: MUTATING, round: 0, response: { allowed: true } },
        { webhook: VALIDATING, round: 2 },
      ],
      response: { allowed: true },
      limits: [],
    };
    const file = writeFile(temp.dir, 'malformed.yaml', [document]);
    const message = (() => {
      try {
        loadFixtures([file]);
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(
      message
        .split('\n')
        .slice(1, -1)
        .map((l) => l.replace(/^ {2}[^:]+:\d+: /, '')),
    ).toEqual([
      'response: unknown field "response"',
      'answers[0].webhok: unknown field "webhok" (did you mean "webhook"?)',
      'answers[0].webhook: Required value',
      'answers[1].round: Unsupported value: 2: supported values: 0, 1',
      'answers[1].response: Required value',
    ]);
  });
});

// replay() builds its harness from the options, declaring the namespace the recorded admission happened in.
const previous = process.env[UPDATE_VARIABLE];
process.env[UPDATE_VARIABLE] = '1';
try {
  replay(registered, { manifests: [MANIFESTS], target: app, seed: 41 });
} finally {
  if (previous === undefined) delete process.env[UPDATE_VARIABLE];
  else process.env[UPDATE_VARIABLE] = previous;
}

it("recorded the registered admission's answers (the test above ran first)", () => {
  expect(answersIn(registered).map((a) => a.webhook)).toEqual([MUTATING, MUTATING, VALIDATING]);
});

describe('a call fixture naming its webhook', () => {
  it('goes to that webhook alone, and refuses a webhook option naming another', async () => {
    const created = await h.call(VALIDATE, review.create(pod));
    const request = created.review.request!;
    const file = writeFile(temp.dir, 'named.yaml', [
      {
        apiVersion: 'admission-harness/v1alpha1',
        kind: 'RecordedReview',
        source: { from: 'objects', request: 'pods CREATE', seed: 1 },
        webhook: VALIDATE,
        request,
        response: { ...created.response, uid: request.uid },
        limits: [],
      },
    ]);
    const [fixture] = loadFixtures([file]);
    // Both webhooks' rules match a pod CREATE; the fixture's own webhook alone gets it.
    const result = await replayFixture(h, fixture!);
    expect(result).toMatchObject({ unit: 'call', verdict: 'passed' });
    expect(result.webhooks.map((w) => w.reference)).toEqual([VALIDATING]);
    const other = await replayFixture(h, fixture!, { webhook: MUTATE });
    expect(other).toMatchObject({
      verdict: 'failed',
      unmatched: `the fixture records the answer of ${VALIDATING}, not of ${MUTATE}: replay it without the webhook option (--webhook)`,
    });
    expect((await replayFixture(h, fixture!, { webhook: VALIDATING })).verdict).toBe('passed');
  });
});
