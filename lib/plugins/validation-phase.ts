import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { isNamespaceResource } from '../kube/gvr';
import type { JsonRecord } from '../kube/record';
import { admissionForbidden } from '../kube/status';
import { limitRangerHandles, limitRangerValidate } from './limit-ranger';
import type { PluginCluster } from './plugin';
import { podSecurityAdmit, type PodSecurityConfiguration } from './pod-security';
import { priorityClassValidate } from './priority-class-exists';
import { pvcResizeValidate } from './pvc-resize';
import { runtimeClassValidate } from './runtime-class';
import { serviceAccountValidate } from './service-account';

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

/**
 * The validation phase's built-in plugins before the admission policies and webhooks, in
 * kube-apiserver's order (k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go), on the object as the registry will store it: LimitRanger's
 * min/max/ratio checks, ServiceAccount (the account still exists, mountable secrets), then PodSecurity (the namespace's enforce level refuses, warn warns, audit
 * annotates), Priority (one globalDefault PriorityClass), PersistentVolumeClaimResize and RuntimeClass. `enabled` names the plugins on; `podSecurity` is the plugin's configuration (its
 * defaults and exemptions), kube's defaults when omitted.
 */
export function runValidationPlugins(attributes: AdmissionAttributes, cluster: ValidationCluster, enabled: ReadonlySet<string>, podSecurity?: PodSecurityConfiguration): ValidationPluginsResult {
  const result: ValidationPluginsResult = { warnings: [], auditAnnotations: {} };
  const object = attributes.object;
  if (enabled.has('LimitRanger') && object && attributes.namespace && limitRangerHandles({ operation: attributes.operation, kind: attributes.kind, subResource: attributes.subResource, oldObject: attributes.oldObject as JsonRecord | null })) {
    const ranges = cluster.list('v1', 'LimitRange', attributes.namespace) as unknown as JsonRecord[];
    const cause = ranges.length > 0 ? limitRangerValidate(object as JsonRecord, attributes.resource.resource, ranges) : undefined;
    if (cause) return { ...result, refusal: { plugin: 'LimitRanger', status: admissionForbidden(attributes, cause) } };
  }
  if (enabled.has('ServiceAccount')) {
    const status = serviceAccountValidate(attributes, cluster);
    if (status) return { ...result, refusal: { plugin: 'ServiceAccount', status } };
  }
  if (enabled.has('PodSecurity')) {
    // A namespace's own requests are judged in that namespace (the plugin's create handler sets it).
    const namespace = isNamespaceResource(attributes.resource) ? attributes.name : attributes.namespace;
    const namespaceObject = namespace ? cluster.namespaceObject(namespace) : undefined;
    const decision = podSecurityAdmit({
      attributes: { ...attributes, namespace },
      namespaceLabels: namespaceObject ? (namespaceObject.metadata?.labels ?? {}) : null,
      ...(podSecurity ? { configuration: podSecurity } : {}),
      ...(isNamespaceResource(attributes.resource) && attributes.operation === 'UPDATE' && namespace ? { existingPods: cluster.list('v1', 'Pod', namespace) as unknown as JsonRecord[] } : {}),
    });
    result.warnings.push(...decision.warnings);
    Object.assign(result.auditAnnotations, decision.auditAnnotations);
    if (!decision.allowed && decision.status) return { ...result, refusal: { plugin: 'PodSecurity', status: decision.status } };
  }
  // Then Priority, PersistentVolumeClaimResize and RuntimeClass, in that order.
  const later: [string, (attributes: AdmissionAttributes, cluster: PluginCluster) => Status | undefined][] = [
    ['Priority', priorityClassValidate],
    ['PersistentVolumeClaimResize', pvcResizeValidate],
    ['RuntimeClass', runtimeClassValidate],
  ];
  for (const [plugin, validate] of later) {
    if (!enabled.has(plugin)) continue;
    const status = validate(attributes, cluster);
    if (status) return { ...result, refusal: { plugin, status } };
  }
  return result;
}
