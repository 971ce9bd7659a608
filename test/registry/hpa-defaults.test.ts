import { apiDefaults } from '../../lib/registry/defaults';

/*
 * A HorizontalPodAutoscaler decoded at its version: autoscaling/v2 SetDefaults_HorizontalPodAutoscaler and
 * v1's (k8s.io/kubernetes pkg/apis/autoscaling/v2/defaults.go, v1/defaults.go), then held as the internal version.
 */

const REF = { kind: 'Deployment', name: 'web' };

describe('autoscaling/v2 defaults', () => {
  it('sets minReplicas 1 and a CPU utilization of 80 when no metric is given, and writes the zero status', () => {
    const object = apiDefaults({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'a' },
      spec: { scaleTargetRef: REF, maxReplicas: 2 },
    });
    expect(object).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v2',
      metadata: { name: 'a' },
      spec: {
        scaleTargetRef: REF,
        minReplicas: 1,
        maxReplicas: 2,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
      },
      status: { desiredReplicas: 0, currentMetrics: null },
    });
  });

  it('fills both directions of a behavior given, each unset member from the default rules (scale-down without a window)', () => {
    const behavior = { scaleDown: { policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], tolerance: '50m' } };
    const object = apiDefaults({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: REF, maxReplicas: 2, behavior } });
    expect((object.spec as Record<string, unknown>).behavior).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }], tolerance: '50m' },
    });
  });

  it('drops the round-trip annotations a client sent, as the decode to the internal version does', () => {
    const metadata = { name: 'a', annotations: { 'autoscaling.alpha.kubernetes.io/behavior': '{}', team: 'x' } };
    const object = apiDefaults({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata, spec: { scaleTargetRef: REF, maxReplicas: 2 } });
    expect((object.metadata as Record<string, unknown>).annotations).toEqual({ team: 'x' });
  });
});

describe('autoscaling/v1 defaults', () => {
  it('sets minReplicas 1, and a v1 HPA without a target holds the 80 v1 implies', () => {
    const object = apiDefaults({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', spec: { scaleTargetRef: REF, maxReplicas: 2 } });
    expect([object.spec, object.status]).toEqual([
      { scaleTargetRef: REF, minReplicas: 1, maxReplicas: 2, targetCPUUtilizationPercentage: 80 },
      { currentReplicas: 0, desiredReplicas: 0 },
    ]);
  });
});
