/**
 * What autoscaling/v1 cannot hold of an HPA rides in annotations (k8s.io/kubernetes pkg/apis/autoscaling/annotations.go):
 * the metrics other than a CPU utilization target, the current metrics, the behavior and the conditions;
 * autoscaling/v2beta2 kept its tolerances the same way. Every conversion drops them from the object it
 * converts (`DropRoundTripHorizontalPodAutoscalerAnnotations`), so only those the conversion to v1 writes
 * are ever seen, and none reach autoscaling/v2 or storage.
 */
import { isRecord } from '../json';
import type { JsonRecord } from '../record';
import { field, parsedAnnotation, setField, stringField, struct } from './json-fields';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.kubernetes.io/current-metrics';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.kubernetes.io/conditions';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.kubernetes.io/behavior';
const TOLERANCE_ANNOTATIONS = ['autoscaling.alpha.kubernetes.io/scale-down-tolerance', 'autoscaling.alpha.kubernetes.io/scale-up-tolerance'];

const ROUND_TRIP = new Set([METRIC_SPECS_ANNOTATION, BEHAVIOR_ANNOTATION, METRIC_STATUSES_ANNOTATION, CONDITIONS_ANNOTATION, ...TOLERANCE_ANNOTATIONS]);

/** The annotations without the round-trip ones, keys sorted as a Go map is written; undefined when none is left (omitempty). */
export function withoutRoundTrip(annotations: unknown): Record<string, string> | undefined {
  if (!isRecord(annotations)) return undefined;
  const kept = Object.entries(annotations).filter(([key]) => !ROUND_TRIP.has(key));
  return kept.length === 0 ? undefined : sortedAnnotations(Object.fromEntries(kept) as Record<string, string>);
}

export function sortedAnnotations(annotations: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A list annotation decoded, or undefined when json.Unmarshal would fail on it (not a list, or an entry
 * neither an object nor null): v1's conversion then leaves the annotation unused. `null` decodes as no
 * entries, and a null entry as the struct's zero value, as json.Unmarshal leaves a struct it reads null into.
 */
export function listAnnotation(annotations: unknown, key: string): unknown[] | undefined {
  const text = isRecord(annotations) ? annotations[key] : undefined;
  if (typeof text !== 'string') return undefined;
  const parsed = parsedAnnotation(text);
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || !parsed.every((entry) => entry === null || isRecord(entry))) return undefined;
  return parsed.map((entry) => entry ?? {});
}

/**
 * A v2 behavior as the behavior annotation holds it: the internal Go type marshalled as it is, which
 * has no json tags, so its members carry the Go field names and every nil pointer is written as null
 * (`Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler`).
 */
export function internalBehaviorJson(behavior: JsonRecord): JsonRecord {
  const rules = (value: unknown) => {
    if (!isRecord(value)) return null;
    const policies = setField(value, 'policies');
    return {
      StabilizationWindowSeconds: setField(value, 'stabilizationWindowSeconds') ?? null,
      SelectPolicy: setField(value, 'selectPolicy') ?? null,
      Policies: Array.isArray(policies)
        ? policies.map((policy) => ({
            Type: stringField(policy, 'type'),
            Value: field(policy, 'value') ?? 0,
            PeriodSeconds: field(policy, 'periodSeconds') ?? 0,
          }))
        : null,
      Tolerance: setField(value, 'tolerance') ?? null,
    };
  };
  return { ScaleUp: rules(field(behavior, 'scaleUp')), ScaleDown: rules(field(behavior, 'scaleDown')) };
}

/**
 * The behavior annotation as the v2 behavior it stands for, or undefined when it does not decode or
 * names neither direction (the conversion keeps a behavior only when it is not the zero struct).
 */
export function behaviorFromAnnotation(annotations: unknown): JsonRecord | undefined {
  const text = isRecord(annotations) ? annotations[BEHAVIOR_ANNOTATION] : undefined;
  if (typeof text !== 'string') return undefined;
  const parsed = parsedAnnotation(text);
  if (parsed !== null && !isRecord(parsed)) return undefined;
  const rules = (value: unknown): JsonRecord | undefined => {
    if (!isRecord(value)) return undefined;
    const policies = setField(value, 'Policies');
    return struct([
      ['stabilizationWindowSeconds', setField(value, 'StabilizationWindowSeconds'), 'nil'],
      ['selectPolicy', setField(value, 'SelectPolicy'), 'nil'],
      [
        'policies',
        Array.isArray(policies)
          ? policies.map((policy) =>
              struct([
                ['type', stringField(policy, 'Type')],
                ['value', field(policy, 'Value') ?? 0],
                ['periodSeconds', field(policy, 'PeriodSeconds') ?? 0],
              ]),
            )
          : undefined,
        'empty',
      ],
      ['tolerance', setField(value, 'Tolerance'), 'nil'],
    ]);
  };
  const scaleUp = rules(field(parsed, 'ScaleUp'));
  const scaleDown = rules(field(parsed, 'ScaleDown'));
  if (!scaleUp && !scaleDown) return undefined;
  return struct([
    ['scaleUp', scaleUp, 'nil'],
    ['scaleDown', scaleDown, 'nil'],
  ]);
}

/** HorizontalPodAutoscalerCondition, the same in v1's annotation, internally and in v2. */
export function condition(value: unknown): JsonRecord {
  return struct([
    ['type', stringField(value, 'type')],
    ['status', stringField(value, 'status')],
    // metav1.Time is a struct: omitempty keeps it, and its zero value is written as null.
    ['lastTransitionTime', setField(value, 'lastTransitionTime') ?? null],
    ['reason', stringField(value, 'reason'), 'empty'],
    ['message', stringField(value, 'message'), 'empty'],
  ]);
}
