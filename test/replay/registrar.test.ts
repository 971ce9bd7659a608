import path from 'node:path';
import { createHarness, objects, review, type Harness } from '../../lib';
import { loadFixtures, recordedResponse } from '../../lib/replay';
import type { AdmissionRequest } from '../../lib/kube/admission';
import { replay, UPDATE_VARIABLE } from '../../scenarios/replay';
import { app } from '../../examples/pod-defaults/src/app';
import { mutatePod } from '../../examples/pod-defaults/src/mutate';
import { auditSource, MANIFESTS, MUTATE, patchBytes, tempDir, writeFile } from './helpers';

/*
 * replay() registers a test per fixture, as runSuite registers a test per case. The fixtures are written
 * here, at the top level, before replay() reads them: by hand, the mutating webhook's answer worked out
 * with the example's own mutatePod.
 */

const temp = tempDir('registrar');
afterAll(() => temp.remove());

/** A fixture document for `request`, recording `response` when given. */
function fixture(n: number, request: AdmissionRequest, response?: object): object {
  return { apiVersion: 'admission-harness/v1alpha1', kind: 'RecordedReview', source: auditSource(n), request, ...(response ? { response } : {}), limits: [] };
}

const pod = objects.pod({ images: ['nginx:1.27'], namespace: 'shop', name: 'web-1' });
const created: AdmissionRequest = { ...review.create(pod).attributes, uid: 'created-1' };
const updated: AdmissionRequest = { ...review.update(pod, pod).attributes, uid: 'updated-1' };

writeFile(temp.dir, 'mutating.yaml', [fixture(1, created, { uid: 'created-1', allowed: true, patchType: 'JSONPatch', patch: patchBytes(mutatePod(pod)) })]);
// A pod UPDATE: only the validating webhook's rules match it.
writeFile(temp.dir, 'validating.yaml', [
  fixture(2, updated, { uid: 'updated-1', allowed: true, warnings: ['container "nginx" has no resource limits'] }),
  fixture(3, { ...updated, uid: 'updated-2' }),
]);
const fresh = writeFile(temp.dir, 'fresh.yaml', [fixture(4, { ...created, uid: 'created-2' })]);

// A harness the test file builds: replay() uses it, and leaves closing it to the file.
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ target: app, manifests: [MANIFESTS], seed: 21 });
});
afterAll(() => h.close());

// Built by replay() from { manifests, target }, for its own tests.
replay(path.join(temp.dir, 'mutating.yaml'), { manifests: [MANIFESTS], target: app, seed: 21, webhook: MUTATE });
replay([path.join(temp.dir, 'validating.yaml')], { harness: () => h });

// ADMISSION_HARNESS_UPDATE=1, read when replay() registers the tests, records the new fixture's answer.
const previous = process.env[UPDATE_VARIABLE];
process.env[UPDATE_VARIABLE] = '1';
try {
  replay(fresh, { harness: () => h, webhook: MUTATE });
} finally {
  if (previous === undefined) delete process.env[UPDATE_VARIABLE];
  else process.env[UPDATE_VARIABLE] = previous;
}

it("recorded the new fixture's answer in its file (the tests above ran first)", () => {
  const [recorded] = loadFixtures([fresh]);
  expect(recordedResponse(recorded!)).toMatchObject({ uid: 'created-2', allowed: true, patchType: 'JSONPatch', patch: patchBytes(mutatePod(pod)) });
});

it("refuses a harness together with options that would build one, and registering outside a test file's top level", () => {
  expect(() => replay(fresh, { harness: () => h, manifests: [MANIFESTS] })).toThrow(
    'replay: options.harness is given, and so are manifests, which only build a harness',
  );
  const saved = (globalThis as { describe?: unknown }).describe;
  (globalThis as { describe?: unknown }).describe = undefined;
  try {
    expect(() => replay(fresh, { harness: () => h })).toThrow('replay registers tests: call it at the top level of a Jest or Vitest test file');
  } finally {
    (globalThis as { describe?: unknown }).describe = saved;
  }
});
