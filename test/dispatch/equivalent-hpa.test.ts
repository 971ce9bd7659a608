import { createHarness, review, stub, type Harness, type HarnessOptions } from '../../lib';
import type { KubeObject } from '../../lib/kube/admission';
import { mutating, validating } from './helpers';

/*
 * A webhook registered for autoscaling/v1 HPAs (matchPolicy Equivalent, the default) is sent an autoscaling/v2
 * request converted to v1 by kube's conversion functions (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/conversion.go
 * ConvertToGVK, k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go), and its patch, made at v1, comes back to v2
 * through the same conversion.
 */

const harnesses: Harness[] = [];
async function harness(options: Omit<HarnessOptions, 'target'>): Promise<Harness> {
  const h = await createHarness({ seed: 23, ...options });
  harnesses.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
});

const v1Rule = [{ apiGroups: ['autoscaling'], apiVersions: ['v1'], operations: ['CREATE' as const], resources: ['horizontalpodautoscalers'] }];
const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
const cpu = (utilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });
const hpa = (): KubeObject => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'default' },
  spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [memory, cpu(70)] },
});

describe('an HPA created at autoscaling/v2 through a webhook registered for autoscaling/v1', () => {
  it('sends the object converted to v1, kind and resource v1, requestKind and requestResource v2', async () => {
    const h = await harness({ manifests: [validating('hpa', { name: 'v1.example.com', rules: v1Rule })], stubs: { 'v1.example.com': stub.allow() } });
    expect(await h.admit(review.create(hpa()))).toBeAllowed();
    const request = h.stub('v1.example.com').received[0]!.request!;
    expect([request.kind, request.resource, request.requestKind, request.requestResource]).toEqual([
      { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
      { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
      { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
      { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
    ]);
    // Decoded at v2 first (minReplicas defaulted to 1), then converted: the memory metric rides in the annotation.
    expect(request.object).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: expect.objectContaining({
        name: 'web',
        namespace: 'default',
        annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]' },
      }),
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
  });

  it('sends a webhook registered for v2 the v2 object, defaulted as kube decodes it', async () => {
    const v2Rule = [{ ...v1Rule[0]!, apiVersions: ['v2'] }];
    const h = await harness({ manifests: [validating('hpa', { name: 'v2.example.com', rules: v2Rule })], stubs: { 'v2.example.com': stub.allow() } });
    expect(await h.admit(review.create(hpa()))).toBeAllowed();
    const object = h.stub('v2.example.com').received[0]!.request!.object!;
    expect([object.apiVersion, object.spec, object.status]).toEqual([
      'autoscaling/v2',
      { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 5, metrics: [memory, cpu(70)] },
      { desiredReplicas: 0, currentMetrics: null },
    ]);
  });

  it('brings a patch made at v1 back to v2 through the conversion: the annotation’s metric kept, the CPU target changed', async () => {
    const patch = [{ op: 'replace' as const, path: '/spec/targetCPUUtilizationPercentage', value: 50 }];
    const h = await harness({ manifests: [mutating('hpa', { name: 'v1.example.com', rules: v1Rule })], stubs: { 'v1.example.com': stub.patch(patch) } });
    const result = await h.admit(review.create(hpa()));
    expect(result).toBeAllowed();
    expect(result.object!.apiVersion).toBe('autoscaling/v2');
    expect((result.object!.spec as Record<string, unknown>).metrics).toEqual([memory, cpu(50)]);
    expect(result.object!.metadata!.annotations).toBeUndefined();
  });
});
