import type { JsonRecord } from '../../kube/record';
import { at, each, shape } from '../shape';
import { typed } from './meta';

const RULE = ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'];
const RBAC_GROUP = 'rbac.authorization.k8s.io';

const withRules = (object: JsonRecord) => each(object, 'rules', (rule) => shape(rule, RULE));

export function role(object: JsonRecord): JsonRecord {
  return typed(withRules(object), ['rules']);
}

export function clusterRole(object: JsonRecord): JsonRecord {
  return typed(withRules(object), ['rules', 'aggregationRule']);
}

const emptyString = (value: unknown) => value === undefined || value === null || value === '';

/**
 * SetDefaults_Subject (users and groups are in the RBAC group; service accounts in the core group) and
 * SetDefaults_RoleBinding / SetDefaults_ClusterRoleBinding (an empty roleRef.apiGroup is the RBAC
 * group).
 */
export function roleBinding(object: JsonRecord): JsonRecord {
  const subjects = each(object, 'subjects', (subject) => {
    const inRbacGroup = emptyString(subject.apiGroup) && (subject.kind === 'User' || subject.kind === 'Group');
    return shape(inRbacGroup ? { ...subject, apiGroup: RBAC_GROUP } : subject, ['kind', 'apiGroup', 'name', 'namespace']);
  });
  const withRef = at(subjects, 'roleRef', (ref) => shape(emptyString(ref.apiGroup) ? { ...ref, apiGroup: RBAC_GROUP } : ref, ['apiGroup', 'kind', 'name']));
  return typed(withRef, ['subjects', 'roleRef']);
}
