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

/**
 * podStrategy.CheckGracefulDelete: the grace period a delete gets — the one asked for (or the pod's
 * terminationGracePeriodSeconds, 30 by default), and 0 for a pod never scheduled or already finished.
 */
export function podGracePeriod(pod: JsonRecord, asked: number | undefined): number {
  const spec = objectAt(pod, 'spec');
  const phase = objectAt(pod, 'status').phase;
  if (typeof spec.nodeName !== 'string' || spec.nodeName === '' || phase === 'Failed' || phase === 'Succeeded') return 0;
  return asked ?? (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30);
}
