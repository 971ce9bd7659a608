import { readFileSync } from 'node:fs';
import { createHarness, objects, review, type Harness } from '../../lib';
import { writeFixtures } from '../../lib/audit';
import type { JsonPatchOperation } from '../../lib/kube/admission';
import {
  formatReport,
  formatResult,
  loadFixtures,
  recordedResponse,
  replayFixture,
  replayFixtures,
  replayReportJson,
  runFixture,
  type LoadedFixture,
} from '../../lib/replay';
import { yaml } from '../../lib/yaml';
import { app } from '../../examples/pod-defaults/src/app';
import { auditSource, changedWebhook, halveFirstCpuLimit, MANIFESTS, MUTATE, patchBytes, recorded, tempDir, VALIDATE, writeFile } from './helpers';

/*
 * Record and replay against the repository's example webhook (examples/pod-defaults): answers recorded
 * from h.call outcomes replay as passing; a webhook that changed one patch value fails with the object
 * diff; a recording whose patch is written differently but does the same passes.
 */

let h: Harness;
let changed: Harness;
const temp = tempDir('round-trip');

beforeAll(async () => {
  [h, changed] = await Promise.all([
    createHarness({ target: app, manifests: [MANIFESTS], seed: 11 }),
    createHarness({ target: changedWebhook(halveFirstCpuLimit), manifests: [MANIFESTS], seed: 11 }),
  ]);
});
afterAll(async () => {
  await Promise.all([h.close(), changed.close()]);
  temp.remove();
});

const pinnedPod = () => objects.pod({ images: ['nginx:1.27'], namespace: 'shop', name: 'web-1' });

/** Fixtures of the mutating webhook's answers, and of the validating one's (a denial with warnings, an allowed update with warnings). */
async function recordExamples(dir: string): Promise<{ mutating: LoadedFixture[]; validating: LoadedFixture[] }> {
  const created = await h.call(MUTATE, review.create(pinnedPod()));
  const withSidecar = await h.call(MUTATE, review.create(objects.pod({ images: ['nginx:1.27', 'redis:7.4'], namespace: 'shop', name: 'web-2' })));
  const denied = await h.call(VALIDATE, review.create(objects.pod({ images: ['nginx:latest'], namespace: 'shop', name: 'web-3' })));
  const updated = await h.call(VALIDATE, review.update(pinnedPod(), pinnedPod()));
  expect(created).toHavePatch();
  expect(denied).toBeDenied({ code: 403 });
  expect(updated.warnings).toEqual(['container "nginx" has no resource limits']);
  writeFixtures(`${dir}/mutating`, [recorded(created, 1), recorded(withSidecar, 2)]);
  writeFixtures(`${dir}/validating`, [recorded(denied, 3), recorded(updated, 4)]);
  return { mutating: loadFixtures([`${dir}/mutating`]), validating: loadFixtures([`${dir}/validating`]) };
}

