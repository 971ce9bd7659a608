/**
 * Which requests ResourceQuota charges, before it reads the namespace's quotas. Upstream:
 * `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go` (Validate: create and
 * update only, namespaced objects only, never a namespace's creation) and `controller.go` (Evaluate:
 * ignored resources, then the evaluator's Handles).
 */
import { acts, notInvolved, type Involvement } from '../involved';
import { objectCountName, type QuotaAttributes } from './evaluator';
import { evaluatorFor, isIgnoredByQuota } from './registry';

// What each dedicated evaluator charges (registry.ts), by `<resource>[.<group>]`; every other resource is counted.
const QUOTA_CHARGES: Readonly<Record<string, string>> = {
  pods: "the pod's count, requests and limits",
  services: 'the service, its load balancers and node ports',
  persistentvolumeclaims: "the claim's count and storage request",
  'resourceclaims.resource.k8s.io': "the claim's count and the devices it may take per device class",
};

/** ResourceQuota charges creates and updates of namespaced objects its evaluator handles. */
export function resourceQuotaInvolvement(attributes: QuotaAttributes): Involvement {
  const { operation, resource } = attributes;
  const subResource = attributes.subResource ?? '';
  if (operation !== 'CREATE' && operation !== 'UPDATE') return notInvolved('quota counts only creates and updates');
  if (attributes.namespace === '') return notInvolved('cluster-scoped: quotas are per namespace');
  if (operation === 'CREATE' && attributes.kind?.group === '' && attributes.kind.kind === 'Namespace')
    return notInvolved("a namespace's creation is never charged");
  if (isIgnoredByQuota(resource)) return notInvolved('events are never counted');
  if (!evaluatorFor(resource).handles(attributes)) {
    if (subResource !== '') return notInvolved(`${resource.resource}/${subResource} changes no quota usage`);
    if (resource.group === '' && resource.resource === 'pods') return notInvolved('a pod update is charged only when it becomes or stops being terminating');
    return notInvolved('an update changes no object count');
  }
  const charges = QUOTA_CHARGES[resource.group === '' ? resource.resource : `${resource.resource}.${resource.group}`];
  return acts(`charges ${charges ?? objectCountName(resource)} to the namespace's ResourceQuotas (if it has any)`);
}
