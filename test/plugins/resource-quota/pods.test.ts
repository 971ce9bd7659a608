// ResourceQuota admission for pods: staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota
// (controller.go CheckRequest, its messages) with pkg/quota/v1/evaluator/core/pods.go (usage, scopes,
// the `must specify` constraint).
import { quotaAdmit, type QuotaAttributes } from '../../../lib/plugins/resource-quota';
import type { JsonRecord } from '../../../lib/kube/record';

function quota(name: string, hard: Record<string, string>, used: Record<string, string>, spec: JsonRecord = {}): JsonRecord {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, used } };
}

function pod(name: string, containers: JsonRecord[], spec: JsonRecord = {}, metadata: JsonRecord = {}): JsonRecord {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...metadata }, spec: { containers, ...spec } };
}

const container = (name: string, requests?: JsonRecord, limits?: JsonRecord): JsonRecord => ({
  name,
  image: 'img',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

function create(object: JsonRecord, extra: Partial<QuotaAttributes> = {}): QuotaAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', resource: 'pods' },
    kind: { group: '', kind: 'Pod' },
    name: String((object.metadata as JsonRecord).name),
    namespace: 'ns',
    object,
    oldObject: null,
    ...extra,
  };
}

const refusal = (result: ReturnType<typeof quotaAdmit>) => (result.ok ? undefined : result.message);

