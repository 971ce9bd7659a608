// ResourceQuota as a real kube-apiserver v1.36.2 ran it: test/fixtures/apiserver-policies/
// resourcequota-sidecar.json (README there). The quota `compute` limits limits.cpu and limits.memory;
// its status was written by hand, as the quota controller would.
import fs from 'node:fs';
import path from 'node:path';
import { quotaAdmit, type QuotaAttributes } from '../../../lib/plugins/resource-quota';
import type { JsonRecord } from '../../../lib/kube/record';

interface Recording {
  namespace: string;
  objectsCreated: { method: string; path: string; stored: JsonRecord }[];
  requests: {
    label: string;
    clientRequest: { body: JsonRecord };
    response: { status: number; body: JsonRecord };
    webhookCalls: { admissionReviewReceived: { request: { object: JsonRecord } }; patchOpsDecoded: { op: string; path: string; value: JsonRecord }[] }[];
  }[];
  quotaAfter: JsonRecord;
}

const recording = JSON.parse(fs.readFileSync(path.join(__dirname, '../../fixtures/apiserver-policies/resourcequota-sidecar.json'), 'utf8')) as Recording;

/** The quota as it stood for the requests: after the hand-written status. */
const quotaWithStatus = recording.objectsCreated.find((o) => o.method === 'PUT' && o.path.endsWith('/resourcequotas/compute/status'))?.stored as JsonRecord;
/** The quota as created, without status. */
const quotaWithoutStatus = recording.objectsCreated.find((o) => o.method === 'POST' && o.path.endsWith('/resourcequotas'))?.stored as JsonRecord;

function podCreate(object: JsonRecord): QuotaAttributes {
  const name = (object.metadata as JsonRecord).name as string;
  return {
    operation: 'CREATE',
    resource: { group: '', resource: 'pods' },
    kind: { group: '', kind: 'Pod' },
    name,
    namespace: recording.namespace,
    object,
    oldObject: null,
  };
}

/** The pod at ResourceQuota's turn: what the webhook received, with its sidecar patch applied. */
function afterWebhook(request: Recording['requests'][number]): JsonRecord {
  const call = request.webhookCalls[0];
  if (!call) throw new Error('no webhook call');
  const pod = structuredClone(call.admissionReviewReceived.request.object);
  for (const op of call.patchOpsDecoded) {
    expect(op).toMatchObject({ op: 'add', path: '/spec/containers/-' });
    ((pod.spec as JsonRecord).containers as JsonRecord[]).push(op.value);
  }
  return pod;
}

const byLabel = (prefix: string) => {
  const request = recording.requests.find((r) => r.label.startsWith(prefix));
  if (!request) throw new Error(`no request ${prefix}`);
  return request;
};

describe('ResourceQuota on the recorded kube-apiserver v1.36.2 requests', () => {
  it('(a) refuses the pod whose injected sidecar states no limits, with the recorded 403', () => {
    const request = byLabel('(a)');
    const result = quotaAdmit(podCreate(afterWebhook(request)), [quotaWithStatus]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe('pods "quota-1" is forbidden: failed quota: compute: must specify limits.cpu for: sidecar; limits.memory for: sidecar');
    expect(result.cause).toBe('failed quota: compute: must specify limits.cpu for: sidecar; limits.memory for: sidecar');
    expect(result.status).toEqual(request.response.body);
    expect(request.response.status).toBe(403);
  });

  it('(b) admits the control pod and charges its limits, as the recorded quota status shows', () => {
    const request = byLabel('(b)');
    // What was stored is what ResourceQuota judged (LimitRanger had nothing to do; requests defaulted from limits).
    const result = quotaAdmit(podCreate(request.response.body), [quotaWithStatus]);
    expect(result).toEqual({ ok: true, updatedUsage: [{ name: 'compute', used: (recording.quotaAfter.status as JsonRecord).used }] });
    expect((recording.quotaAfter.status as JsonRecord).used).toEqual({ 'limits.cpu': '500m', 'limits.memory': '256Mi' });
  });

  it('(c) refuses a pod whose only container states no limits', () => {
    const request = byLabel('(c)');
    const pod = structuredClone(request.clientRequest.body);
    (pod.metadata as JsonRecord).namespace = recording.namespace;
    const result = quotaAdmit(podCreate(pod), [quotaWithStatus]);
    expect(result.ok ? undefined : result.status).toEqual(request.response.body);
  });

  it('enforces nothing while the quota has no status', () => {
    expect(quotaWithoutStatus.status).toEqual({});
    expect(quotaAdmit(podCreate(afterWebhook(byLabel('(a)'))), [quotaWithoutStatus])).toEqual({ ok: true, updatedUsage: [] });
  });
});
