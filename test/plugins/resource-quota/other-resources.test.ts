// ResourceQuota admission beyond pods: services (pkg/quota/v1/evaluator/core/services.go), claims
// (persistent_volume_claims.go), object counts for everything else (apiserver quota/v1/generic), and the
// requests the plugin never looks at (resourcequota/admission.go Validate, controller.go Evaluate).
import { quotaAdmit, type QuotaAttributes } from '../../../lib/plugins/resource-quota';
import type { JsonRecord } from '../../../lib/kube/record';

function quota(name: string, hard: Record<string, string>, used: Record<string, string>, spec: JsonRecord = {}): JsonRecord {
  return { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard, ...spec }, status: { hard, used } };
}

function request(resource: string, object: JsonRecord | null, extra: Partial<QuotaAttributes> = {}): QuotaAttributes {
  const [plural, group = ''] = resource.split(/\.(.*)/s);
  const name = object ? String((object.metadata as JsonRecord | undefined)?.name ?? '') : '';
  return { operation: 'CREATE', resource: { group, resource: plural ?? resource }, name, namespace: 'ns', object, oldObject: null, ...extra };
}

const refusal = (result: ReturnType<typeof quotaAdmit>) => (result.ok ? undefined : result.message);

describe('quotaAdmit: services', () => {
  const service = (name: string, spec: JsonRecord, resourceVersion?: string): JsonRecord => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'ns', ...(resourceVersion ? { resourceVersion } : {}) },
    spec: { ports: [{ port: 80 }, { port: 443 }], ...spec },
  });
  const services = quota(
    'services',
    { services: '10', 'count/services': '10', 'services.nodeports': '2', 'services.loadbalancers': '1' },
    {
      services: '1',
      'count/services': '1',
      'services.nodeports': '0',
      'services.loadbalancers': '1',
    },
  );

  it('counts a service, and a NodePort service’s ports', () => {
    expect(quotaAdmit(request('services', service('web', { type: 'NodePort' })), [services])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'services', used: { 'count/services': '2', services: '2', 'services.loadbalancers': '1', 'services.nodeports': '2' } }],
    });
  });

  it('counts a load balancer and its node ports', () => {
    expect(refusal(quotaAdmit(request('services', service('lb', { type: 'LoadBalancer' })), [services]))).toBe(
      'services "lb" is forbidden: exceeded quota: services, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1',
    );
  });

  it('counts only named node ports of a load balancer that allocates none', () => {
    const lbs = quota('lbs', { 'services.nodeports': '1' }, { 'services.nodeports': '0' });
    const lb = service('lb', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80, nodePort: 30080 }, { port: 443 }] });
    expect(quotaAdmit(request('services', lb), [lbs])).toEqual({ ok: true, updatedUsage: [{ name: 'lbs', used: { 'services.nodeports': '1' } }] });
  });

  it('charges an update the node ports it adds', () => {
    const nodePorts = quota('np', { 'services.nodeports': '1', services: '5' }, { 'services.nodeports': '0', services: '1' });
    const before = service('web', { type: 'ClusterIP' }, '5');
    const after = service('web', { type: 'NodePort' }, '5');
    expect(refusal(quotaAdmit(request('services', after, { operation: 'UPDATE', oldObject: before }), [nodePorts]))).toBe(
      'services "web" is forbidden: exceeded quota: np, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1',
    );
  });

  it('refuses an update without the stored object', () => {
    expect(refusal(quotaAdmit(request('services', service('web', {}), { operation: 'UPDATE' }), [services]))).toBe(
      'services "web" is forbidden: unable to get previous usage since prior version of object was not found',
    );
  });

  it('is never matched by a quota with scopes', () => {
    const scoped = quota('scoped', { services: '0' }, { services: '0' }, { scopes: ['NotTerminating'] });
    expect(quotaAdmit(request('services', service('web', {})), [scoped])).toEqual({ ok: true, updatedUsage: [] });
  });
});

