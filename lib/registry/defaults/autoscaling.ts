/**
 * HorizontalPodAutoscaler decoded at autoscaling/v2 or v1: the version's defaulters (k8s.io/kubernetes
 * pkg/apis/autoscaling/v2/defaults.go, v1/defaults.go), then the object as the API holds it, converted to
 * the internal version and back (pkg/apis/autoscaling/v1/conversion.go, v2/conversion.go): a v1 HPA
 * without a target gains v1's implied CPU utilization of 80, and the round-trip annotations are gone.
 */
import type { KubeObject } from '../../kube/admission';
import { convertHorizontalPodAutoscaler, cpuUtilizationMetric, DEFAULT_CPU_UTILIZATION } from '../../kube/conversion/hpa';
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { typed } from './meta';

// v2 defaults.go: what GenerateHPAScaleUpRules / GenerateHPAScaleDownRules start from. Scale-down has no
// stabilization window: the controller's --horizontal-pod-autoscaler-downscale-stabilization applies.
const SCALE_UP_RULES: JsonRecord = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN_RULES: JsonRecord = { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

// copyHPAScalingRules: the defaults, with each member the object sets (not null) over them.
function scalingRules(rules: unknown, defaults: JsonRecord): JsonRecord {
  const result: JsonRecord = structuredClone(defaults);
  if (!isRecord(rules)) return result;
  for (const key of ['selectPolicy', 'stabilizationWindowSeconds', 'policies', 'tolerance']) {
    if (rules[key] !== undefined && rules[key] !== null) result[key] = rules[key];
  }
  // v2 HPAScalingRules' field order; an unset member (the scale-down window) stays out.
  const ordered: JsonRecord = {};
  for (const key of ['stabilizationWindowSeconds', 'selectPolicy', 'policies', 'tolerance']) if (result[key] !== undefined) ordered[key] = result[key];
  return ordered;
}

/** autoscaling/v2 SetDefaults_HorizontalPodAutoscaler. */
function v2Defaults(spec: JsonRecord): JsonRecord {
  const result: JsonRecord = { ...spec };
  if (result.minReplicas === undefined || result.minReplicas === null) result.minReplicas = 1;
  if (!Array.isArray(result.metrics) || result.metrics.length === 0) {
    result.metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  }
  // SetDefaults_HorizontalPodAutoscalerBehavior: a behavior given gets both directions, every unset member defaulted.
  if (isRecord(result.behavior)) {
    result.behavior = {
      scaleUp: scalingRules(result.behavior.scaleUp, SCALE_UP_RULES),
      scaleDown: scalingRules(result.behavior.scaleDown, SCALE_DOWN_RULES),
    };
  }
  return result;
}

/** autoscaling/v1 SetDefaults_HorizontalPodAutoscaler: minReplicas 1. */
function v1Defaults(spec: JsonRecord): JsonRecord {
  return spec.minReplicas === undefined || spec.minReplicas === null ? { ...spec, minReplicas: 1 } : spec;
}

function horizontalPodAutoscaler(version: 'v1' | 'v2'): (object: JsonRecord) => JsonRecord {
  const defaults = version === 'v1' ? v1Defaults : v2Defaults;
  return (object) => {
    const spec = defaults(isRecord(object.spec) ? object.spec : {});
    const converted = convertHorizontalPodAutoscaler({ ...object, spec } as KubeObject, version, version);
    return typed(converted as JsonRecord, ['spec', 'status']);
  };
}

export const horizontalPodAutoscalerV2 = horizontalPodAutoscaler('v2');
export const horizontalPodAutoscalerV1 = horizontalPodAutoscaler('v1');
