import type { KubeObject } from '../../kube/admission';
import { internalShaped } from '../../kube/conversion';
import type { Json, JsonObject } from '../../kube/json';
import { canonicalQuantity, quantityFromJson } from '../../kube/quantity';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { at, integer, list, optional, text } from './fields';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) printHorizontalPodAutoscaler and formatHPAMetrics. The
 * printer reads the internal type, whose metrics are autoscaling/v2's, whatever version the request names: an
 * autoscaling/v1 object is read back through its conversion (pkg/apis/autoscaling/v1/conversion.go), so the
 * metrics its annotation keeps print beside its CPU target.
 */

/** resource.Quantity's String: the canonical form; `<nil>` for a nil pointer. */
export function quantityText(value: Json | undefined): string {
  const quantity = value === undefined || value === null ? undefined : quantityFromJson(value);
  return quantity ? canonicalQuantity(quantity) : value === undefined || value === null ? '<nil>' : '0';
}

/** The spec's metrics and the status's current ones, as the internal type holds them (v2's). */
function metricsOf(object: JsonObject): { specs: Json[]; statuses: Json[] } {
  const hpa = internalShaped(object as KubeObject) as JsonObject;
  return { specs: list(hpa, 'spec', 'metrics'), statuses: list(hpa, 'status', 'currentMetrics') };
}

const percent = (value: Json | undefined): string | undefined => (typeof value === 'number' ? `${Math.trunc(value)}%` : undefined);

/** An Object or External metric: `current/target`, `(avg)` after an average target. */
function valueMetric(spec: Json, status: Json | undefined, source: 'object' | 'external'): string {
  const average = optional(spec, source, 'target', 'averageValue');
  const current = optional(status, source);
  if (average !== undefined) {
    const now =
      current !== undefined && optional(current, 'current', 'averageValue') !== undefined ? quantityText(at(current, 'current', 'averageValue')) : '<unknown>';
    return `${now}/${quantityText(average)} (avg)`;
  }
  const now = current !== undefined ? quantityText(optional(current, 'current', 'value')) : '<unknown>';
  return `${now}/${quantityText(optional(spec, source, 'target', 'value'))}`;
}

/** A Resource or ContainerResource metric: `name: current/target`, utilizations as percentages. */
function resourceMetric(spec: Json, status: Json | undefined, source: 'resource' | 'containerResource'): string {
  const resource = text(spec, source, 'name');
  const average = optional(spec, source, 'target', 'averageValue');
  const current = optional(status, source);
  if (average !== undefined) {
    const now = current !== undefined ? quantityText(optional(current, 'current', 'averageValue')) : '<unknown>';
    return `${resource}: ${now}/${quantityText(average)}`;
  }
  const now = (current !== undefined ? percent(optional(current, 'current', 'averageUtilization')) : undefined) ?? '<unknown>';
  return `${resource}: ${now}/${percent(optional(spec, source, 'target', 'averageUtilization')) ?? '<auto>'}`;
}

function metricText(spec: Json, status: Json | undefined): string {
  switch (text(spec, 'type')) {
    case 'External':
      return valueMetric(spec, status, 'external');
    case 'Object':
      return valueMetric(spec, status, 'object');
    case 'Pods': {
      const current = optional(status, 'pods');
      const now = current !== undefined ? quantityText(optional(current, 'current', 'averageValue')) : '<unknown>';
      return `${now}/${quantityText(optional(spec, 'pods', 'target', 'averageValue'))}`;
    }
    case 'Resource':
      return resourceMetric(spec, status, 'resource');
    case 'ContainerResource':
      return resourceMetric(spec, status, 'containerResource');
    default:
      return '<unknown type>';
  }
}

// formatHPAMetrics shows two metrics, then how many more there are.
const MAX_METRICS = 2;

/** formatHPAMetrics: each metric as `current/target`, `<none>` without metrics. */
function formatMetrics(hpa: JsonObject): string {
  const { specs, statuses } = metricsOf(hpa);
  if (specs.length === 0) return '<none>';
  const texts = specs.map((spec, i) => metricText(spec, statuses[i]));
  const joined = texts.slice(0, MAX_METRICS).join(', ');
  return texts.length > MAX_METRICS ? `${joined} + ${texts.length - MAX_METRICS} more...` : joined;
}

const SPEC = 'autoscaling/v2beta1/HorizontalPodAutoscalerSpec';

export const horizontalPodAutoscalers: Printer = {
  columns: [
    NAME_COLUMN,
    column('Reference', 'string', doc(SPEC, 'scaleTargetRef')),
    column('Targets', 'string', doc(SPEC, 'metrics')),
    column('MinPods', 'string', doc(SPEC, 'minReplicas')),
    column('MaxPods', 'string', doc(SPEC, 'maxReplicas')),
    column('Replicas', 'string', doc('autoscaling/v2beta1/HorizontalPodAutoscalerStatus', 'currentReplicas')),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const minReplicas = optional(object, 'spec', 'minReplicas');
    return {
      cells: [
        nameCell(object),
        `${text(object, 'spec', 'scaleTargetRef', 'kind')}/${text(object, 'spec', 'scaleTargetRef', 'name')}`,
        formatMetrics(object),
        typeof minReplicas === 'number' ? String(Math.trunc(minReplicas)) : '<unset>',
        integer(object, 'spec', 'maxReplicas'),
        integer(object, 'status', 'currentReplicas'),
        ageCell(object, now),
      ],
    };
  },
};