describe('quotaAdmit: pod usage and limits', () => {
  const guaranteed = container('app', { cpu: '500m', memory: '256Mi' }, { cpu: '500m', memory: '256Mi' });

  it('charges a pod to the quota: every tracked name, the rest masked out', () => {
    const compute = quota(
      'compute',
      { 'requests.cpu': '2', 'limits.memory': '1Gi', pods: '10', 'count/pods': '10' },
      { 'requests.cpu': '1', 'limits.memory': '0', pods: '1', 'count/pods': '1' },
    );
    expect(quotaAdmit(create(pod('p', [guaranteed])), [compute])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'compute', used: { 'count/pods': '2', 'limits.memory': '256Mi', pods: '2', 'requests.cpu': '1500m' } }],
    });
  });

  it('refuses what would exceed a hard limit, naming only the exceeded resources, sorted', () => {
    const compute = quota(
      'compute',
      { 'requests.cpu': '1', 'requests.memory': '256Mi', 'limits.cpu': '4' },
      { 'requests.cpu': '800m', 'requests.memory': '128Mi', 'limits.cpu': '0' },
    );
    expect(refusal(quotaAdmit(create(pod('p', [guaranteed])), [compute]))).toBe(
      'pods "p" is forbidden: exceeded quota: compute, requested: requests.cpu=500m,requests.memory=256Mi, used: requests.cpu=800m,requests.memory=128Mi, limited: requests.cpu=1,requests.memory=256Mi',
    );
  });

  it('counts pods: `pods` and `count/pods`', () => {
    const counted = quota('count', { pods: '2' }, { pods: '2' });
    expect(refusal(quotaAdmit(create(pod('p', [container('app')])), [counted]))).toBe(
      'pods "p" is forbidden: exceeded quota: count, requested: pods=1, used: pods=2, limited: pods=2',
    );
    const objects = quota('objects', { 'count/pods': '1' }, { 'count/pods': '1' });
    expect(refusal(quotaAdmit(create(pod('p', [container('app')])), [objects]))).toBe(
      'pods "p" is forbidden: exceeded quota: objects, requested: count/pods=1, used: count/pods=1, limited: count/pods=1',
    );
  });

  it('sums the containers, sidecars included, and adds pod overhead to requests', () => {
    const sidecar = { ...container('sidecar', { cpu: '250m' }), restartPolicy: 'Always' };
    const p = pod('p', [container('a', { cpu: '1' }), container('b', { cpu: '500m' })], { initContainers: [sidecar], overhead: { cpu: '100m' } });
    const compute = quota('compute', { 'requests.cpu': '10' }, { 'requests.cpu': '0' });
    expect(quotaAdmit(create(p), [compute])).toEqual({ ok: true, updatedUsage: [{ name: 'compute', used: { 'requests.cpu': '1850m' } }] });
  });

  it('with cpu or memory limited, needs each container to state them (`must specify`)', () => {
    const compute = quota('compute', { 'requests.cpu': '10', memory: '10Gi' }, { 'requests.cpu': '0', memory: '0' });
    const p = pod('p', [container('b', { memory: '1Gi' }), container('a')], { initContainers: [container('init', { cpu: '1', memory: '1Gi' })] });
    expect(refusal(quotaAdmit(create(p), [compute]))).toBe('pods "p" is forbidden: failed quota: compute: must specify memory for: a; requests.cpu for: a,b');
  });

  it('needs no container values for ephemeral storage or extended resources', () => {
    const other = quota(
      'other',
      { 'requests.ephemeral-storage': '10Gi', 'requests.example.com/gpu': '4' },
      { 'requests.ephemeral-storage': '0', 'requests.example.com/gpu': '0' },
    );
    const p = pod('p', [container('app', { 'example.com/gpu': '1' }, { 'example.com/gpu': '1' })]);
    expect(quotaAdmit(create(p), [other])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'other', used: { 'requests.ephemeral-storage': '0', 'requests.example.com/gpu': '1' } }],
    });
  });

  it('needs no container values when pod-level resources are set', () => {
    const compute = quota('compute', { 'limits.cpu': '4' }, { 'limits.cpu': '0' });
    const p = pod('p', [container('app')], { resources: { limits: { cpu: '2' } } });
    expect(quotaAdmit(create(p), [compute])).toEqual({ ok: true, updatedUsage: [{ name: 'compute', used: { 'limits.cpu': '2' } }] });
  });

  it('refuses while the quota has no usage for a limit it tracks', () => {
    const compute = quota('compute', { 'limits.cpu': '4', 'limits.memory': '1Gi' }, { 'limits.cpu': '0' });
    expect(refusal(quotaAdmit(create(pod('p', [guaranteed])), [compute]))).toBe(
      'pods "p" is forbidden: status unknown for quota: compute, resources: limits.cpu,limits.memory',
    );
  });

  it('refuses negative usage', () => {
    const pods = quota('pods', { pods: '10' }, { pods: '0' });
    expect(refusal(quotaAdmit(create(pod('p', [container('app', { cpu: '-1' })])), [pods]))).toBe(
      'pods "p" is forbidden: quota usage is negative for resource(s): cpu,requests.cpu',
    );
  });

  it('names a pod that has only a generateName by it', () => {
    const counted = quota('count', { pods: '0' }, { pods: '0' });
    const p = pod('', [container('app')], {}, { generateName: 'web-' });
    expect(refusal(quotaAdmit({ ...create(p), name: '' }, [counted]))).toBe(
      'pods "web-" is forbidden: exceeded quota: count, requested: pods=1, used: pods=0, limited: pods=0',
    );
  });

  it('checks every quota that applies and updates each', () => {
    const a = quota('a', { pods: '10' }, { pods: '1' });
    const b = quota('b', { 'count/pods': '10', 'limits.cpu': '2' }, { 'count/pods': '3', 'limits.cpu': '0' });
    expect(quotaAdmit(create(pod('p', [guaranteed])), [a, b])).toEqual({
      ok: true,
      updatedUsage: [
        { name: 'a', used: { pods: '2' } },
        { name: 'b', used: { 'count/pods': '4', 'limits.cpu': '500m' } },
      ],
    });
  });

  it('charges only the object count of a pod that has finished', () => {
    const compute = quota('compute', { pods: '1', 'count/pods': '5' }, { pods: '1', 'count/pods': '1' });
    const done = { ...pod('p', [guaranteed]), status: { phase: 'Succeeded' } };
    expect(quotaAdmit(create(done), [compute])).toEqual({ ok: true, updatedUsage: [{ name: 'compute', used: { 'count/pods': '2', pods: '1' } }] });
  });

  it('checks a dry run but records nothing', () => {
    const counted = quota('count', { pods: '1' }, { pods: '0' });
    expect(quotaAdmit(create(pod('p', [container('app')]), { dryRun: true }), [counted])).toEqual({ ok: true, updatedUsage: [] });
    const full = quota('count', { pods: '1' }, { pods: '1' });
    expect(quotaAdmit(create(pod('p', [container('app')]), { dryRun: true }), [full]).ok).toBe(false);
  });
});

