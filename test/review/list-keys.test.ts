import { fieldsOf } from '../../lib/review/objects/managed-fields';
import { keysOf } from '../../lib/review/objects/list-keys';

// Managed fields own a list-map's items one by one under their keys, and an atomic list whole; which is
// which comes from the schema table's `x-kubernetes-list-type` (structured-merge-diff fieldpath, as
// kube-apiserver's managedFields record it).
describe('the keys of built-in lists, from the schema table', () => {
  it.each([
    ['containers', { name: 'app' }, ['name']],
    ['ports', { containerPort: 80 }, ['containerPort', 'protocol']],
    ['ports', { port: 443 }, ['port', 'protocol']],
    ['topologySpreadConstraints', { topologyKey: 'zone' }, ['topologyKey', 'whenUnsatisfiable']],
    ['ownerReferences', { uid: 'u' }, ['uid']],
    ['conditions', { type: 'Ready' }, ['type']],
    // ServiceAccount.secrets and a webhook configuration's webhooks are list-maps too (k8s.io/api
    // core/v1 and admissionregistration/v1 types.go `+listType=map`); they were owned whole before.
    ['secrets', { name: 'token' }, ['name']],
    ['webhooks', { name: 'w.example.com' }, ['name']],
  ])('%s items like %j are keyed by %j', (name, item, keys) => {
    expect(keysOf(name, item)).toEqual(keys);
  });

  // k8s.io/api core/v1 types.go: Container.ResizePolicy and PodStatus.HostIPs are `+listType=atomic`
  // (HostIPs keeps a patchMergeKey for strategic merge only); the hand-kept list keyed both.
  it.each(['resizePolicy', 'hostIPs', 'tolerations'])('%s is atomic', (name) => {
    expect(keysOf(name, { resourceName: 'cpu', ip: '10.0.0.1', key: 'k' })).toBeUndefined();
  });

  it('leaves ports whose items carry neither key unkeyed', () => {
    expect(keysOf('ports', { name: 'http' })).toBeUndefined();
  });

  it('owns a container’s resizePolicy whole, its env by name', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: { containers: [{ name: 'app', env: [{ name: 'A', value: '1' }], resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }] },
    };
    const container = (fieldsOf(pod, 'object', false)['f:spec'] as Record<string, Record<string, Record<string, unknown>>>)['f:containers']?.[
      'k:{"name":"app"}'
    ];
    expect(container?.['f:resizePolicy']).toEqual({});
    expect(container?.['f:env']).toEqual({ '.': {}, 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } });
  });
});
