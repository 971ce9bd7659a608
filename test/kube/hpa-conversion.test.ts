import type { KubeObject } from '../../lib/kube/admission';
import { convertBuiltinObject } from '../../lib/kube/conversion';

/*
 * HorizontalPodAutoscaler between autoscaling/v2 and autoscaling/v1 as kube-apiserver's conversion
 * functions convert it (k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go, v2/conversion.go).
 */

const V1 = { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' };
const V2 = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' };
const META = { name: 'web', namespace: 'shop' };
const REF = { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' };

const toV1 = (object: KubeObject) => convertBuiltinObject(object, V1)!;
const toV2 = (object: KubeObject) => convertBuiltinObject(object, V2)!;
const cpu = (utilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });

const v2 = (
  spec: Record<string, unknown>,
  status: Record<string, unknown> = { desiredReplicas: 0, currentMetrics: null },
  metadata: Record<string, unknown> = META,
) => ({
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v2',
  metadata,
  spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 5, ...spec },
  status,
});

const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } };
const pods = { type: 'Pods', pods: { metric: { name: 'packets' }, target: { type: 'AverageValue', averageValue: '1k' } } };
const object = {
  type: 'Object',
  object: {
    describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' },
    target: { type: 'Value', value: '10k' },
    metric: { name: 'requests' },
  },
};
const external = {
  type: 'External',
  external: { metric: { name: 'queue', selector: { matchLabels: { queue: 'jobs' } } }, target: { type: 'AverageValue', averageValue: '30' } },
};
const container = { type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 }, container: 'app' } };
const behavior = {
  scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] },
  scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }], tolerance: '50m' },
};
const status = {
  observedGeneration: 2,
  lastScaleTime: '2026-01-01T00:00:00Z',
  currentReplicas: 3,
  desiredReplicas: 4,
  currentMetrics: [
    { type: 'Resource', resource: { name: 'cpu', current: { averageValue: '250m', averageUtilization: 55 } } },
    { type: 'Pods', pods: { metric: { name: 'packets' }, current: { averageValue: '900' } } },
  ],
  conditions: [
    {
      type: 'AbleToScale',
      status: 'True',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      reason: 'ReadyForNewScale',
      message: 'recommended size matches current size',
    },
  ],
};

describe('autoscaling/v2 to v1', () => {
  it('turns a CPU utilization target into targetCPUUtilizationPercentage, with no annotation', () => {
    expect(toV1(v2({ metrics: [cpu(70)] }))).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: META,
      spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
  });

  it('writes every other metric to autoscaling.alpha.kubernetes.io/metrics as v1 metric specs, in Go field order', () => {
    const converted = toV1(v2({ metrics: [memory, cpu(70), pods, object, external, container] }));
    expect((converted.spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBe(70);
    expect(converted.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/metrics':
        '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}},' +
        '{"type":"Pods","pods":{"metricName":"packets","targetAverageValue":"1k"}},' +
        '{"type":"Object","object":{"target":{"kind":"Ingress","name":"main","apiVersion":"networking.k8s.io/v1"},"metricName":"requests","targetValue":"10k"}},' +
        '{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"queue":"jobs"}},"targetAverageValue":"30"}},' +
        '{"type":"ContainerResource","containerResource":{"name":"cpu","targetAverageUtilization":60,"container":"app"}}]',
    });
  });

  it('keeps a v2 HPA without a CPU utilization target without targetCPUUtilizationPercentage', () => {
    expect((toV1(v2({ metrics: [memory] })).spec as Record<string, unknown>).targetCPUUtilizationPercentage).toBeUndefined();
  });

  it('writes the behavior as the internal Go type marshals it (Go field names, nil pointers as null)', () => {
    const converted = toV1(v2({ metrics: [cpu(80)], behavior: { scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } } }));
    expect(converted.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/behavior':
        '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":null,"Policies":[{"Type":"Pods","Value":1,"PeriodSeconds":60}],"Tolerance":null}}',
    });
  });

  it('writes the current metrics (the CPU one too) and the conditions to annotations, and the last CPU utilization to the status', () => {
    const converted = toV1(v2({ metrics: [cpu(80)] }, status));
    expect(converted.status).toEqual({
      observedGeneration: 2,
      lastScaleTime: '2026-01-01T00:00:00Z',
      currentReplicas: 3,
      desiredReplicas: 4,
      currentCPUUtilizationPercentage: 55,
    });
    expect(converted.metadata!.annotations).toEqual({
      'autoscaling.alpha.kubernetes.io/conditions':
        '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"recommended size matches current size"}]',
      'autoscaling.alpha.kubernetes.io/current-metrics':
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":55,"currentAverageValue":"250m"}},' +
        '{"type":"Pods","pods":{"metricName":"packets","currentAverageValue":"900"}}]',
    });
  });

  it('drops round-trip annotations the v2 object carried and keeps the others, sorted', () => {
    const metadata = { ...META, annotations: { z: '1', 'autoscaling.alpha.kubernetes.io/metrics': '[]', a: '2' } };
    expect(toV1(v2({ metrics: [cpu(80)] }, undefined, metadata)).metadata).toEqual({ ...META, annotations: { a: '2', z: '1' } });
  });

  it('escapes <, > and & in annotations as Go json.Marshal does', () => {
    const selector = { matchLabels: { app: 'a&b' } };
    const converted = toV1(v2({ metrics: [{ type: 'Pods', pods: { metric: { name: 'x', selector }, target: { type: 'AverageValue', averageValue: '1' } } }] }));
    expect(converted.metadata!.annotations!['autoscaling.alpha.kubernetes.io/metrics']).toContain('"app":"a\\u0026b"');
  });
});