describe('quotaAdmit: persistent volume claims', () => {
  const claim = (storage: string, extra: JsonRecord = {}, metadata: JsonRecord = {}): JsonRecord => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'ns', ...metadata },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...extra },
  });

  it('charges the claim and its storage, in total and per storage class', () => {
    const storage = quota(
      'storage',
      { persistentvolumeclaims: '5', 'requests.storage': '100Gi', 'gold.storageclass.storage.k8s.io/requests.storage': '10Gi' },
      {
        persistentvolumeclaims: '1',
        'requests.storage': '10Gi',
        'gold.storageclass.storage.k8s.io/requests.storage': '8Gi',
      },
    );
    expect(refusal(quotaAdmit(request('persistentvolumeclaims', claim('5Gi', { storageClassName: 'gold' })), [storage]))).toBe(
      'persistentvolumeclaims "data" is forbidden: exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/requests.storage=5Gi, used: gold.storageclass.storage.k8s.io/requests.storage=8Gi, limited: gold.storageclass.storage.k8s.io/requests.storage=10Gi',
    );
    expect(quotaAdmit(request('persistentvolumeclaims', claim('5Gi', { storageClassName: 'silver' })), [storage])).toEqual({
      ok: true,
      updatedUsage: [
        { name: 'storage', used: { 'gold.storageclass.storage.k8s.io/requests.storage': '8Gi', persistentvolumeclaims: '2', 'requests.storage': '15Gi' } },
      ],
    });
  });

  it('takes the beta storage-class annotation over storageClassName', () => {
    const gold = quota(
      'gold',
      { 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '0' },
      { 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '0' },
    );
    const annotated = claim('1Gi', { storageClassName: 'silver' }, { annotations: { 'volume.beta.kubernetes.io/storage-class': 'gold' } });
    expect(refusal(quotaAdmit(request('persistentvolumeclaims', annotated), [gold]))).toContain('exceeded quota: gold');
  });

  it('counts storage in whole bytes', () => {
    const storage = quota('storage', { 'requests.storage': '10' }, { 'requests.storage': '0' });
    expect(quotaAdmit(request('persistentvolumeclaims', claim('1500m')), [storage])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'storage', used: { 'requests.storage': '2' } }],
    });
  });

  it('records a status update (allocated storage) without refusing it', () => {
    const storage = quota('storage', { 'requests.storage': '10Gi' }, { 'requests.storage': '10Gi' });
    const before = claim('10Gi', {}, { resourceVersion: '3' });
    const after = { ...claim('10Gi', {}, { resourceVersion: '3' }), status: { allocatedResources: { storage: '12Gi' } } };
    expect(quotaAdmit(request('persistentvolumeclaims', after, { operation: 'UPDATE', subResource: 'status', oldObject: before }), [storage])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'storage', used: { 'requests.storage': '12Gi' } }],
    });
  });

  it('matches VolumeAttributesClass scopes', () => {
    const fast = quota(
      'fast',
      { persistentvolumeclaims: '0' },
      { persistentvolumeclaims: '0' },
      {
        scopeSelector: { matchExpressions: [{ scopeName: 'VolumeAttributesClass', operator: 'In', values: ['fast'] }] },
      },
    );
    expect(refusal(quotaAdmit(request('persistentvolumeclaims', claim('1Gi', { volumeAttributesClassName: 'fast' })), [fast]))).toContain(
      'exceeded quota: fast',
    );
    expect(quotaAdmit(request('persistentvolumeclaims', claim('1Gi')), [fast]).ok).toBe(true);
  });
});

describe('quotaAdmit: object counts', () => {
  const object = (kind: string, name: string): JsonRecord => ({ kind, metadata: { name, namespace: 'ns' } });

  it('counts any resource as count/<resource>[.<group>]', () => {
    const counts = quota(
      'counts',
      { 'count/deployments.apps': '1', 'count/widgets.example.com': '3' },
      { 'count/deployments.apps': '1', 'count/widgets.example.com': '0' },
    );
    expect(refusal(quotaAdmit(request('deployments.apps', object('Deployment', 'web')), [counts]))).toBe(
      'deployments.apps "web" is forbidden: exceeded quota: counts, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    expect(quotaAdmit(request('widgets.example.com', object('Widget', 'w')), [counts])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'counts', used: { 'count/deployments.apps': '1', 'count/widgets.example.com': '1' } }],
    });
  });

  it('counts configmaps, secrets, resourcequotas and replicationcontrollers under their legacy names too', () => {
    const legacy = quota('legacy', { configmaps: '2', 'count/secrets': '5' }, { configmaps: '2', 'count/secrets': '0' });
    expect(refusal(quotaAdmit(request('configmaps', object('ConfigMap', 'c')), [legacy]))).toBe(
      'configmaps "c" is forbidden: exceeded quota: legacy, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
    );
    expect(quotaAdmit(request('secrets', object('Secret', 's')), [legacy])).toEqual({
      ok: true,
      updatedUsage: [{ name: 'legacy', used: { configmaps: '2', 'count/secrets': '1' } }],
    });
  });

  it('counts creates only, and no subresource', () => {
    const full = quota('full', { 'count/configmaps': '0', 'count/serviceaccounts': '0' }, { 'count/configmaps': '0', 'count/serviceaccounts': '0' });
    const cm = object('ConfigMap', 'c');
    expect(quotaAdmit(request('configmaps', cm, { operation: 'UPDATE', oldObject: cm }), [full]).ok).toBe(true);
    expect(quotaAdmit(request('serviceaccounts', object('TokenRequest', 'default'), { subResource: 'token' }), [full]).ok).toBe(true);
  });
});

describe('quotaAdmit: requests it never looks at', () => {
  const full = quota(
    'full',
    { 'count/events': '0', 'count/namespaces': '0', 'count/configmaps': '0' },
    { 'count/events': '0', 'count/namespaces': '0', 'count/configmaps': '0' },
  );
  const cm: JsonRecord = { kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } };

  it.each<[string, QuotaAttributes]>([
    ['core events', request('events', { kind: 'Event', metadata: { name: 'e' } })],
    ['a namespace’s creation', { ...request('namespaces', { kind: 'Namespace', metadata: { name: 'ns' } }), kind: { group: '', kind: 'Namespace' } }],
    ['a cluster-scoped object', { ...request('configmaps', cm), namespace: '' }],
    ['a delete', { ...request('configmaps', null), operation: 'DELETE', oldObject: cm }],
  ])('%s', (_, attributes) => {
    expect(quotaAdmit(attributes, [full])).toEqual({ ok: true, updatedUsage: [] });
  });

  it('a namespace without quotas', () => {
    expect(quotaAdmit(request('configmaps', cm), [])).toEqual({ ok: true, updatedUsage: [] });
  });
});
