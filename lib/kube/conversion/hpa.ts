/**
 * HorizontalPodAutoscaler between autoscaling/v1 and autoscaling/v2, as kube-apiserver's scheme converts
 * it: through the internal version, which is v2 field for field (k8s.io/kubernetes pkg/apis/autoscaling/v2/conversion.go
 * only drops the round-trip annotations, both ways). v1 holds a CPU utilization target only; what it
 * cannot hold is written to annotations going to v1 and read back from them going to internal
 * (pkg/apis/autoscaling/v1/conversion.go `Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler`,
 * `Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler` and the Spec/Status ones).
 * Conversion applies no defaults: those belong to decoding at a version (lib/registry/defaults).
 */
import type { KubeObject } from '../admission';
import { isRecord } from '../json';
import type { JsonRecord } from '../record';
import {
  BEHAVIOR_ANNOTATION,
  behaviorFromAnnotation,
  CONDITIONS_ANNOTATION,
  condition,
  internalBehaviorJson,
  listAnnotation,
  METRIC_SPECS_ANNOTATION,
  METRIC_STATUSES_ANNOTATION,
  sortedAnnotations,
  withoutRoundTrip,
} from './hpa-annotations';
import { internalMetricSpecToV1, internalMetricStatusToV1, v1MetricSpecToInternal, v1MetricStatusToInternal } from './hpa-metrics';
import { field, goJson, recordField, setField, stringField, struct } from './json-fields';

// autoscaling.DefaultCPUUtilization: v1's implicit target, made explicit when converting a v1 HPA without
// metrics, and v2's default metric (lib/registry/defaults/autoscaling.ts).
export const DEFAULT_CPU_UTILIZATION = 80;

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const reference = (ref: unknown): JsonRecord =>
  struct([
    ['kind', stringField(ref, 'kind')],
    ['name', stringField(ref, 'name')],
    ['apiVersion', stringField(ref, 'apiVersion'), 'empty'],
  ]);

/** A Resource metric targeting an average CPU utilization, as v1's field and both defaults write it. */
export const cpuUtilizationMetric = (utilization: unknown): JsonRecord => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } },
});

// A Resource metric on cpu (the target or current value whose averageUtilization v1 can hold).
function cpuResource(metric: unknown): JsonRecord | undefined {
  const resource = recordField(metric, 'resource');
  return field(metric, 'type') === 'Resource' && resource && field(resource, 'name') === 'cpu' ? resource : undefined;
}
const cpuUtilization = (metric: unknown): unknown => setField(recordField(cpuResource(metric), 'target'), 'averageUtilization');

function withAnnotations(metadata: unknown, annotations: Record<string, string> | undefined): JsonRecord {
  const { annotations: _dropped, ...rest } = isRecord(metadata) ? metadata : {};
  return annotations ? { ...rest, annotations } : rest;
}

/** The internal (v2-shaped) HPA an autoscaling/v1 one converts to. */
function internalFromV1(object: KubeObject): JsonRecord {
  const spec = isRecord(object.spec) ? object.spec : {};
  const status = isRecord(object.status) ? object.status : {};
  const annotations = object.metadata?.annotations;
  const target = setField(spec, 'targetCPUUtilizationPercentage');
  let metrics: unknown[] = target === undefined ? [] : [cpuUtilizationMetric(target)];
  const others = listAnnotation(annotations, METRIC_SPECS_ANNOTATION);
  // The annotation's metrics first, then the one the spec's CPU target made.
  if (others) metrics = [...others.map(v1MetricSpecToInternal), ...metrics];
  if (metrics.length === 0) metrics = [cpuUtilizationMetric(DEFAULT_CPU_UTILIZATION)];
  const current = setField(status, 'currentCPUUtilizationPercentage');
  let currentMetrics: unknown[] | undefined =
    current === undefined ? undefined : [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: current } } }];
  // The annotation, when it decodes, replaces them: it has the raw values as well.
  const statuses = listAnnotation(annotations, METRIC_STATUSES_ANNOTATION);
  if (statuses) currentMetrics = statuses.map(v1MetricStatusToInternal);
  const conditions = listAnnotation(annotations, CONDITIONS_ANNOTATION)?.map(condition);
  return {
    metadata: withAnnotations(object.metadata, withoutRoundTrip(annotations)),
    spec: {
      scaleTargetRef: field(spec, 'scaleTargetRef'),
      minReplicas: setField(spec, 'minReplicas'),
      maxReplicas: field(spec, 'maxReplicas'),
      metrics,
      behavior: behaviorFromAnnotation(annotations),
    },
    status: { ...status, currentCPUUtilizationPercentage: undefined, currentMetrics, conditions },
  };
}

