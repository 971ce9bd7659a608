/**
 * The built-in admission plugins in kube-apiserver's chain, each with the function that says whether it
 * handles a request, for `explain`. Each plugin states that once, beside its code, and its admission
 * takes the same function as its entry test: judged from the request's attributes alone (operation,
 * group/resource, subresource; the object only where the plugin's own gate reads it: a mirror pod, a
 * claim being deleted). No cluster object is read, so a plugin that acts may still find nothing to do
 * (no LimitRange, no quota) or refuse on what it finds. test/plugins/involvement runs the real plugin
 * on a request each side of every answer.
 */
import type { AdmissionAttributes } from '../kube/attributes';
import { isRecord } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { limitRangerInvolvement } from './limit-ranger/applies';
import { namespaceLifecycleInvolvement } from './namespace-lifecycle';
import { podSecurityInvolvement } from './pod-security/involvement';
import { resourceQuotaInvolvement } from './resource-quota/involvement';
import { serviceAccountMutationInvolvement, serviceAccountValidationInvolvement } from './service-account';
import { eventRateLimitInvolvement } from './optional/event-rate-limit';
import { notInvolved, type AdmissionPhase, type Involvement, type InvolvementContext } from './involved';
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

/** ResourceQuota reads kube's attributes with the objects as records. */
function resourceQuota(attributes: AdmissionAttributes): Involvement {
  return resourceQuotaInvolvement({
    ...attributes,
    object: (isRecord(attributes.object) ? attributes.object : null) as JsonRecord | null,
    oldObject: (isRecord(attributes.oldObject) ? attributes.oldObject : null) as JsonRecord | null,
  });
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
  step('PodSecurity', 'validation', podSecurityInvolvement),
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