describe('quotaAdmit: scopes', () => {
  const bestEffort = pod('be', [container('app')]);
  const burstable = pod('burst', [container('app', { cpu: '100m' })]);

  it('BestEffort and NotBestEffort split pods by QoS class', () => {
    const be = quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] });
    const notBe = quota('not-be', { pods: '0' }, { pods: '0' }, { scopes: ['NotBestEffort'] });
    expect(refusal(quotaAdmit(create(bestEffort), [be, notBe]))).toBe(
      'pods "be" is forbidden: exceeded quota: be, requested: pods=1, used: pods=0, limited: pods=0',
    );
    expect(refusal(quotaAdmit(create(burstable), [be, notBe]))).toBe(
      'pods "burst" is forbidden: exceeded quota: not-be, requested: pods=1, used: pods=0, limited: pods=0',
    );
  });

  it('takes the recorded status.qosClass over the containers', () => {
    const be = quota('be', { pods: '0' }, { pods: '0' }, { scopes: ['BestEffort'] });
    expect(quotaAdmit(create({ ...bestEffort, status: { qosClass: 'Burstable' } }), [be])).toEqual({ ok: true, updatedUsage: [] });
  });

  it('Terminating and NotTerminating follow activeDeadlineSeconds', () => {
    const terminating = quota('t', { pods: '5' }, { pods: '0' }, { scopes: ['Terminating'] });
    const job = pod('job', [container('app')], { activeDeadlineSeconds: 60 });
    expect(quotaAdmit(create(job), [terminating])).toEqual({ ok: true, updatedUsage: [{ name: 't', used: { pods: '1' } }] });
    expect(quotaAdmit(create(bestEffort), [terminating])).toEqual({ ok: true, updatedUsage: [] });
  });

  it('PriorityClass scope selectors match the pod’s priorityClassName', () => {
    const high = quota(
      'high',
      { pods: '0' },
      { pods: '0' },
      { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } },
    );
    const anyClass = quota('any', { pods: '0' }, { pods: '0' }, { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'Exists' }] } });
    const none = quota(
      'none',
      { pods: '0' },
      { pods: '0' },
      { scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }] } },
    );
    const highPod = pod('hp', [container('app')], { priorityClassName: 'high' });
    const lowPod = pod('lp', [container('app')], { priorityClassName: 'low' });
    expect(refusal(quotaAdmit(create(highPod), [high]))).toBe('pods "hp" is forbidden: exceeded quota: high, requested: pods=1, used: pods=0, limited: pods=0');
    expect(quotaAdmit(create(lowPod), [high]).ok).toBe(true);
    expect(refusal(quotaAdmit(create(lowPod), [anyClass]))).toContain('exceeded quota: any');
    expect(quotaAdmit(create(bestEffort), [anyClass]).ok).toBe(true);
    expect(refusal(quotaAdmit(create(bestEffort), [none]))).toContain('exceeded quota: none');
  });

  it('CrossNamespacePodAffinity matches affinity terms that reach other namespaces', () => {
    const cross = quota('cross', { pods: '0' }, { pods: '0' }, { scopes: ['CrossNamespacePodAffinity'] });
    const term = { labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname', namespaceSelector: {} };
    const affine = pod('aff', [container('app')], { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } });
    expect(refusal(quotaAdmit(create(affine), [cross]))).toContain('exceeded quota: cross');
    expect(quotaAdmit(create(bestEffort), [cross]).ok).toBe(true);
  });
});

describe('quotaAdmit: pod updates', () => {
  const stored = (p: JsonRecord): JsonRecord => ({ ...p, metadata: { ...(p.metadata as JsonRecord), resourceVersion: '7' } });

  it('leaves a plain pod update alone', () => {
    const full = quota('full', { pods: '0' }, { pods: '5' });
    const p = stored(pod('p', [container('app')]));
    expect(quotaAdmit({ ...create(p), operation: 'UPDATE', oldObject: p }, [full])).toEqual({ ok: true, updatedUsage: [] });
  });

  it('charges a resize the difference it makes', () => {
    const compute = quota('compute', { 'requests.cpu': '1' }, { 'requests.cpu': '600m' });
    const before = stored(pod('p', [container('app', { cpu: '500m' })]));
    const after = stored(pod('p', [container('app', { cpu: '800m' })]));
    const resize = { ...create(after), operation: 'UPDATE' as const, subResource: 'resize', oldObject: before };
    expect(quotaAdmit(resize, [compute])).toEqual({ ok: true, updatedUsage: [{ name: 'compute', used: { 'requests.cpu': '900m' } }] });
    const bigger = stored(pod('p', [container('app', { cpu: '1' })]));
    expect(refusal(quotaAdmit({ ...resize, object: bigger }, [compute]))).toBe(
      'pods "p" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
    // Shrinking frees nothing at admission (the delta is never negative); the quota controller recounts.
    const smaller = stored(pod('p', [container('app', { cpu: '100m' })]));
    expect(quotaAdmit({ ...resize, object: smaller }, [compute])).toEqual({ ok: true, updatedUsage: [] });
  });

  it('charges a pod moving into a Terminating quota in full', () => {
    const terminating = quota('t', { pods: '5' }, { pods: '2' }, { scopes: ['Terminating'] });
    const before = stored(pod('p', [container('app')]));
    const after = stored(pod('p', [container('app')], { activeDeadlineSeconds: 30 }));
    expect(quotaAdmit({ ...create(after), operation: 'UPDATE', oldObject: before }, [terminating])).toEqual({
      ok: true,
      updatedUsage: [{ name: 't', used: { pods: '3' } }],
    });
  });

  it('ignores other pod subresources', () => {
    const full = quota('full', { pods: '0' }, { pods: '5' });
    const p = pod('p', [container('app')]);
    expect(quotaAdmit({ ...create(p), operation: 'UPDATE', subResource: 'status', oldObject: p }, [full]).ok).toBe(true);
    expect(quotaAdmit({ ...create(p), subResource: 'binding' }, [full]).ok).toBe(true);
  });
});
