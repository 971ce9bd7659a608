import type { JsonRecord } from '../../kube/record';
import { daemonSet, deployment, replicaSet, statefulSet } from './apps';
import { horizontalPodAutoscalerV1, horizontalPodAutoscalerV2 } from './autoscaling';
import { cronJob, job } from './batch';
import { binding, configMap, namespace, node, persistentVolumeClaim, secret, service, serviceAccount } from './core';
import { typed } from './meta';
import { ingress, networkPolicy } from './networking';
import { pod } from './pod';
import { clusterRole, role, roleBinding } from './rbac';

type Defaulter = (object: JsonRecord) => JsonRecord;

// Keyed `apiVersion kind`: defaults belong to one served version.
const DEFAULTERS: Record<string, Defaulter> = {
  'v1 Pod': pod,
  'v1 Service': service,
  'v1 Secret': secret,
  'v1 ConfigMap': configMap,
  'v1 Namespace': namespace,
  'v1 ServiceAccount': serviceAccount,
  'v1 PersistentVolumeClaim': persistentVolumeClaim,
  'v1 Node': node,
  'v1 Binding': binding,
  'apps/v1 Deployment': deployment,
  'apps/v1 ReplicaSet': replicaSet,
  'apps/v1 StatefulSet': statefulSet,
  'apps/v1 DaemonSet': daemonSet,
  'autoscaling/v2 HorizontalPodAutoscaler': horizontalPodAutoscalerV2,
  'autoscaling/v1 HorizontalPodAutoscaler': horizontalPodAutoscalerV1,
  'batch/v1 Job': job,
  'batch/v1 CronJob': cronJob,
  'networking.k8s.io/v1 Ingress': ingress,
  'networking.k8s.io/v1 NetworkPolicy': networkPolicy,
  'rbac.authorization.k8s.io/v1 Role': role,
  'rbac.authorization.k8s.io/v1 ClusterRole': clusterRole,
  'rbac.authorization.k8s.io/v1 RoleBinding': roleBinding,
  'rbac.authorization.k8s.io/v1 ClusterRoleBinding': roleBinding,
};

/**
 * `object` as kube-apiserver decodes it before admission: with the API's defaults (and, for pods,
 * the in-tree admission plugins that run before webhooks), members in Go field order. Kinds without
 * a defaulter only get their metadata put in order.
 */
export function apiDefaults(object: JsonRecord): JsonRecord {
  const defaulter = DEFAULTERS[`${String(object.apiVersion)} ${String(object.kind)}`];
  return defaulter ? defaulter(object) : typed(object, []);
}
