/**
 * Whether each built-in admission plugin the harness runs handles a request, judged from the request's
 * attributes alone (operation, group/resource, subresource; the object only where the plugin's own
 * gate reads it: a mirror pod, a claim being deleted), for `explain`. No cluster object is read, so a
 * plugin that acts may still find nothing to do (no LimitRange, no quota) or refuse on what it finds.
 *
 * Each predicate restates its plugin's entry test (the file named beside it); test/plugins/involvement
 * runs the real plugin on a request each side of every predicate, so the two cannot drift apart.
 */
import type { AdmissionAttributes } from '../kube/attributes';
import { isRecord } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { limitRangerInvolvement } from './limit-ranger/applies';
import { namespaceLifecycleInvolvement } from './namespace-lifecycle';
import { IGNORED_POD_SUBRESOURCES } from './pod-security/admission';
import { hasPodSpec } from './pod-security/pod-spec-extractor';
import { objectCountName } from './resource-quota/evaluator';
import { evaluatorFor, isIgnoredByQuota } from './resource-quota/registry';
import { serviceAccountMutationInvolvement, serviceAccountValidationInvolvement } from './service-account';
import { eventRateLimitInvolvement } from './optional/event-rate-limit';
import { acts, notInvolved, type AdmissionPhase, type Involvement, type InvolvementContext } from './involved';
import { taintNodesByConditionInvolvement } from './taint-nodes-by-condition';
import { defaultTolerationSecondsInvolvement } from './default-toleration-seconds';
import { defaultStorageClassInvolvement } from './default-storage-class';
import { defaultIngressClassInvolvement } from './default-ingress-class';
import { storageObjectInUseProtectionInvolvement } from './storage-object-in-use-protection';
import { pvcResizeInvolvement } from './pvc-resize';
import { limitPodHardAntiAffinityTopologyInvolvement } from './optional/limit-pod-hard-anti-affinity-topology';
import { extendedResourceTolerationInvolvement } from './optional/extended-resource-toleration';
import { priorityMutationInvolvement, priorityValidationInvolvement } from './priority-class-exists';
import { runtimeClassInvolvement } from './runtime-class';
import { alwaysPullImagesInvolvement } from './optional/always-pull-images';
import { podNodeSelectorInvolvement } from './optional/pod-node-selector';
import { podTolerationRestrictionInvolvement } from './optional/pod-toleration-restriction';
import { ownerReferencesPermissionEnforcementInvolvement } from './optional/owner-references-permission-enforcement';
import { podTopologyLabelsInvolvement } from './optional/pod-topology-labels';
import { denyServiceExternalIPsInvolvement } from './optional/deny-service-external-ips';

export type { AdmissionPhase, Involvement, InvolvementContext } from './involved';

/** One built-in plugin in one phase of kube-apiserver's chain. */
export interface PluginStep {
  /** As `--enable-admission-plugins` spells it. */
  plugin: string;
  phase: AdmissionPhase;
  /** Where it runs: with the built-in plugins before the phase's policies and webhooks, or after the validating webhooks (ResourceQuota). */
  position: 'before-webhooks' | 'after-webhooks';
  judge(attributes: AdmissionAttributes, context: InvolvementContext): Involvement;
}

const isCore = (attributes: AdmissionAttributes, resource: string): boolean => attributes.resource.group === '' && attributes.resource.resource === resource;
const isNamespaceKind = (attributes: AdmissionAttributes): boolean => attributes.kind.group === '' && attributes.kind.kind === 'Namespace';

/** pod-security/admission.ts `podSecurityAdmit`: pods enforced, workloads' templates warned and audited, namespaces' labels validated. */
function podSecurity(attributes: AdmissionAttributes): Involvement {
  const { operation, subResource } = attributes;
  if (operation !== 'CREATE' && operation !== 'UPDATE') return notInvolved('looks only at creates and updates');
  if (isCore(attributes, 'namespaces')) {
    if (subResource !== '') return notInvolved(`namespaces/${subResource} is not checked`);
    return acts(
      operation === 'CREATE'
        ? 'refuses invalid pod-security.kubernetes.io labels'
        : 'refuses invalid pod-security.kubernetes.io labels; a stricter enforce level warns about the pods already there',
    );
  }
  if (isCore(attributes, 'pods')) {
    if (IGNORED_POD_SUBRESOURCES.has(subResource)) return notInvolved(`pods/${subResource} cannot change what it checks`);
    return acts("judges the pod against the namespace's Pod Security levels: enforce refuses, audit annotates, warn warns");
  }
  if (hasPodSpec(attributes.resource)) {
    if (subResource !== '') return notInvolved(`${attributes.resource.resource}/${subResource}: only the workload itself is checked`);
    return acts("audits and warns about the pod template against the namespace's Pod Security levels (never refuses)");
  }
  return notInvolved('neither a pod, a workload with a pod template, nor a namespace');
}

// What each core evaluator charges (resource-quota/registry.ts); every other resource is counted.
const QUOTA_CHARGES: Readonly<Record<string, string>> = {
  pods: "the pod's count, requests and limits",
  services: 'the service, its load balancers and node ports',
  persistentvolumeclaims: "the claim's count and storage request",
};