describe('autoscaling/v1 to v2', () => {
  const v1 = (
    spec: Record<string, unknown>,
    annotations?: Record<string, string>,
    v1Status: Record<string, unknown> = { currentReplicas: 0, desiredReplicas: 0 },
  ) => ({
    kind: 'HorizontalPodAutoscaler',
    apiVersion: 'autoscaling/v1',
    metadata: annotations ? { ...META, annotations } : META,
    spec: { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 5, ...spec },
    status: v1Status,
  });

  it('turns targetCPUUtilizationPercentage into a CPU Utilization metric', () => {
    expect(toV2(v1({ targetCPUUtilizationPercentage: 65 }))).toEqual(v2({ metrics: [cpu(65)] }));
  });

  it('gives a v1 HPA without a target the CPU utilization of 80 v1 always implied', () => {
    expect((toV2(v1({})).spec as Record<string, unknown>).metrics).toEqual([cpu(80)]);
  });

  it('reads the metrics annotation before the CPU target, and drops it', () => {
    const annotations = {
      'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"packets","targetAverageValue":"1k"}}]',
      keep: 'me',
    };
    const converted = toV2(v1({ targetCPUUtilizationPercentage: 65 }, annotations));
    expect((converted.spec as Record<string, unknown>).metrics).toEqual([pods, cpu(65)]);
    expect(converted.metadata!.annotations).toEqual({ keep: 'me' });
  });

  it('reads an object metric without averageValue as a Value target and one with it as AverageValue', () => {
    const annotation = JSON.stringify([
      { type: 'Object', object: { target: { kind: 'Ingress', name: 'main' }, metricName: 'rps', targetValue: '10' } },
      { type: 'Object', object: { target: { kind: 'Ingress', name: 'main' }, metricName: 'rps', targetValue: '0', averageValue: '5' } },
    ]);
    const metrics = (toV2(v1({}, { 'autoscaling.alpha.kubernetes.io/metrics': annotation })).spec as Record<string, unknown>).metrics;
    expect(metrics).toEqual([
      { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, target: { type: 'Value', value: '10' }, metric: { name: 'rps' } } },
      {
        type: 'Object',
        object: {
          describedObject: { kind: 'Ingress', name: 'main' },
          target: { type: 'AverageValue', value: '0', averageValue: '5' },
          metric: { name: 'rps' },
        },
      },
    ]);
  });

  it('ignores an annotation that does not decode, as the conversion does', () => {
    const converted = toV2(v1({ targetCPUUtilizationPercentage: 65 }, { 'autoscaling.alpha.kubernetes.io/metrics': '{not json' }));
    expect((converted.spec as Record<string, unknown>).metrics).toEqual([cpu(65)]);
    expect(converted.metadata!.annotations).toBeUndefined();
  });

  // encoding/json: null into a struct leaves its zero value, so `[null]` is one metric of no type, not an error.
  it('reads a null entry of a list annotation as the zero metric, and an entry that is not an object as an annotation that does not decode', () => {
    const metricsOf = (annotation: string) =>
      (toV2(v1({ targetCPUUtilizationPercentage: 65 }, { 'autoscaling.alpha.kubernetes.io/metrics': annotation })).spec as Record<string, unknown>).metrics;
    expect(metricsOf('[null]')).toEqual([{ type: '' }, cpu(65)]);
    expect(metricsOf('[1]')).toEqual([cpu(65)]);
  });

  it('reads the behavior annotation back into spec.behavior, Go field names matched without regard to case', () => {
    const annotation = '{"scaleup":{"StabilizationWindowSeconds":10,"SelectPolicy":"Max","Policies":null,"Tolerance":"10m"},"ScaleDown":null}';
    const converted = toV2(v1({}, { 'autoscaling.alpha.kubernetes.io/behavior': annotation }));
    expect((converted.spec as Record<string, unknown>).behavior).toEqual({
      scaleUp: { stabilizationWindowSeconds: 10, selectPolicy: 'Max', tolerance: '10m' },
    });
  });

  it('reads the status: the CPU utilization, then the current-metrics and conditions annotations', () => {
    const converted = toV2(v1({}, undefined, { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 }));
    expect(converted.status).toEqual({
      currentReplicas: 2,
      desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }],
    });
  });
});

describe('round trips (kube converts every field through the annotations and back)', () => {
  it('v2 -> v1 -> v2 gives the v2 object back: metrics, behavior, current metrics and conditions', () => {
    const original = v2({ metrics: [memory, cpu(70), pods, object, external, container], behavior }, status);
    const back = toV2(toV1(original));
    // The CPU target comes back last: v1 holds it in its own field, read after the annotation's metrics.
    expect(back).toEqual(v2({ metrics: [memory, pods, object, external, container, cpu(70)], behavior }, status));
  });

  it('v2 -> v1 -> v2 gives an object whose only metric is the CPU target back exactly', () => {
    const original = v2({ metrics: [cpu(70)] }, status);
    expect(toV2(toV1(original))).toEqual(original);
  });

  it('v1 -> v2 -> v1 gives the v1 object back, annotations included', () => {
    const original = toV1(v2({ metrics: [memory, cpu(70), pods], behavior }, status));
    expect(toV1(toV2(original))).toEqual(original);
  });

  it('leaves an object already at the version asked for as it is, and converts no other kind', () => {
    const original = v2({ metrics: [cpu(70)] });
    expect(toV2(original)).toBe(original);
    expect(convertBuiltinObject({ apiVersion: 'apps/v1', kind: 'Deployment' }, { group: 'apps', version: 'v1beta1', kind: 'Deployment' })).toBeUndefined();
    expect(convertBuiltinObject(original, { group: 'autoscaling', version: 'v2beta2', kind: 'HorizontalPodAutoscaler' })).toBeUndefined();
  });
});
