import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, objects, review } from '../../lib';
import { sharedAuthority } from '../../lib/tls';
import { HarnessError } from '../../lib/errors';
import { startRecorder } from '../../lib/record';
import { fixtures, outDir, rawRequest, trackHandles } from './helpers';

/* --max and --duration: the recorder stops itself, answering what it already received, and resolves `done`. */

let out: ReturnType<typeof outDir>;
beforeEach(() => {
  out = outDir();
});
afterEach(() => out.cleanup());

it('stops after maxReviews reviews, answering the last one, and resolves done', async () => {
  const recorder = await startRecorder({ out: out.dir, maxReviews: 2 });
  const h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 2 });
  try {
    expect(await h.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
    const last = await h.call('recorder.admission-harness.io', review.create(objects.pod()));
    expect(last).toBeAllowed();
    const summary = await recorder.done;
    expect(summary).toEqual({ reason: 'max', files: recorder.files, rejected: 0, unrecorded: 0, errors: [] });
    expect(fixtures(out.dir).map((f) => f.name)).toEqual(['pods-create-1.yaml', 'pods-create-2.yaml']);
    // It no longer listens: kube-apiserver's next call fails, and failurePolicy Ignore lets the request through.
    const after = await h.call('recorder.admission-harness.io', review.create(objects.pod()));
    expect(after.error?.transport).toBe('refused');
    expect(await h.admit(review.create(objects.pod({ namespace: 'default' })))).toBeAllowed();
    expect(fixtures(out.dir)).toHaveLength(2);
  } finally {
    await h.close();
    await recorder.close();
  }
});

it('counts only AdmissionReviews towards maxReviews', async () => {
  const recorder = await startRecorder({ out: out.dir, maxReviews: 1 });
  try {
    expect((await rawRequest(recorder.url, recorder.ca, { path: '/', body: '{}' })).status).toBe(400);
    const h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 2 });
    try {
      expect(await h.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
    } finally {
      await h.close();
    }
    expect(await recorder.done).toMatchObject({ reason: 'max', rejected: 1, files: [expect.stringMatching(/pods-create-1\.yaml$/)] });
  } finally {
    await recorder.close();
  }
});

it('stops after durationMs and resolves done with what it recorded', async () => {
  const recorder = await startRecorder({ out: out.dir, durationMs: 25 });
  const summary = await recorder.done;
  expect(summary).toEqual({ reason: 'duration', files: [], rejected: 0, unrecorded: 0, errors: [] });
  await expect(rawRequest(recorder.url, recorder.ca, { path: '/', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  // close() after the recorder stopped itself changes nothing.
  expect(await recorder.close()).toBe(summary);
});

it('close() leaves nothing open: the server, its connections, the duration timer', async () => {
  await sharedAuthority();
  const handles = trackHandles();
  try {
    const recorder = await startRecorder({ out: out.dir, durationMs: 3_600_000, maxReviews: 1000 });
    const h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 5 });
    await Promise.all([1, 2, 3].map(() => h.call('recorder.admission-harness.io', review.create(objects.pod()))));
    // The harness keeps its connections alive: the recorder's close ends them from its side.
    const summary = await recorder.close();
    expect(summary).toMatchObject({ reason: 'closed', errors: [] });
    expect(summary.files).toHaveLength(3);
    expect(await recorder.done).toBe(summary);
    await h.close();
    expect(await handles.open()).toEqual([]);
  } finally {
    handles.stop();
  }
});

it('refuses bounds that are not positive', async () => {
  await expect(startRecorder({ out: out.dir, maxReviews: 0 })).rejects.toThrow(HarnessError);
  await expect(startRecorder({ out: out.dir, maxReviews: 1.5 })).rejects.toThrow('maxReviews must be a positive whole number, got 1.5');
  await expect(startRecorder({ out: out.dir, durationMs: -1 })).rejects.toThrow('durationMs must be a positive number, got -1');
  await expect(startRecorder({ out: out.dir, durationMs: 2 ** 31 })).rejects.toThrow('durationMs may be at most 2147483647');
});

describe('reporting (the recorder prints nothing itself)', () => {
  it('tells each fixture, rejection and error to its callbacks, and answers allowed when a fixture cannot be written', async () => {
    const events: string[] = [];
    const recorder = await startRecorder({
      out: out.dir,
      onRecord: (file, entry) => events.push(`record ${file.slice(out.dir.length + 1)} ${entry.request.operation}`),
      onReject: (reason, at) => events.push(`reject ${at} ${reason}`),
      onError: (error) => events.push(`error ${error.message}`),
    });
    const h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 3 });
    try {
      expect(await h.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
      await rawRequest(recorder.url, recorder.ca, { path: '/p', body: '[]' });
      // The directory gone: the fixture cannot be written, and kube-apiserver still gets its answer.
      out.cleanup();
      expect(await h.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
    } finally {
      await h.close();
    }
    const summary = await recorder.close();
    expect(events).toEqual([
      'record pods-create-1.yaml CREATE',
      'reject /p the body is not a JSON object',
      expect.stringMatching(/^error could not write the fixture of CREATE pods: ENOENT/),
    ]);
    expect(summary.files).toHaveLength(1);
    expect(summary.errors).toHaveLength(1);
  });

  it('notes a callback that throws, and still answers', async () => {
    const recorder = await startRecorder({
      out: out.dir,
      onRecord: () => {
        throw new Error('printer jammed');
      },
    });
    const h = await createHarness({ target: { url: recorder.url, ca: recorder.ca }, manifests: [recorder.configuration], seed: 3 });
    try {
      expect(await h.call('recorder.admission-harness.io', review.create(objects.pod()))).toBeAllowed();
    } finally {
      await h.close();
    }
    expect((await recorder.close()).errors.map((e) => e.message)).toEqual(['printer jammed']);
  });

  it('refuses an output directory it cannot create', async () => {
    const file = path.join(out.dir, 'a-file');
    writeFileSync(file, '');
    await expect(startRecorder({ out: path.join(file, 'sub') })).rejects.toThrow(/^the output directory .*a-file\/sub: ENOTDIR/);
  });
});
