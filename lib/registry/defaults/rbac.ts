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

/** SetDefaults_Subject: users and groups are in the RBAC group; service accounts in the core group. */
export function roleBinding(object: JsonRecord): JsonRecord {
  const subjects = each(object, 'subjects', (subject) =>
    shape(subject, ['kind', 'apiGroup', 'name', 'namespace'], subject.kind === 'User' || subject.kind === 'Group' ? { apiGroup: RBAC_GROUP } : {}),
  );
  return typed(at(subjects, 'roleRef', (ref) => shape(ref, ['apiGroup', 'kind', 'name'])), ['subjects', 'roleRef']);
}