/** resource-quota/quota-admit.ts `quotaAdmit`, up to the quotas it reads. */
function resourceQuota(attributes: AdmissionAttributes): Involvement {
  const { operation, subResource, resource } = attributes;
  if (operation !== 'CREATE' && operation !== 'UPDATE') return notInvolved('quota counts only creates and updates');
  if (attributes.namespace === '') return notInvolved('cluster-scoped: quotas are per namespace');
  if (operation === 'CREATE' && isNamespaceKind(attributes)) return notInvolved("a namespace's creation is never charged");
  if (isIgnoredByQuota(resource)) return notInvolved('events are never counted');
  const handled = evaluatorFor(resource).handles({
    operation,
    resource,
    subResource,
    kind: attributes.kind,
    namespace: attributes.namespace,
    object: (isRecord(attributes.object) ? attributes.object : null) as JsonRecord | null,
    oldObject: (isRecord(attributes.oldObject) ? attributes.oldObject : null) as JsonRecord | null,
  });
  if (!handled) {
    if (subResource !== '') return notInvolved(`${resource.resource}/${subResource} changes no quota usage`);
    if (isCore(attributes, 'pods')) return notInvolved('a pod update is charged only when it becomes or stops being terminating');
    return notInvolved('an update changes no object count');
  }
  const charges = resource.group === '' ? QUOTA_CHARGES[resource.resource] : undefined;
  return acts(`charges ${charges ?? objectCountName(resource)} to the namespace's ResourceQuotas (if it has any)`);
}

const step = (plugin: string, phase: AdmissionPhase, judge: PluginStep['judge'], position: PluginStep['position'] = 'before-webhooks'): PluginStep => ({
  plugin,
  phase,
  position,
  judge,
});

/**
 * The built-in plugins in kube-apiserver's order (AllOrderedPlugins in k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go), as the harness
 * runs them: mutation-phase.ts MUTATION_PLUGINS after NamespaceLifecycle, then MutatingAdmissionPolicies
 * and the mutating webhooks; validation-phase.ts runValidationPlugins, then ValidatingAdmissionPolicies,
 * the validating webhooks and ResourceQuota last.
 */
export const PLUGIN_CHAIN: readonly PluginStep[] = [
  step('NamespaceLifecycle', 'mutation', namespaceLifecycleInvolvement),
  step('LimitRanger', 'mutation', limitRangerInvolvement('mutation')),
  step('ServiceAccount', 'mutation', serviceAccountMutationInvolvement),
  step('TaintNodesByCondition', 'mutation', taintNodesByConditionInvolvement),
  step('AlwaysPullImages', 'mutation', alwaysPullImagesInvolvement('mutation')),
  step('PodNodeSelector', 'mutation', podNodeSelectorInvolvement('mutation')),
  step('Priority', 'mutation', priorityMutationInvolvement),
  step('DefaultTolerationSeconds', 'mutation', defaultTolerationSecondsInvolvement),
  step('PodTolerationRestriction', 'mutation', podTolerationRestrictionInvolvement('mutation')),
  step('ExtendedResourceToleration', 'mutation', extendedResourceTolerationInvolvement),
  step('DefaultStorageClass', 'mutation', defaultStorageClassInvolvement),
  step('StorageObjectInUseProtection', 'mutation', storageObjectInUseProtectionInvolvement),
  step('RuntimeClass', 'mutation', runtimeClassInvolvement('mutation')),
  step('DefaultIngressClass', 'mutation', defaultIngressClassInvolvement),
  step('PodTopologyLabels', 'mutation', podTopologyLabelsInvolvement),
  step('LimitPodHardAntiAffinityTopology', 'validation', limitPodHardAntiAffinityTopologyInvolvement),
  step('LimitRanger', 'validation', limitRangerInvolvement('validation')),
  step('ServiceAccount', 'validation', serviceAccountValidationInvolvement),
  step('AlwaysPullImages', 'validation', alwaysPullImagesInvolvement('validation')),
  step('PodSecurity', 'validation', podSecurity),
  step('PodNodeSelector', 'validation', podNodeSelectorInvolvement('validation')),
  step('Priority', 'validation', priorityValidationInvolvement),
  step('PodTolerationRestriction', 'validation', podTolerationRestrictionInvolvement('validation')),
  step('EventRateLimit', 'validation', eventRateLimitInvolvement),
  step('OwnerReferencesPermissionEnforcement', 'validation', ownerReferencesPermissionEnforcementInvolvement),
  step('PersistentVolumeClaimResize', 'validation', pvcResizeInvolvement),
  step('RuntimeClass', 'validation', runtimeClassInvolvement('validation')),
  step('DenyServiceExternalIPs', 'validation', denyServiceExternalIPsInvolvement),
  step('ResourceQuota', 'validation', resourceQuota, 'after-webhooks'),
];

/** Whether `plugin` handles `attributes` in `phase`; a plugin that has no part in that phase is not involved. */
export function pluginInvolvement(plugin: string, phase: AdmissionPhase, attributes: AdmissionAttributes, context: InvolvementContext = {}): Involvement {
  const found = PLUGIN_CHAIN.find((s) => s.plugin === plugin && s.phase === phase);
  return found ? found.judge(attributes, context) : notInvolved(`${plugin} has no part in the ${phase} phase`);
}
