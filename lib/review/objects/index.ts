import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1.js';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { ConfigMap, Namespace, PersistentVolumeClaim, Pod, Secret, Service, ServiceAccount } from 'kubernetes-types/core/v1.js';
import type { Ingress, NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { KubeObject } from '../../kube/admission';
import { customResource } from './custom/crd';
import { fromYaml, type FromYamlOptions } from './from-yaml';
import { cronJob, job } from './kinds/batch';
import { configMap, namespace, persistentVolumeClaim, secret, service, serviceAccount } from './kinds/core';
import { ingress, networkPolicy } from './kinds/networking';
import { pod } from './kinds/pod';
import { clusterRole, clusterRoleBinding, role, roleBinding } from './kinds/rbac';
import { daemonSet, deployment, replicaSet, statefulSet } from './kinds/workloads';

import type { ObjectGenerator, WorkloadShortcuts } from './generate';
import type { OwnedOptions, PodOptions } from './kinds/pod';

export type { GenerateOptions, ObjectGenerator, ObjectInput, Shortcuts, WorkloadShortcuts } from './generate';
export type { DeepPartial } from './merge';
export type { PodOptions, OwnedOptions } from './kinds/pod';
export type { CustomResourceOptions } from './custom/crd';
export type { FromYamlOptions } from './from-yaml';

/** The object generators, typed here so published declarations name kubernetes-types by a path ESM resolves. */
export interface ObjectGenerators {
  pod: ObjectGenerator<Pod, PodOptions, OwnedOptions>;
  deployment: ObjectGenerator<Deployment, WorkloadShortcuts>;
  replicaSet: ObjectGenerator<ReplicaSet, WorkloadShortcuts, OwnedOptions>;
  statefulSet: ObjectGenerator<StatefulSet, WorkloadShortcuts>;
  daemonSet: ObjectGenerator<DaemonSet, WorkloadShortcuts>;
  job: ObjectGenerator<Job, WorkloadShortcuts, OwnedOptions>;
  cronJob: ObjectGenerator<CronJob, WorkloadShortcuts>;
  service: ObjectGenerator<Service>;
  configMap: ObjectGenerator<ConfigMap>;
  secret: ObjectGenerator<Secret>;
  namespace: ObjectGenerator<Namespace>;
  serviceAccount: ObjectGenerator<ServiceAccount>;
  persistentVolumeClaim: ObjectGenerator<PersistentVolumeClaim>;
  ingress: ObjectGenerator<Ingress>;
  networkPolicy: ObjectGenerator<NetworkPolicy>;
  role: ObjectGenerator<Role>;
  roleBinding: ObjectGenerator<RoleBinding>;
  clusterRole: ObjectGenerator<ClusterRole>;
  clusterRoleBinding: ObjectGenerator<ClusterRoleBinding>;
  /** A custom resource generated from a CustomResourceDefinition's openAPIV3Schema. */
  custom: typeof customResource;
  fromYaml: typeof fromYaml;
  /** `object` as the apiserver stores it (defaults, uid, resourceVersion, creationTimestamp, allocated fields). */
  stored(object: object, options?: Omit<FromYamlOptions, 'stored'>): KubeObject;
}

/**
 * Realistic, seeded objects for reviews: `objects.<kind>(overrides?, { seed?, random?, stored? })`.
 * The same seed gives the same object; overrides deep-merge into it (arrays replace, null removes, and a
 * describing list such as a pod spec's `containers` leaves the generated lists beside it out);
 * the API server's defaults are applied as in fixtures/apiserver-captures. `stored: true` gives the
 * object as persisted, for UPDATE and DELETE oldObjects.
 */
export const objects: ObjectGenerators = {
  pod,
  deployment,
  replicaSet,
  statefulSet,
  daemonSet,
  job,
  cronJob,
  service,
  configMap,
  secret,
  namespace,
  serviceAccount,
  persistentVolumeClaim,
  ingress,
  networkPolicy,
  role,
  roleBinding,
  clusterRole,
  clusterRoleBinding,
  /** A custom resource generated from a CustomResourceDefinition's openAPIV3Schema. */
  custom: customResource,
  fromYaml,
  /** `object` as the apiserver stores it (defaults, uid, resourceVersion, creationTimestamp, allocated fields). */
  stored: (object: object, options: Omit<FromYamlOptions, 'stored'> = {}) => fromYaml(object, { ...options, stored: true }),
};
