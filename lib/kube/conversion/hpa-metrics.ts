/**
 * An HPA's metric specs and statuses between autoscaling/v1's annotation shape (k8s.io/api/autoscaling/v1
 * `MetricSpec`, `MetricStatus`: the v2beta1 shapes v1 keeps for its round-trip annotations) and the
 * internal one, which is autoscaling/v2's field for field. The rules are kube-apiserver's
 * (k8s.io/kubernetes pkg/apis/autoscaling/v1/conversion.go, `Convert_v1_ObjectMetricSource_To_autoscaling_ObjectMetricSource`
 * and its siblings): a v1 quantity that is not a pointer comes back as "0" when the internal one is unset,
 * and a v1 object or external metric's target type follows which of its values is set.
 */
import type { JsonRecord } from '../record';
import { field, recordField, setField, stringField, struct } from './json-fields';

// resource.Quantity's zero value, as json.Marshal writes it.
const ZERO_QUANTITY = '0';
const quantity = (object: unknown, name: string): unknown => setField(object, name) ?? ZERO_QUANTITY;

const reference = (ref: unknown): JsonRecord =>
  struct([
    ['kind', stringField(ref, 'kind')],
    ['name', stringField(ref, 'name')],
    ['apiVersion', stringField(ref, 'apiVersion'), 'empty'],
  ]);

const identifier = (name: string, selector: unknown): JsonRecord =>
  struct([
    ['name', name],
    ['selector', selector, 'nil'],
  ]);

const target = (type: string, value: unknown, averageValue: unknown, averageUtilization: unknown): JsonRecord =>
  struct([
    ['type', type],
    ['value', value, 'nil'],
    ['averageValue', averageValue, 'nil'],
    ['averageUtilization', averageUtilization, 'nil'],
  ]);

const valueStatus = (value: unknown, averageValue: unknown, averageUtilization: unknown): JsonRecord =>
  struct([
    ['value', value, 'nil'],
    ['averageValue', averageValue, 'nil'],
    ['averageUtilization', averageUtilization, 'nil'],
  ]);

const sources = (metric: unknown) => ({
  object: recordField(metric, 'object'),
  pods: recordField(metric, 'pods'),
  resource: recordField(metric, 'resource'),
  containerResource: recordField(metric, 'containerResource'),
  external: recordField(metric, 'external'),
});

// MetricSpec and MetricStatus: type, then one pointer per source, in the same order in every version.
const metric = (type: string, members: Record<keyof ReturnType<typeof sources>, JsonRecord | undefined>): JsonRecord =>
  struct([
    ['type', type],
    ['object', members.object, 'nil'],
    ['pods', members.pods, 'nil'],
    ['resource', members.resource, 'nil'],
    ['containerResource', members.containerResource, 'nil'],
    ['external', members.external, 'nil'],
  ]);

// A v1 resource or container resource target: Utilization when it names one, else AverageValue.
function resourceTarget(source: JsonRecord): JsonRecord {
  const utilization = setField(source, 'targetAverageUtilization');
  return target(utilization === undefined ? 'AverageValue' : 'Utilization', undefined, setField(source, 'targetAverageValue'), utilization);
}

/** One entry of the `autoscaling.alpha.kubernetes.io/metrics` annotation as the internal (v2-shaped) MetricSpec. */
export function v1MetricSpecToInternal(spec: unknown): JsonRecord {
  const { object, pods, resource, containerResource, external } = sources(spec);
  const average = object && setField(object, 'averageValue');
  const externalValue = external && setField(external, 'targetValue');
  return metric(stringField(spec, 'type'), {
    object: object && {
      describedObject: reference(field(object, 'target')),
      target: target(average === undefined ? 'Value' : 'AverageValue', quantity(object, 'targetValue'), average, undefined),
      metric: identifier(stringField(object, 'metricName'), setField(object, 'selector')),
    },
    pods: pods && {
      metric: identifier(stringField(pods, 'metricName'), setField(pods, 'selector')),
      target: target('AverageValue', undefined, quantity(pods, 'targetAverageValue'), undefined),
    },
    resource: resource && { name: stringField(resource, 'name'), target: resourceTarget(resource) },
    containerResource: containerResource && {
      name: stringField(containerResource, 'name'),
      target: resourceTarget(containerResource),
      container: stringField(containerResource, 'container'),
    },
    external: external && {
      metric: identifier(stringField(external, 'metricName'), setField(external, 'metricSelector')),
      target: target(externalValue === undefined ? 'AverageValue' : 'Value', externalValue, setField(external, 'targetAverageValue'), undefined),
    },
  });
}