/** An internal (v2-shaped) HPA written at autoscaling/v2. */
function v2FromInternal(internal: JsonRecord, kind: string): KubeObject {
  const spec = isRecord(internal.spec) ? internal.spec : {};
  const status = isRecord(internal.status) ? internal.status : {};
  return {
    kind,
    apiVersion: 'autoscaling/v2',
    metadata: internal.metadata as KubeObject['metadata'],
    spec: struct([
      ['scaleTargetRef', reference(field(spec, 'scaleTargetRef'))],
      ['minReplicas', setField(spec, 'minReplicas'), 'nil'],
      ['maxReplicas', field(spec, 'maxReplicas') ?? 0],
      ['metrics', setField(spec, 'metrics'), 'empty'],
      ['behavior', setField(spec, 'behavior'), 'nil'],
    ]),
    status: struct([
      ['observedGeneration', setField(status, 'observedGeneration'), 'nil'],
      ['lastScaleTime', setField(status, 'lastScaleTime'), 'nil'],
      ['currentReplicas', field(status, 'currentReplicas') ?? 0, 'empty'],
      ['desiredReplicas', field(status, 'desiredReplicas') ?? 0],
      // Not omitempty in v2: a nil list is written as null.
      ['currentMetrics', setField(status, 'currentMetrics') ?? null],
      ['conditions', setField(status, 'conditions'), 'empty'],
    ]),
  };
}

/** The annotations v1 writes for what it cannot hold, over the object's own (round-trip ones dropped first). */
function v1Annotations(internal: JsonRecord): Record<string, string> | undefined {
  const spec = isRecord(internal.spec) ? internal.spec : {};
  const status = isRecord(internal.status) ? internal.status : {};
  const annotations: Record<string, string> = { ...withoutRoundTrip(recordField(internal, 'metadata')?.annotations) };
  // Every CPU utilization target is dropped from the list, though v1's field holds the first only.
  const others = list(field(spec, 'metrics')).filter((metric) => cpuUtilization(metric) === undefined);
  if (others.length > 0) annotations[METRIC_SPECS_ANNOTATION] = goJson(others.map(internalMetricSpecToV1));
  // All of them, the CPU one too: its raw value is not in v1's field.
  const currentMetrics = list(field(status, 'currentMetrics'));
  if (currentMetrics.length > 0) annotations[METRIC_STATUSES_ANNOTATION] = goJson(currentMetrics.map(internalMetricStatusToV1));
  const behavior = recordField(spec, 'behavior');
  if (behavior) annotations[BEHAVIOR_ANNOTATION] = goJson(internalBehaviorJson(behavior));
  const conditions = list(field(status, 'conditions'));
  if (conditions.length > 0) annotations[CONDITIONS_ANNOTATION] = goJson(conditions.map(condition));
  return Object.keys(annotations).length === 0 ? undefined : sortedAnnotations(annotations);
}

/** An internal (v2-shaped) HPA written at autoscaling/v1. */
function v1FromInternal(internal: JsonRecord, kind: string): KubeObject {
  const spec = isRecord(internal.spec) ? internal.spec : {};
  const status = isRecord(internal.status) ? internal.status : {};
  const target = list(field(spec, 'metrics'))
    .map(cpuUtilization)
    .find((utilization) => utilization !== undefined);
  // The last CPU current utilization wins: the status conversion does not stop at the first.
  const current = list(field(status, 'currentMetrics'))
    .map((metric) => setField(recordField(cpuResource(metric), 'current'), 'averageUtilization'))
    .filter((utilization) => utilization !== undefined)
    .at(-1);
  return {
    kind,
    apiVersion: 'autoscaling/v1',
    metadata: withAnnotations(internal.metadata, v1Annotations(internal)) as KubeObject['metadata'],
    spec: struct([
      ['scaleTargetRef', reference(field(spec, 'scaleTargetRef'))],
      ['minReplicas', setField(spec, 'minReplicas'), 'nil'],
      ['maxReplicas', field(spec, 'maxReplicas') ?? 0],
      ['targetCPUUtilizationPercentage', target, 'nil'],
    ]),
    status: struct([
      ['observedGeneration', setField(status, 'observedGeneration'), 'nil'],
      ['lastScaleTime', setField(status, 'lastScaleTime'), 'nil'],
      ['currentReplicas', field(status, 'currentReplicas') ?? 0],
      ['desiredReplicas', field(status, 'desiredReplicas') ?? 0],
      ['currentCPUUtilizationPercentage', current, 'nil'],
    ]),
  };
}

/** The HPA versions kube-apiserver 1.36 serves, and so converts between. */
export const HPA_VERSIONS: readonly string[] = ['v2', 'v1'];

/** `object` (an autoscaling/v1 or v2 HorizontalPodAutoscaler) at `version`, converted as kube-apiserver does. */
export function convertHorizontalPodAutoscaler(object: KubeObject, fromVersion: string, version: string): KubeObject {
  const kind = object.kind ?? 'HorizontalPodAutoscaler';
  const internal: JsonRecord =
    fromVersion === 'v1' ? internalFromV1(object) : { ...object, metadata: withAnnotations(object.metadata, withoutRoundTrip(object.metadata?.annotations)) };
  return version === 'v1' ? v1FromInternal(internal, kind) : v2FromInternal(internal, kind);
}
