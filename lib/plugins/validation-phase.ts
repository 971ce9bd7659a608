import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { isNamespaceResource } from '../kube/gvr';
import type { JsonRecord } from '../kube/record';
import { admissionForbidden } from '../kube/status';
import { limitRangerInvolvement, limitRangerValidate } from './limit-ranger';
import type { PluginCluster } from './plugin';
import { isRecord } from '../kube/json';
import { podSecurityAdmit, type PodSecurityConfiguration } from './pod-security';
import { priorityClassValidate } from './priority-class-exists';
import { pvcResizeValidate } from './pvc-resize';
import { runtimeClassValidate } from './runtime-class';
import { serviceAccountValidate } from './service-account';
import type { Authorizer } from '../authz/authorizer';
import { allowEverything } from '../authz/authorizer';
import type { PluginConfigurations } from './optional/admission-configuration';
import { alwaysPullImagesValidate } from './optional/always-pull-images';
import { denyServiceExternalIPsValidate } from './optional/deny-service-external-ips';
import { readEventRateLimitConfiguration } from './optional/event-rate-limit-configuration';
import { limitPodHardAntiAffinityTopologyValidate } from './optional/limit-pod-hard-anti-affinity-topology';
import { ownerReferencesPermissionEnforcementValidate, type KindResources } from './optional/owner-references-permission-enforcement';
import { podNodeSelectorValidate } from './optional/pod-node-selector';
import { podTolerationRestrictionValidate } from './optional/pod-toleration-restriction';

/** What the validation phase's built-in plugins decided: a refusal (by which plugin), and what they said. */
export interface ValidationPluginsResult {
  refusal?: { plugin: string; status: Status };
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** The cluster as these plugins read it: objects by kind, and the Namespace objects. */
export interface ValidationCluster extends PluginCluster {
  namespaceObject(name: string): KubeObject | undefined;
}

/** What the validation phase's plugins are configured with besides the cluster. */
export interface ValidationOptions {
  /** PodSecurity's configuration (its defaults and exemptions); kube's defaults when omitted. */
  podSecurity?: PodSecurityConfiguration;
  /** The off-by-default plugins' admission configuration. */
  configuration?: PluginConfigurations;
  /** What OwnerReferencesPermissionEnforcement asks; allows everything when omitted. */
  authorizer?: Authorizer;
  /** The resources an owner reference's kind maps to (OwnerReferencesPermissionEnforcement). */
  kindResources?: KindResources;
}

type Check = [plugin: string, validate: (attributes: AdmissionAttributes, object: JsonRecord) => Status | undefined];

/** Runs `checks` of the enabled plugins in order; the first refusal, by which plugin. */
const limitRangerValidation = limitRangerInvolvement('validation');

function firstRefusal(checks: readonly Check[], enabled: ReadonlySet<string>, attributes: AdmissionAttributes): ValidationPluginsResult['refusal'] {
  if (!isRecord(attributes.object)) return undefined;
  for (const [plugin, validate] of checks) {
    if (!enabled.has(plugin)) continue;
    const status = validate(attributes, attributes.object as JsonRecord);
    if (status) return { plugin, status };
  }
  return undefined;
}

/**
 * The validation phase's built-in plugins before the admission policies and webhooks, in
 * kube-apiserver's order (k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go), on the object as the registry will store it: LimitRanger's
 * min/max/ratio checks, ServiceAccount (the account still exists, mountable secrets), then PodSecurity (the namespace's enforce level refuses, warn warns, audit
 * annotates), Priority (one globalDefault PriorityClass), PersistentVolumeClaimResize and RuntimeClass. `enabled` names the plugins on; `podSecurity` is the plugin's configuration (its
 * defaults and exemptions), kube's defaults when omitted.
 */
export function runValidationPlugins(
  attributes: AdmissionAttributes,
  cluster: ValidationCluster,
  enabled: ReadonlySet<string>,
  options: ValidationOptions = {},
): ValidationPluginsResult {
  const result: ValidationPluginsResult = { warnings: [], auditAnnotations: {} };
  const object = attributes.object;
  const { podSecurity, configuration } = options;
  // Enabled with no Configuration, kube-apiserver would not have started: every request says so.
  if (enabled.has('EventRateLimit') && !configuration?.eventRateLimit) readEventRateLimitConfiguration(undefined, 'plugins.configuration');
  const first = firstRefusal([['LimitPodHardAntiAffinityTopology', limitPodHardAntiAffinityTopologyValidate]], enabled, attributes);
  if (first) return { ...result, refusal: first };
  if (enabled.has('LimitRanger') && object && limitRangerValidation(attributes).involved) {
    const ranges = cluster.list('v1', 'LimitRange', attributes.namespace) as unknown as JsonRecord[];
    const cause = ranges.length > 0 ? limitRangerValidate(object as JsonRecord, attributes.resource.resource, ranges) : undefined;
    if (cause) return { ...result, refusal: { plugin: 'LimitRanger', status: admissionForbidden(attributes, cause) } };
  }
  if (enabled.has('ServiceAccount')) {
    const status = serviceAccountValidate(attributes, cluster);
    if (status) return { ...result, refusal: { plugin: 'ServiceAccount', status } };
  }
  const pulls = firstRefusal([['AlwaysPullImages', alwaysPullImagesValidate]], enabled, attributes);
  if (pulls) return { ...result, refusal: pulls };
  if (enabled.has('PodSecurity')) {
    // A namespace's own requests are judged in that namespace (the plugin's create handler sets it).
    const namespace = isNamespaceResource(attributes.resource) ? attributes.name : attributes.namespace;
    const namespaceObject = namespace ? cluster.namespaceObject(namespace) : undefined;
    const decision = podSecurityAdmit({
      attributes: { ...attributes, namespace },
      namespaceLabels: namespaceObject ? (namespaceObject.metadata?.labels ?? {}) : null,
      ...(podSecurity ? { configuration: podSecurity } : {}),
      ...(isNamespaceResource(attributes.resource) && attributes.operation === 'UPDATE' && namespace
        ? { existingPods: cluster.list('v1', 'Pod', namespace) as unknown as JsonRecord[] }
        : {}),
    });
    result.warnings.push(...decision.warnings);
    Object.assign(result.auditAnnotations, decision.auditAnnotations);
    if (!decision.allowed && decision.status) return { ...result, refusal: { plugin: 'PodSecurity', status: decision.status } };
  }
  // Then the rest, in kube-apiserver's order (AllOrderedPlugins).
  const later: Check[] = [
    ['PodNodeSelector', (a, o) => podNodeSelectorValidate(a, o, cluster, configuration)],
    ['Priority', (a) => priorityClassValidate(a, cluster)],
    ['PodTolerationRestriction', (a, o) => podTolerationRestrictionValidate(a, o, cluster, configuration)],
    ['EventRateLimit', (a) => configuration?.eventRateLimit?.validate(a)],
    [
      'OwnerReferencesPermissionEnforcement',
      (a) => ownerReferencesPermissionEnforcementValidate(a, options.authorizer ?? allowEverything, options.kindResources ?? (() => [])),
    ],
    ['PersistentVolumeClaimResize', (a) => pvcResizeValidate(a, cluster)],
    ['RuntimeClass', (a) => runtimeClassValidate(a, cluster)],
    ['DenyServiceExternalIPs', denyServiceExternalIPsValidate],
  ];
  const refusal = firstRefusal(later, enabled, attributes);
  return refusal ? { ...result, refusal } : result;
}
