// ValidatingAdmissionPolicy as a real kube-apiserver v1.36.2 ran it (test/fixtures/apiserver-policies,
// README.md there): each recorded request replayed through h.admit with the recorded
// policies, bindings and params, comparing the status body, the Warning headers and the audit annotation.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createHarness, review, type Harness } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';

const DIR = path.join(__dirname, '../fixtures/apiserver-policies');

interface Recording {
  namespace: string;
  objectsCreated: { sent: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { method: string; path: string; body: KubeObject };
    response: { status: number; body: Record<string, unknown>; warnings: string[] };
    webhookCalls: unknown[];
    auditAnnotations: Record<string, string>;
  }[];
}

const load = (name: string): Recording => JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Recording;
const POLICY_KINDS = ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'];
const FAILURE = 'validation.policy.admission.k8s.io/validation_failure';

const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

/** A harness holding the recording's policies and bindings, and (unless left out) its other objects as params. */
async function harnessFor(recording: Recording, options: { withParams: boolean }): Promise<Harness> {
  const namespace = recording.requests[0]!.clientRequest.path.split('/')[4]!;
  const manifests = recording.objectsCreated.filter((o) => POLICY_KINDS.includes(o.sent.kind ?? '')).map((o) => o.sent);
  const params = recording.objectsCreated
    .filter((o) => !POLICY_KINDS.includes(o.sent.kind ?? ''))
    .map((o) => ({ ...o.sent, metadata: { ...o.sent.metadata, namespace } }));
  const h = await createHarness({ seed: 5, manifests: manifests as never[], namespaces: [{ name: namespace }], objects: options.withParams ? params : [] });
  harnesses.push(h);
  return h;
}

async function replay(h: Harness, request: Recording['requests'][number]) {
  const namespace = request.clientRequest.path.split('/')[4]!;
  const sent = request.clientRequest.body;
  return h.admit(review.create({ ...sent, metadata: { ...sent.metadata, namespace } }, { via: 'api' }));
}

describe('ValidatingAdmissionPolicy as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies)', () => {
  it('vap-deny: a failed validation under validationActions [Deny] is a 422 naming policy, binding and message; a compliant pod passes', async () => {
    const recording = load('vap-deny');
    const h = await harnessFor(recording, { withParams: true });
    const [denied, compliant] = recording.requests;

    const result = await replay(h, denied!);
    expect(denied!.response.status).toBe(422);
    expect(result.status).toEqual(denied!.response.body);
    expect(result.warningHeaders).toEqual(denied!.response.warnings);
    expect(result.auditAnnotations[FAILURE]).toBeUndefined();

    const allowed = await replay(h, compliant!);
    expect(compliant!.response.status).toBe(201);
    expect(allowed).toBeAllowed();
    expect(allowed.warningHeaders).toEqual(compliant!.response.warnings);
  });

  it('vap-params: the binding reads its ConfigMap; the failed expression is quoted; without it, parameterNotFoundAction Deny', async () => {
    const recording = load('vap-params');
    const [withConfigMap, deleted, deletedSmall] = recording.requests;

    const h = await harnessFor(recording, { withParams: true });
    const result = await replay(h, withConfigMap!);
    expect(result.status).toEqual(withConfigMap!.response.body);

    const without = await harnessFor(recording, { withParams: false });
    for (const request of [deleted!, deletedSmall!]) {
      const outcome = await replay(without, request);
      expect(request.response.status).toBe(422);
      expect(outcome.status).toEqual(request.response.body);
    }
  });

  it('vap-warn-audit: [Warn, Audit] admits the pod with one Warning per failed validation and an audit annotation holding only the first failure', async () => {
    const recording = load('vap-warn-audit');
    const h = await harnessFor(recording, { withParams: true });
    for (const request of recording.requests) {
      const result = await replay(h, request);
      expect(request.response.status).toBe(201);
      expect(result).toBeAllowed();
      expect(result.warningHeaders).toEqual(request.response.warnings);
      expect(result.auditAnnotations[FAILURE]).toBe(request.auditAnnotations[FAILURE]);
      expect(request.webhookCalls).toHaveLength(0);
    }
  });
});
