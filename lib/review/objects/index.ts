import { customResource } from './custom/crd';
import { fromYaml, type FromYamlOptions } from './from-yaml';
import { cronJob, job } from './kinds/batch';
import { configMap, namespace, persistentVolumeClaim, secret, service, serviceAccount } from './kinds/core';
import { ingress, networkPolicy } from './kinds/networking';
import { pod } from './kinds/pod';
import { clusterRole, clusterRoleBinding, role, roleBinding } from './kinds/rbac';
import { daemonSet, deployment, replicaSet, statefulSet } from './kinds/workloads';

export type { GenerateOptions, ObjectInput, Shortcuts, WorkloadShortcuts } from './generate';
export type { DeepPartial } from './merge';
export type { PodOptions, OwnedOptions } from './kinds/pod';
export type { CustomResourceOptions } from './custom/crd';
export type { FromYamlOptions } from './from-yaml';

/**
 * Realistic, seeded objects for reviews: `objects.<kind>(overrides?, { seed?, random?, stored? })`.
 * The same seed gives the same object; overrides deep-merge into it (arrays replace, null removes);
 * the API server's defaults are applied as in fixtures/apiserver-captures. `stored: true` gives the
 * object as persisted, for UPDATE and DELETE oldObjects.
 */
export const objects = {
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
