import { startMockApi, type MockApi } from '../../lib/mockapi';
import { call, objectOf } from './client';
import { openWatch } from './watch/watch-client';

/*
 * HorizontalPodAutoscalers are served at autoscaling/v2 and v1 and stored at v2: a read at v1 of an HPA
 * written at v2 gets it converted by kube's conversion functions (k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go),
 * what v1 cannot hold in annotations, and a write at v1 is stored converted to v2.
 */

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ seed: 13, namespaces: [{ name: 'team-a' }] });
});
afterAll(() => api.close());

const V2 = '/apis/autoscaling/v2/namespaces/team-a/horizontalpodautoscalers';
const V1 = '/apis/autoscaling/v1/namespaces/team-a/horizontalpodautoscalers';
const REF = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };
const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
const cpu = (utilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });

describe('an HPA created at autoscaling/v2', () => {
  beforeAll(async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: REF, maxReplicas: 4, metrics: [memory, cpu(60)] },
    };
    expect((await call(api, 'POST', V2, hpa)).status).toBe(201);
  });

  it('is read at v1 converted: the CPU target in its field, the other metric in the annotation', async () => {
    const reply = await call(api, 'GET', `${V1}/web`);
    expect(reply.status).toBe(200);
    const object = objectOf(reply);
    expect([object.kind, object.apiVersion, object.spec, object.status]).toEqual([
      'HorizontalPodAutoscaler',
      'autoscaling/v1',
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
      { currentReplicas: 0, desiredReplicas: 0 },
    ]);
    expect(object.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]',
    });
  });

  it('is printed at v1 as kube prints its internal form: every metric, not only the CPU target v1 has a field for', async () => {
    const response = await fetch(`${api.url}${V1}/web`, {
      headers: { Authorization: `Bearer ${api.token}`, Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' },
    });
    const table = (await response.json()) as { rows: { cells: unknown[] }[] };
    expect(table.rows[0]?.cells[2]).toBe('memory: <unknown>/100Mi, cpu: <unknown>/60%');
  });

  it('is a PartialObjectMetadata at v1 without the annotations v1’s encoding adds (the handler holds the internal object)', async () => {
    const response = await fetch(`${api.url}${V1}/web`, {
      headers: { Authorization: `Bearer ${api.token}`, Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
    });
    const partial = (await response.json()) as { kind: string; metadata: { name: string; annotations?: unknown } };
    expect([partial.kind, partial.metadata.name, partial.metadata.annotations]).toEqual(['PartialObjectMetadata', 'web', undefined]);
  });

  it('is read at v2 as written, defaulted, with no annotation', async () => {
    const object = objectOf(await call(api, 'GET', `${V2}/web`));
    expect([object.apiVersion, object.spec, object.status, object.metadata!.annotations]).toEqual([
      'autoscaling/v2',
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, metrics: [memory, cpu(60)] },
      { desiredReplicas: 0, currentMetrics: null },
      undefined,
    ]);
  });

  it('is listed at v1 converted', async () => {
    const list = objectOf(await call(api, 'GET', V1));
    expect((list.items as { spec: unknown }[]).map((item) => item.spec)).toEqual([
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 60 },
    ]);
  });
});

describe('a watch at autoscaling/v1', () => {
  it('gets each event’s HPA converted from the v2 it is stored at', async () => {
    const watch = await openWatch(api, `${V1}?watch=1&resourceVersion=${api.store.resourceVersion}`, 'msw');
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'watched' },
      spec: { scaleTargetRef: REF, maxReplicas: 2, metrics: [cpu(45)] },
    };
    expect((await call(api, 'POST', V2, hpa)).status).toBe(201);
    const [event] = await watch.next(1);
    expect([event!.type, event!.object.apiVersion, event!.object.spec]).toEqual([
      'ADDED',
      'autoscaling/v1',
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 2, targetCPUUtilizationPercentage: 45 },
    ]);
    watch.abort();
  });
});

describe('an HPA created at autoscaling/v1', () => {
  it('is stored at v2: read at v2 its CPU target is a metric, and without a target v1 implies 80', async () => {
    const hpa = (name: string, spec: Record<string, unknown>) => ({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name },
      spec: { scaleTargetRef: REF, maxReplicas: 3, ...spec },
    });
    const created = objectOf(await call(api, 'POST', V1, hpa('v1-target', { targetCPUUtilizationPercentage: 55 })));
    expect(created.spec).toEqual({ scaleTargetRef: REF, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 55 });
    expect((objectOf(await call(api, 'GET', `${V2}/v1-target`)).spec as Record<string, unknown>).metrics).toEqual([cpu(55)]);
    await call(api, 'POST', V1, hpa('v1-bare', {}));
    expect((objectOf(await call(api, 'GET', `${V2}/v1-bare`)).spec as Record<string, unknown>).metrics).toEqual([cpu(80)]);
    expect((objectOf(await call(api, 'GET', `${V1}/v1-bare`)).spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBe(80);
  });
});