describe('record, then replay', () => {
  let mutating: LoadedFixture[];
  let validating: LoadedFixture[];
  beforeAll(async () => {
    ({ mutating, validating } = await recordExamples(`${temp.dir}/examples`));
  });

  it('replays answers recorded from h.call outcomes: every fixture passes', async () => {
    expect(mutating.map((f) => f.name)).toEqual(['pods-create-1.yaml', 'pods-create-2.yaml']);
    const report = await replayFixtures(h, mutating, { webhook: MUTATE });
    expect(report.results.map((r) => r.verdict)).toEqual(['passed', 'passed']);
    // The battery's follow-up checks ran on each answer, and passed: the example is idempotent and valid.
    expect(report.results[0]!.webhooks[0]!.followUps).toEqual([
      { id: 'object-valid', pass: true },
      { id: 'idempotent-reinvocation', pass: true },
    ]);
    const denial = await replayFixtures(h, validating, { webhook: VALIDATE });
    expect(denial.results.map((r) => r.verdict)).toEqual(['passed', 'passed']);
    expect(formatReport(denial)).toBe('2 fixtures: 2 passed, 0 failed, 0 new, 0 updated · seed 11');
  });

  it('sends each request with a fresh uid, as the API would', async () => {
    const result = await replayFixture(h, mutating[0]!, { webhook: MUTATE });
    const sent = result.webhooks[0]!.outcome.review.request!;
    expect(sent.uid).not.toBe(mutating[0]!.recorded.request.uid);
    expect({ ...sent, uid: '' }).toEqual({ ...mutating[0]!.recorded.request, uid: '' });
  });

  it('sends a request to the webhook its rules match, or to each when several match', async () => {
    // A pod UPDATE matches only the validating webhook's rules (the mutating one takes CREATE).
    const update = await replayFixture(h, validating[1]!);
    expect(update.webhooks.map((w) => w.reference)).toEqual([`pod-policy/${VALIDATE}`]);
    expect(update.verdict).toBe('passed');
    // A pod CREATE matches both: the mutating webhook's recording is compared with each answer.
    const create = await replayFixture(h, mutating[0]!);
    expect(create.webhooks.map((w) => w.webhook).sort()).toEqual([MUTATE, VALIDATE].sort());
    expect(create.webhooks.find((w) => w.webhook === MUTATE)!.mismatches).toEqual([]);
    expect(create.webhooks.find((w) => w.webhook === VALIDATE)!.mismatches.map((m) => m.field)).toEqual(['warnings', 'patch']);
    expect(create.verdict).toBe('failed');
    expect(create.disagreement).toMatch(/^2 webhooks match the request and answer it differently .*name the webhook it is for/);
  });

  it('fails against a changed webhook, with the object diff naming the changed path', async () => {
    const result = await replayFixture(changed, mutating[0]!, { webhook: MUTATE });
    expect(result.verdict).toBe('failed');
    const [mismatch] = result.webhooks[0]!.mismatches;
    expect(mismatch).toMatchObject({
      field: 'patch',
      changes: [{ kind: 'changed', path: '/spec/containers/0/resources/limits/cpu', before: '500m', after: '250m' }],
    });
    const text = formatResult(result);
    expect(text).toContain('pods-create-1.yaml · CREATE pods shop/web-1: failed');
    expect(text).toContain('patch: the object after the replayed patch differs from the object after the recorded one (recorded → replayed):');
    expect(text).toContain('changed /spec/containers/0/resources/limits/cpu: "500m" → "250m"');
    // The call as sent and answered, with the seed to replay it.
    expect(text).toContain('seed 11 (replay: ADMISSION_HARNESS_SEED=11)');
    expect(text).not.toContain('follow-up');
  });

  it('reports the changed webhook in JSON, the diff included', async () => {
    const report = replayReportJson(await replayFixtures(changed, mutating, { webhook: MUTATE }));
    expect(report).toMatchObject({ seed: 11, passed: 0, failed: 2, new: 0, updated: 0 });
    expect(report.fixtures[1]!.webhooks[0]!.mismatches[0]!.changes).toEqual([
      { kind: 'changed', path: '/spec/containers/0/resources/limits/cpu', before: '500m', after: '250m' },
    ]);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });
});