/** An internal (v2-shaped) MetricSpec as v1 writes it into the `autoscaling.alpha.kubernetes.io/metrics` annotation. */
export function internalMetricSpecToV1(spec: unknown): JsonRecord {
  const { object, pods, resource, containerResource, external } = sources(spec);
  const targetOf = (source: JsonRecord) => recordField(source, 'target');
  const metricOf = (source: JsonRecord) => recordField(source, 'metric');
  const resourceMembers = (source: JsonRecord): [string, unknown, 'nil'?][] => [
    ['name', stringField(source, 'name')],
    ['targetAverageUtilization', setField(targetOf(source), 'averageUtilization'), 'nil'],
    ['targetAverageValue', setField(targetOf(source), 'averageValue'), 'nil'],
  ];
  return metric(stringField(spec, 'type'), {
    object:
      object &&
      struct([
        ['target', reference(field(object, 'describedObject'))],
        ['metricName', stringField(metricOf(object), 'name')],
        ['targetValue', quantity(targetOf(object), 'value')],
        ['selector', setField(metricOf(object), 'selector'), 'nil'],
        ['averageValue', setField(targetOf(object), 'averageValue'), 'nil'],
      ]),
    pods:
      pods &&
      struct([
        ['metricName', stringField(metricOf(pods), 'name')],
        ['targetAverageValue', quantity(targetOf(pods), 'averageValue')],
        ['selector', setField(metricOf(pods), 'selector'), 'nil'],
      ]),
    resource: resource && struct(resourceMembers(resource)),
    containerResource: containerResource && struct([...resourceMembers(containerResource), ['container', stringField(containerResource, 'container')]]),
    external:
      external &&
      struct([
        ['metricName', stringField(metricOf(external), 'name')],
        ['metricSelector', setField(metricOf(external), 'selector'), 'nil'],
        ['targetValue', setField(targetOf(external), 'value'), 'nil'],
        ['targetAverageValue', setField(targetOf(external), 'averageValue'), 'nil'],
      ]),
  });
}

/** One entry of the `autoscaling.alpha.kubernetes.io/current-metrics` annotation as the internal (v2-shaped) MetricStatus. */
export function v1MetricStatusToInternal(status: unknown): JsonRecord {
  const { object, pods, resource, containerResource, external } = sources(status);
  const resourceCurrent = (source: JsonRecord) =>
    valueStatus(undefined, quantity(source, 'currentAverageValue'), setField(source, 'currentAverageUtilization'));
  return metric(stringField(status, 'type'), {
    object: object && {
      metric: identifier(stringField(object, 'metricName'), setField(object, 'selector')),
      current: valueStatus(quantity(object, 'currentValue'), setField(object, 'averageValue'), undefined),
      describedObject: reference(field(object, 'target')),
    },
    pods: pods && {
      metric: identifier(stringField(pods, 'metricName'), setField(pods, 'selector')),
      current: valueStatus(undefined, quantity(pods, 'currentAverageValue'), undefined),
    },
    resource: resource && { name: stringField(resource, 'name'), current: resourceCurrent(resource) },
    containerResource: containerResource && {
      name: stringField(containerResource, 'name'),
      current: resourceCurrent(containerResource),
      container: stringField(containerResource, 'container'),
    },
    external: external && {
      metric: identifier(stringField(external, 'metricName'), setField(external, 'metricSelector')),
      current: valueStatus(quantity(external, 'currentValue'), setField(external, 'currentAverageValue'), undefined),
    },
  });
}

/** An internal (v2-shaped) MetricStatus as v1 writes it into the `autoscaling.alpha.kubernetes.io/current-metrics` annotation. */
export function internalMetricStatusToV1(status: unknown): JsonRecord {
  const { object, pods, resource, containerResource, external } = sources(status);
  const currentOf = (source: JsonRecord) => recordField(source, 'current');
  const metricOf = (source: JsonRecord) => recordField(source, 'metric');
  const resourceMembers = (source: JsonRecord): [string, unknown, 'nil'?][] => [
    ['name', stringField(source, 'name')],
    ['currentAverageUtilization', setField(currentOf(source), 'averageUtilization'), 'nil'],
    ['currentAverageValue', quantity(currentOf(source), 'averageValue')],
  ];
  return metric(stringField(status, 'type'), {
    object:
      object &&
      struct([
        ['target', reference(field(object, 'describedObject'))],
        ['metricName', stringField(metricOf(object), 'name')],
        ['currentValue', quantity(currentOf(object), 'value')],
        ['selector', setField(metricOf(object), 'selector'), 'nil'],
        ['averageValue', setField(currentOf(object), 'averageValue'), 'nil'],
      ]),
    pods:
      pods &&
      struct([
        ['metricName', stringField(metricOf(pods), 'name')],
        ['currentAverageValue', quantity(currentOf(pods), 'averageValue')],
        ['selector', setField(metricOf(pods), 'selector'), 'nil'],
      ]),
    resource: resource && struct(resourceMembers(resource)),
    containerResource: containerResource && struct([...resourceMembers(containerResource), ['container', stringField(containerResource, 'container')]]),
    external:
      external &&
      struct([
        ['metricName', stringField(metricOf(external), 'name')],
        ['metricSelector', setField(metricOf(external), 'selector'), 'nil'],
        ['currentValue', quantity(currentOf(external), 'value')],
        ['currentAverageValue', setField(currentOf(external), 'averageValue'), 'nil'],
      ]),
  });
}
