import type { KubeObject } from '../kube/admission';
import type { JsonRecord } from '../kube/record';
import { extractPodTemplate } from '../plugins/pod-security';
import type { CallOrAdmit } from './subject';

/**
 * The pod a result leaves, as PodSecurity would judge it: `h.call()`: the object after the webhook's
 * patch (as the API decodes and defaults it), for an allowed answer; `h.admit()`: the admitted object.
 * A workload gives its pod template; any other kind, a denial or a DELETE gives none.
 */
export function podOf(subject: CallOrAdmit): { metadata: JsonRecord; spec: JsonRecord } | undefined {
  let object: KubeObject | null | undefined;
  let resource: { group: string; resource: string } | undefined;
  if (subject.source === 'admit') {
    object = subject.admit.object;
  } else {
    const call = subject.call;
    if (!call.allowed || call.error) return undefined;
    object = call.patched?.ok ? call.patched.object : call.review.request?.object;
    resource = call.review.request?.resource;
  }
  if (!object) return undefined;
  const record = object as JsonRecord;
  if (object.kind === 'Pod' || resource?.resource === 'pods')
    return { metadata: (record.metadata ?? {}) as JsonRecord, spec: (record.spec ?? {}) as JsonRecord };
  const group = (object.apiVersion ?? '').includes('/') ? (object.apiVersion ?? '').split('/')[0]! : '';
  const plural = {
    Deployment: 'deployments',
    DaemonSet: 'daemonsets',
    StatefulSet: 'statefulsets',
    ReplicaSet: 'replicasets',
    ReplicationController: 'replicationcontrollers',
    Job: 'jobs',
    CronJob: 'cronjobs',
    PodTemplate: 'podtemplates',
  }[object.kind ?? ''];
  return plural ? extractPodTemplate({ group, resource: plural }, record) : undefined;
}
