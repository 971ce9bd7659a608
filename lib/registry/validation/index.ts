/**
 * What kube-apiserver's registry checks before it stores an object: the resource strategy's Validate
 * (create) or ValidateUpdate (update), with kube's texts, as the errors of one `422 Invalid` Status
 * (build it with `invalid()` of lib/kube/status.ts). Around the strategy, the generic store adds its own
 * metadata checks (k8s.io/apiserver pkg/registry/rest/create.go BeforeCreate, update.go
 * validateCommonFields): on create only when the strategy found nothing, on update always and first.
 *
 * Kinds with their own rules: Pod, Service, ConfigMap, Secret, Namespace, ServiceAccount,
 * ReplicationController, PodTemplate, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob.
 * Every other built-in kind gets core's ObjectMeta validation with its kind's name rule; custom resources
 * get apimachinery's (DNS-subdomain names, no kube-specific finalizer rule).
 */
import { BUILTIN_RESOURCES } from '../../kube/catalog/builtin';
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import {
  validateDaemonSet,
  validateDaemonSetUpdate,
  validateDeployment,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetUpdate,
  validateStatefulSet,
  validateStatefulSetUpdate,
} from './apps';
import { validateCronJob, validateCronJobUpdate } from './cron-job';
import { validateJob, validateJobUpdate } from './job';
import { validateConfigMap, validateConfigMapUpdate } from './config-map';
import { nameIsDnsSubdomain, nameRuleOf, pathSegmentName } from '../../kube/name-validators';
import { validateNamespace, validateNamespaceUpdate, validateServiceAccount, validateServiceAccountUpdate } from './namespace';
import { metadataOf, validateGenericObjectMeta, validateGenericObjectMetaUpdate, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';
import { validatePodCreate, validatePodUpdate } from './pod';
import { validatePodTemplate, validatePodTemplateUpdate, validateReplicationController, validateReplicationControllerUpdate } from './replication-controller';
import { validateSecret, validateSecretUpdate } from './secret';
import { validateService, validateServiceUpdate } from './service';

export { POD_UPDATE_FORBIDDEN_PREFIX } from './pod';
export { nameRuleOf } from '../../kube/name-validators';
export * as field from '../../kube/field-errors';
export { Path } from '../../kube/field-path';

/** How the simulated kube-apiserver is configured. */
export interface ValidationOptions {
  /** kube-apiserver --allow-privileged; default false (kube-apiserver's own default). */
  allowPrivileged?: boolean;
}

/** The kind being validated and whether it is namespaced. */
export interface KindInfo {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
}

interface Rules {
  create(object: JsonObject, allowPrivileged: boolean): FieldError[];
  update(object: JsonObject, old: JsonObject, allowPrivileged: boolean): FieldError[];
}

const RULES: ReadonlyMap<string, Rules> = new Map<string, Rules>([
  ['/Pod', { create: validatePodCreate, update: validatePodUpdate }],
  ['/Service', { create: validateService, update: validateServiceUpdate }],
  ['/ConfigMap', { create: validateConfigMap, update: validateConfigMapUpdate }],
  ['/Secret', { create: validateSecret, update: validateSecretUpdate }],
  ['/Namespace', { create: validateNamespace, update: validateNamespaceUpdate }],
  ['/ServiceAccount', { create: validateServiceAccount, update: validateServiceAccountUpdate }],
  ['/ReplicationController', { create: validateReplicationController, update: validateReplicationControllerUpdate }],
  ['/PodTemplate', { create: validatePodTemplate, update: validatePodTemplateUpdate }],
  ['apps/Deployment', { create: validateDeployment, update: validateDeploymentUpdate }],
  ['apps/ReplicaSet', { create: validateReplicaSet, update: validateReplicaSetUpdate }],
  ['apps/StatefulSet', { create: validateStatefulSet, update: validateStatefulSetUpdate }],
  ['apps/DaemonSet', { create: validateDaemonSet, update: validateDaemonSetUpdate }],
  ['batch/Job', { create: validateJob, update: validateJobUpdate }],
  ['batch/CronJob', { create: validateCronJob, update: validateCronJobUpdate }],
]);

const METADATA = Path.of('metadata');

/** The API groups kube-apiserver serves itself; every other group is a CustomResourceDefinition's. */
const BUILTIN_GROUPS: ReadonlySet<string> = new Set(BUILTIN_RESOURCES.map((resource) => resource.group));

/**
 * The strategy's rules for `kind`, or plain ObjectMeta validation with the kind's name rule: core's
 * ValidateObjectMeta (which adds validateKubeFinalizerName) for built-in kinds, apimachinery's generic
 * one for custom resources (apiextensions-apiserver pkg/registry/customresource/validator.go).
 */
function rulesOf(kind: KindInfo): Rules {
  const specific = RULES.get(`${kind.group}/${kind.kind}`);
  if (specific) return specific;
  if (BUILTIN_GROUPS.has(kind.group)) {
    return {
      create: (object) => validateObjectMeta(metadataOf(object), kind.namespaced, nameRuleOf(kind), METADATA),
      update: (object, old) => validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
    };
  }
  return {
    create: (object) => validateGenericObjectMeta(metadataOf(object), kind.namespaced, nameIsDnsSubdomain, METADATA),
    update: (object, old) => validateGenericObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA),
  };
}

/**
 * The errors kube-apiserver answers the create of `object` with, in its order; [] when it would be
 * stored. `object` is what the registry validates: decoded, defaulted, prepared by the strategy, with
 * its name already generated from `generateName` (the store does that before validating) and, for a
 * Job, its uid set and selector generated (the Job strategy's PrepareForCreate).
 */
export function validateCreate(kind: KindInfo, object: JsonObject, options: ValidationOptions = {}): FieldError[] {
  const errors = rulesOf(kind).create(object, options.allowPrivileged ?? false);
  if (errors.length > 0) return errors;
  // BeforeCreate: the generic metadata checks run only once the strategy's found nothing.
  return validateGenericObjectMeta(metadataOf(object), kind.namespaced, pathSegmentName, METADATA);
}

/**
 * The errors kube-apiserver answers the update of `old` to `object` with, in its order; [] when it would
 * be stored. `object` is expected after rest.BeforeUpdate's normalisation (generation, uid,
 * creationTimestamp, deletionTimestamp and deletionGracePeriodSeconds carried over from `old`; the
 * resourceVersion filled in for an unconditional update) and the strategy's PrepareForUpdate; errors a
 * caller gets for those members otherwise are what kube would say, but kube never gets to say them.
 */
export function validateUpdate(kind: KindInfo, object: JsonObject, old: JsonObject, options: ValidationOptions = {}): FieldError[] {
  const meta = metadataOf(object);
  // BeforeUpdate's validateCommonFields runs first; the strategy's ValidateUpdate repeats some of it.
  return [
    ...validateGenericObjectMeta(meta, kind.namespaced, pathSegmentName, METADATA),
    ...validateGenericObjectMetaUpdate(meta, metadataOf(old), METADATA),
    ...rulesOf(kind).update(object, old, options.allowPrivileged ?? false),
  ];
}
