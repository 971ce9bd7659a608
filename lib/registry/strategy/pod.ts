import { listAt, objectAt, type JsonRecord } from '../../kube/record';

/** The QoS class the pod strategy records (pkg/apis/core/helper/qos): Guaranteed, Burstable or BestEffort. */
export function qosClass(spec: JsonRecord): string {
  const containers = [...listAt(spec, 'containers'), ...listAt(spec, 'initContainers')];
  const resources = containers.map((c) => objectAt(c, 'resources'));
  const any = resources.some((r) => Object.keys(objectAt(r, 'requests')).length > 0 || Object.keys(objectAt(r, 'limits')).length > 0);
  if (!any) return 'BestEffort';
  const guaranteed = resources.every((r) => {
    const limits = objectAt(r, 'limits');
    const requests = objectAt(r, 'requests');
    return ['cpu', 'memory'].every((name) => limits[name] !== undefined && (requests[name] === undefined || requests[name] === limits[name]));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** podStrategy.PrepareForCreate: a new pod is Pending, with its QoS class. */
export function preparePodForCreate(object: JsonRecord): JsonRecord {
  const status = objectAt(object, 'status');
  return { ...object, status: { phase: 'Pending', ...status, qosClass: status.qosClass ?? qosClass(objectAt(object, 'spec')) } };
}
