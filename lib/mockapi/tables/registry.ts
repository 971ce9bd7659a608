import type { CatalogEntry } from '../../kube/catalog';
import type { JsonObject } from '../../kube/json';
import { isBuiltin } from '../store';
import { customResourceConverter, DEFAULT_CONVERTER, fromPrinter, type TableConverter } from './converters';
import type { Printer } from './printer';
import * as admission from './printers-admission';
import { horizontalPodAutoscalers } from './printers-autoscaling';
import * as cluster from './printers-cluster';
import * as control from './printers-control';
import * as core from './printers-core';
import * as endpoints from './printers-endpoints';
import * as legacy from './printers-legacy';
import { pods } from './printers-pods';
import * as policy from './printers-policy';
import * as dra from './printers-resource';
import * as storage from './printers-storage';
import * as workloads from './printers-workloads';

/*
 * Which TableConvertor serves a resource. Built-in resources use kube's printers (printers.go AddHandlers) where
 * their registry sets one, DefaultTableConvertor where it does not; custom resources use their CRD version's
 * columns. A built-in resource kube prints with a handler the mock API does not have gets no Table at all, so
 * negotiation passes over the Table and answers with the next media type the client accepts.
 */

/**
 * events.k8s.io/v1 Events are stored as core Events and printed by the same handler: the fields it reads,
 * under their core names (the conversion in kubernetes pkg/apis/events/v1).
 */
function asCoreEvent(event: JsonObject): JsonObject {
  const { regarding, note, deprecatedFirstTimestamp, deprecatedLastTimestamp, deprecatedCount, deprecatedSource, reportingController, ...rest } = event;
  return {
    ...rest,
    ...(regarding !== undefined ? { involvedObject: regarding } : {}),
    ...(note !== undefined ? { message: note } : {}),
    ...(deprecatedFirstTimestamp !== undefined ? { firstTimestamp: deprecatedFirstTimestamp } : {}),
    ...(deprecatedLastTimestamp !== undefined ? { lastTimestamp: deprecatedLastTimestamp } : {}),
    ...(deprecatedCount !== undefined ? { count: deprecatedCount } : {}),
    ...(deprecatedSource !== undefined ? { source: deprecatedSource } : {}),
    ...(reportingController !== undefined ? { reportingComponent: reportingController } : {}),
  };
}

const PRINTERS: Readonly<Record<string, Printer>> = {
  '/configmaps': core.configMaps,
  '/secrets': core.secrets,
  '/serviceaccounts': core.serviceAccounts,
  '/namespaces': core.namespaces,
  '/services': core.services,
  '/persistentvolumeclaims': core.persistentVolumeClaims,
  '/pods': pods,
  '/podtemplates': legacy.podTemplates,
  '/replicationcontrollers': legacy.replicationControllers,
  '/persistentvolumes': legacy.persistentVolumes,
  'policy/poddisruptionbudgets': policy.podDisruptionBudgets,
  'networking.k8s.io/networkpolicies': policy.networkPolicies,
  'networking.k8s.io/ingressclasses': policy.ingressClasses,
  'rbac.authorization.k8s.io/rolebindings': policy.roleBindings,
  'rbac.authorization.k8s.io/clusterrolebindings': policy.clusterRoleBindings,
  'scheduling.k8s.io/priorityclasses': policy.priorityClasses,
  'storage.k8s.io/storageclasses': policy.storageClasses,
  '/nodes': cluster.nodes,
  '/events': cluster.events,
  'events.k8s.io/events': { columns: cluster.events.columns, row: (object, now) => cluster.events.row(asCoreEvent(object), now) },
  'networking.k8s.io/ingresses': cluster.ingresses,
  'coordination.k8s.io/leases': cluster.leases,
  'apps/deployments': workloads.deployments,
  'apps/replicasets': workloads.replicaSets,
  'apps/statefulsets': workloads.statefulSets,
  'apps/daemonsets': workloads.daemonSets,
  'batch/jobs': workloads.jobs,
  'batch/cronjobs': workloads.cronJobs,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': admission.mutatingWebhookConfigurations,
  'admissionregistration.k8s.io/validatingwebhookconfigurations': admission.validatingWebhookConfigurations,
  'admissionregistration.k8s.io/validatingadmissionpolicies': admission.validatingAdmissionPolicies,
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': admission.validatingAdmissionPolicyBindings,
  'admissionregistration.k8s.io/mutatingadmissionpolicies': admission.mutatingAdmissionPolicies,
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': admission.mutatingAdmissionPolicyBindings,
  '/endpoints': endpoints.endpoints,
  'discovery.k8s.io/endpointslices': endpoints.endpointSlices,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalers,
  '/resourcequotas': control.resourceQuotas,
  '/componentstatuses': control.componentStatuses,
  'apps/controllerrevisions': control.controllerRevisions,
  'certificates.k8s.io/certificatesigningrequests': control.certificateSigningRequests,
  'flowcontrol.apiserver.k8s.io/flowschemas': control.flowSchemas,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': control.priorityLevelConfigurations,
  'storage.k8s.io/volumeattachments': storage.volumeAttachments,
  'storage.k8s.io/csinodes': storage.csiNodes,
  'storage.k8s.io/csidrivers': storage.csiDrivers,
  'storage.k8s.io/csistoragecapacities': storage.csiStorageCapacities,
  'node.k8s.io/runtimeclasses': storage.runtimeClasses,
  'networking.k8s.io/servicecidrs': endpoints.serviceCIDRs,
  'networking.k8s.io/ipaddresses': endpoints.ipAddresses,
  'resource.k8s.io/deviceclasses': dra.deviceClasses,
  'resource.k8s.io/resourceclaims': dra.resourceClaims,
  'resource.k8s.io/resourceclaimtemplates': dra.resourceClaimTemplates,
  'apiregistration.k8s.io/apiservices': control.apiServices,
};

/** Built-in resources kube-apiserver prints with a handler of printers.go this mock lacks. */
const UNPRINTED = new Set([
  'certificates.k8s.io/clustertrustbundles',
  'coordination.k8s.io/leasecandidates',
  'storage.k8s.io/volumeattributesclasses',
  'internal.apiserver.k8s.io/storageversions',
  'resource.k8s.io/resourceslices',
  'storagemigration.k8s.io/storageversionmigrations',
]);

/** The TableConvertor of `entry`, or undefined when the mock API cannot make kube's Table of it. */
export function converterFor(entry: CatalogEntry): TableConverter | undefined {
  if (!isBuiltin(entry)) return customResourceConverter(entry.printerColumns);
  const key = `${entry.group}/${entry.resource}`;
  const printer = PRINTERS[key];
  if (printer) return fromPrinter(printer);
  return UNPRINTED.has(key) ? undefined : DEFAULT_CONVERTER;
}
