// DefaultIngressClass (plugin/pkg/admission/network/defaultingressclass/admission.go), on a small fake cluster.
import { deepFreeze } from '../../lib/kube/json';
import type { KubeObject } from '../../lib/kube/admission';
import type { JsonRecord } from '../../lib/kube/record';
import { defaultIngressClass } from '../../lib/plugins/default-ingress-class';
import { attributesFor, fakeCluster, mutationRequest } from './fake-cluster';

const ingressClass = (name: string, annotations: Record<string, string> = {}, creationTimestamp = '2026-06-01T10:00:00Z'): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'IngressClass',
  metadata: { name, annotations, creationTimestamp },
  spec: { controller: 'example.com/ingress' },
});
const isDefault = { 'ingressclass.kubernetes.io/is-default-class': 'true' };

function ingress(spec: JsonRecord = {}, annotations?: Record<string, string>): JsonRecord {
  const object = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: 'web', namespace: 'ns', ...(annotations ? { annotations } : {}) },
    spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
  };
  deepFreeze(object);
  return object;
}

const admitCreate = (object: JsonRecord, ...classes: KubeObject[]) =>
  defaultIngressClass.admit(mutationRequest(attributesFor('CREATE', 'ingresses', object), fakeCluster(...classes)));

describe('DefaultIngressClass', () => {
  it('gives a created Ingress without a class the default IngressClass, reading the cluster-scoped IngressClasses', () => {
    const cluster = fakeCluster(ingressClass('internal'), ingressClass('nginx', isDefault));
    const changed = defaultIngressClass.admit(mutationRequest(attributesFor('CREATE', 'ingresses', ingress()), cluster));
    expect(changed?.spec).toEqual({ defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ingressClassName: 'nginx' });
    expect(cluster.calls).toEqual(['networking.k8s.io/v1 IngressClass ']);
    expect(defaultIngressClass.name).toBe('DefaultIngressClass');
  });

  it('leaves the Ingress alone when no class is the default, or the annotation is not exactly "true"', () => {
    expect(admitCreate(ingress(), ingressClass('internal'))).toBeUndefined();
    expect(admitCreate(ingress(), ingressClass('nginx', { 'ingressclass.kubernetes.io/is-default-class': 'TRUE' }))).toBeUndefined();
    expect(admitCreate(ingress())).toBeUndefined();
  });

  it('picks the newest of several defaults, then the first by name', () => {
    const older = ingressClass('aaa', isDefault, '2026-05-01T00:00:00Z');
    const newer = ingressClass('zzz', isDefault, '2026-06-01T00:00:00Z');
    expect(admitCreate(ingress(), older, newer)?.spec).toMatchObject({ ingressClassName: 'zzz' });
    expect(admitCreate(ingress(), ingressClass('b', isDefault), ingressClass('a', isDefault))?.spec).toMatchObject({ ingressClassName: 'a' });
  });

  it('respects a class named in spec.ingressClassName or by the legacy annotation (any value)', () => {
    const cluster = [ingressClass('nginx', isDefault)];
    expect(admitCreate(ingress({ ingressClassName: 'traefik' }), ...cluster)).toBeUndefined();
    expect(admitCreate(ingress({ ingressClassName: '' }), ...cluster)).toBeUndefined();
    expect(admitCreate(ingress({}, { 'kubernetes.io/ingress.class': 'traefik' }), ...cluster)).toBeUndefined();
    expect(admitCreate(ingress({}, { 'kubernetes.io/ingress.class': '' }), ...cluster)).toBeUndefined();
  });

  it('acts on creates of the Ingress itself only', () => {
    const cluster = fakeCluster(ingressClass('nginx', isDefault));
    expect(defaultIngressClass.admit(mutationRequest(attributesFor('UPDATE', 'ingresses', ingress()), cluster))).toBeUndefined();
    expect(defaultIngressClass.admit(mutationRequest(attributesFor('CREATE', 'ingresses', ingress(), { subResource: 'status' }), cluster))).toBeUndefined();
    expect(cluster.calls).toEqual([]);
  });
});