describe('the patch, compared by its effect', () => {
  const pod = pinnedPod();
  const sidecar = {
    name: 'log-shipper',
    image: 'fluent/fluent-bit:3.1',
    resources: { limits: { cpu: '100m', memory: '64Mi' }, requests: { cpu: '10m', memory: '32Mi' } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };

  /** A fixture of `pod`'s create, recording an allowed answer with `ops`. */
  function fixtureWith(name: string, ops: JsonPatchOperation[]): LoadedFixture[] {
    const file = writeFile(temp.dir, name, [
      {
        apiVersion: 'admission-harness/v1alpha1',
        kind: 'RecordedReview',
        source: auditSource(1),
        request: {
          ...review.create(pod).attributes,
          uid: 'recorded-uid',
          kind: { group: '', version: 'v1', kind: 'Pod' },
          resource: { group: '', version: 'v1', resource: 'pods' },
        },
        response: { uid: 'recorded-uid', allowed: true, patchType: 'JSONPatch', patch: patchBytes(ops) },
        limits: [],
      },
    ]);
    return loadFixtures([file]);
  }

  it('passes a patch that differs in bytes but not in effect', async () => {
    const [fixture] = fixtureWith('same-effect.yaml', [
      // Other order, an index for `-`, the pod's security context replaced whole, quantities spelled
      // otherwise, the API's own defaults set explicitly, and a field Pods do not have (dropped on decode).
      { op: 'add', path: '/spec/containers/1', value: { ...sidecar, imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' } },
      { op: 'replace', path: '/spec/securityContext', value: { runAsNonRoot: true } },
      { op: 'add', path: '/spec/containers/0/resources', value: { requests: { memory: '128Mi', cpu: '0.1' }, limits: { cpu: '0.5', memory: '256Mi' } } },
      { op: 'add', path: '/spec/containers/0/bogusField', value: 'dropped' },
    ]);
    const result = await replayFixture(h, fixture!, { webhook: MUTATE });
    expect(fixture!.recordedPatch).not.toEqual(result.webhooks[0]!.outcome.patch);
    expect(result.webhooks[0]!.mismatches).toEqual([]);
    expect(result.verdict).toBe('passed');
  });

  it('fails a patch with another effect, even one the API would accept', async () => {
    const [fixture] = fixtureWith('other-effect.yaml', [
      { op: 'add', path: '/spec/securityContext/runAsNonRoot', value: true },
      { op: 'add', path: '/spec/containers/0/resources', value: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } } },
    ]);
    const result = await replayFixture(h, fixture!, { webhook: MUTATE });
    expect(result.webhooks[0]!.mismatches[0]!.changes).toEqual([
      expect.objectContaining({ kind: 'added', path: '/spec/containers/1', array: '/spec/containers' }),
    ]);
    expect(formatResult(result)).toContain('added /spec/containers/1 (log-shipper): ');
  });

  it('compares a recorded patch that does not apply by the error the API would answer', async () => {
    const [fixture] = fixtureWith('broken.yaml', [{ op: 'replace', path: '/spec/nothing/here', value: 1 }]);
    const result = await replayFixture(h, fixture!, { webhook: MUTATE });
    expect(result.webhooks[0]!.mismatches).toEqual([
      expect.objectContaining({
        field: 'patch',
        detail:
          'the recorded patch fails: 500 Internal error occurred: replace operation does not apply: doc is missing path: /spec/nothing/here: missing value; the replayed patch applies',
      }),
    ]);
  });
});

describe('other differences', () => {
  it('compares allowed, the denial as the client reads it (code, message) and the warnings', async () => {
    const denied = await h.call(VALIDATE, review.create(objects.pod({ images: ['nginx:latest'], namespace: 'shop', name: 'web-4' })));
    const response = denied.response!;
    const file = writeFile(temp.dir, 'denial.yaml', [
      // A code under 400 reads as 400 to the client, like no code at all; the message and warnings are the webhook's own.
      {
        apiVersion: 'admission-harness/v1alpha1',
        kind: 'RecordedReview',
        source: auditSource(1),
        request: recorded(denied).request,
        response: { ...response, status: { code: 200, message: 'no' }, warnings: ['other'] },
        limits: [],
      },
      {
        apiVersion: 'admission-harness/v1alpha1',
        kind: 'RecordedReview',
        source: auditSource(2),
        request: recorded(denied).request,
        response: { uid: response.uid, allowed: true, warnings: response.warnings },
        limits: [],
      },
    ]);
    const [changedDenial, wasAllowed] = loadFixtures([file]);
    const first = await replayFixture(h, changedDenial!, { webhook: VALIDATE });
    expect(first.webhooks[0]!.mismatches).toEqual([
      { field: 'status.code', recorded: 400, replayed: 403 },
      {
        field: 'status.message',
        recorded: `admission webhook "${VALIDATE}" denied the request: no`,
        replayed: expect.stringContaining('the :latest tag (or no tag) is not allowed'),
      },
      { field: 'warnings', recorded: ['other'], replayed: ['container "nginx" has no resource limits'] },
    ]);
    expect(formatResult(first)).toContain('status.code: recorded 400, replayed 403');
    const second = await replayFixture(h, wasAllowed!, { webhook: VALIDATE });
    expect(wasAllowed!.name).toBe(`${file}#2`);
    expect(second.webhooks[0]!.mismatches).toEqual([{ field: 'allowed', recorded: true, replayed: false }]);
  });

  it('fails a fixture no webhook would get, saying why for each', async () => {
    const connect = review.exec(pinnedPod(), ['sh']);
    const file = writeFile(temp.dir, 'exec.yaml', [
      {
        apiVersion: 'admission-harness/v1alpha1',
        kind: 'RecordedReview',
        source: auditSource(1),
        request: { ...connect.attributes, uid: 'u', kind: connect.attributes.kind, resource: connect.attributes.resource },
        limits: [],
      },
    ]);
    const result = await replayFixture(h, loadFixtures([file])[0]!);
    expect(result.verdict).toBe('failed');
    expect(result.unmatched).toMatch(
      /^no webhook of the manifests matches CONNECT pods\/exec shop\/web-1:\n {4}pod-defaults\.example\.com: .*\n {4}image-policy\.example\.com: /,
    );
    await expect(replayFixture(h, loadFixtures([file])[0]!, { webhook: 'nope.example.com' })).rejects.toThrow(
      'no webhook named "nope.example.com" in the manifests',
    );
  });
});

describe('follow-up checks on every replayed request', () => {
  let counter = 0;
  let hs: Harness[] = [];
  beforeAll(async () => {
    hs = await Promise.all([
      // A sidecar named anew on every call: the webhook never recognises its own output.
      createHarness({
        target: changedWebhook((ops) =>
          ops.map((op) => (op.path === '/spec/containers/-' ? { ...op, value: { ...(op.value as object), name: `log-shipper-${++counter}` } } : op)),
        ),
        manifests: [MANIFESTS],
        seed: 12,
      }),
      // A sidecar named like the pod's own container: the API refuses the pod.
      createHarness({
        target: changedWebhook((ops) =>
          ops.map((op) => (op.path === '/spec/containers/-' ? { ...op, value: { ...(op.value as object), name: 'nginx' } } : op)),
        ),
        manifests: [MANIFESTS],
        seed: 12,
      }),
    ]);
  });
  afterAll(() => Promise.all(hs.map((x) => x.close())));

  it('fails a webhook that is not idempotent, and one whose object the API refuses', async () => {
    const created = await h.call(MUTATE, review.create(pinnedPod()));
    writeFixtures(`${temp.dir}/follow-ups`, [{ ...recorded(created), response: undefined }]);
    const [fixture] = loadFixtures([`${temp.dir}/follow-ups`]);
    const renaming = await replayFixture(hs[0]!, fixture!, { webhook: MUTATE });
    expect(renaming.verdict).toBe('failed');
    expect(renaming.webhooks[0]!.followUps).toEqual([
      { id: 'object-valid', pass: true },
      {
        id: 'idempotent-reinvocation',
        pass: false,
        detail: expect.stringMatching(
          /^reinvoked with its own output, the webhook changed it again:\n +second call added \/spec\/containers\/2 \(log-shipper-\d+\) again: the same as \/spec\/containers\/1 \(log-shipper-\d+\) from the first call but for its name/,
        ),
      },
    ]);
    const invalid = await replayFixture(hs[1]!, fixture!, { webhook: MUTATE });
    expect(invalid.webhooks[0]!.followUps[0]).toEqual({
      id: 'object-valid',
      pass: false,
      detail: expect.stringContaining('the API refuses the patched object: 422 Pod "web-1" is invalid: spec.containers[1].name: Duplicate value: "nginx"'),
    });
    expect(formatResult(invalid)).toContain('follow-up object-valid: the API refuses the patched object: 422');
    // Asked not to, replay skips them.
    expect((await replayFixture(hs[1]!, fixture!, { webhook: MUTATE, followUps: false })).verdict).toBe('new');
  });
});

describe('new fixtures and updates', () => {
  it('reports a fixture without a response as new, and with update records the answer in place', async () => {
    const created = await h.call(MUTATE, review.create(pinnedPod()));
    const dir = `${temp.dir}/new`;
    const [file] = writeFixtures(dir, [{ ...recorded(created), response: undefined, limits: ['a limit kept as it was'] }]);
    const original = readFileSync(file!, 'utf8');
    // A reader's comment, which the update keeps.
    writeFile(dir, 'pods-create-1.yaml', `# recorded in the shop namespace\n${original}`);
    const [fixture] = loadFixtures([dir]);

    const result = await runFixture(h, fixture!, { webhook: MUTATE });
    expect(result).toMatchObject({ verdict: 'new', compared: false, updated: false });
    expect(formatResult(result)).toBe(
      'pods-create-1.yaml · CREATE pods shop/web-1: new\n  no response is recorded: the answer was not compared (update to record it)',
    );
    expect(readFileSync(file!, 'utf8')).toBe(`# recorded in the shop namespace\n${original}`);

    const update = await runFixture(h, fixture!, { webhook: MUTATE, update: true });
    expect(update).toMatchObject({ verdict: 'updated', updated: true });
    const text = readFileSync(file!, 'utf8');
    expect(text.startsWith('# recorded in the shop namespace\napiVersion: admission-harness/v1alpha1\n')).toBe(true);
    const document = yaml().parse(text, { version: '1.1' }) as Record<string, unknown>;
    // It names the webhook it was sent to, so a replay without the webhook option sends it there alone.
    expect(Object.keys(document)).toEqual(['apiVersion', 'kind', 'source', 'webhook', 'request', 'response', 'limits']);
    expect(document.webhook).toBe(`pod-defaults/${MUTATE}`);
    expect(document.limits).toEqual(['a limit kept as it was']);
    expect(document.response).toEqual({ ...update.webhooks[0]!.outcome.response, uid: fixture!.recorded.request.uid });

    const [again] = loadFixtures([dir]);
    expect(recordedResponse(again!)?.uid).toBe(fixture!.recorded.request.uid);
    expect((await runFixture(h, again!, { webhook: MUTATE, update: true })).verdict).toBe('passed');
    // A passing fixture is left as it is.
    expect(readFileSync(file!, 'utf8')).toBe(text);
  });

  it('rewrites a response the webhook no longer gives, keeping the other documents of the file', async () => {
    const created = await h.call(MUTATE, review.create(pinnedPod()));
    const other = await h.call(MUTATE, review.create(objects.pod({ images: ['nginx:1.27'], namespace: 'shop', name: 'web-9' })));
    const file = writeFile(
      temp.dir,
      'stream.yaml',
      `${[recorded(created, 1), recorded(other, 2)].map((r) => yaml().stringify({ apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', ...r }, { version: '1.1', lineWidth: 0 })).join('---\n')}`,
    );
    const before = readFileSync(file, 'utf8');
    const fixtures = loadFixtures([file]);
    const report = await replayFixtures(changed, fixtures.slice(1), { webhook: MUTATE, update: true });
    expect(report).toMatchObject({ updated: 1, failed: 0 });
    expect(formatReport(report)).toContain('stream.yaml#2 · CREATE pods shop/web-9: updated\n  the response was rewritten with the new answer in');
    expect(formatReport(report)).toContain('    changed from the recording:\n      patch: ');
    const [first, second] = yaml()
      .parseAllDocuments(readFileSync(file, 'utf8'), { version: '1.1' })
      .map((d) => d.toJS() as { response: { patch: string } });
    expect(first!.response.patch).toBe(created.response!.patch);
    expect(Buffer.from(second!.response.patch, 'base64').toString()).toContain('"cpu":"250m"');
    expect(readFileSync(file, 'utf8').split('---\n')[0]).toBe(before.split('---\n')[0]);
    // Replayed against the changed webhook, the file now passes; against the original, its second document fails.
    expect((await replayFixtures(changed, loadFixtures([file]).slice(1), { webhook: MUTATE })).passed).toBe(1);
    expect((await replayFixtures(h, loadFixtures([file]), { webhook: MUTATE })).results.map((r) => r.verdict)).toEqual(['passed', 'failed']);
  });

  it('does not record when the webhooks that got the request answered differently, or a call failed', async () => {
    const created = await h.call(MUTATE, review.create(pinnedPod()));
    const file = writeFile(temp.dir, 'ambiguous.yaml', [
      { apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', ...recorded(created), response: undefined },
    ]);
    const [fixture] = loadFixtures([file]);
    const before = readFileSync(file, 'utf8');
    const report = await runFixture(h, fixture!, { update: true });
    expect(report).toMatchObject({
      verdict: 'failed',
      updated: false,
      updateError: expect.stringMatching(/^2 webhooks match the request and answer it differently/),
    });
    expect(formatResult(report)).toContain('could not update: 2 webhooks match');
    expect(readFileSync(file, 'utf8')).toBe(before);

    const failing = await createHarness({ target: (_req, res) => void res.writeHead(500).end('boom'), manifests: [MANIFESTS], seed: 13 });
    try {
      const broken = await runFixture(failing, fixture!, { webhook: MUTATE, update: true });
      expect(broken).toMatchObject({
        verdict: 'failed',
        updated: false,
        updateError: expect.stringContaining(`${MUTATE}: the call failed, so there is no answer to record: failed calling webhook`),
      });
      expect(formatResult(broken)).toContain('the call failed: failed calling webhook "pod-defaults.example.com"');
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      await failing.close();
    }
  });
});
