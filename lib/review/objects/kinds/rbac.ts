import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { Gen } from '../faker';
import { generator, metadataOf } from '../generate';
import type { JsonObject } from '../json';
import { appName } from '../names';

const RBAC = 'rbac.authorization.k8s.io';

// Rules as operators and apps commonly ask for them.
function rules(gen: Gen): JsonObject[] {
  return gen.faker.helpers.arrayElements(
    [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['secrets'], resourceNames: [`${appName(gen)}-credentials`], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list'] },
      { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: ['get', 'list', 'watch', 'patch'] },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ],
    { min: 1, max: 3 },
  );
}

function subject(gen: Gen, namespace: string): JsonObject {
  return gen.pick([
    { kind: 'ServiceAccount', name: appName(gen), namespace },
    { kind: 'User', name: gen.faker.internet.email().toLowerCase() },
    { kind: 'Group', name: gen.pick(['developers', 'sre', 'oidc:platform-team']) },
  ]);
}

export const role = generator<Role>((gen, shortcuts) => ({
  apiVersion: `${RBAC}/v1`,
  kind: 'Role',
  metadata: metadataOf(shortcuts, { name: `${appName(gen)}-${gen.pick(['reader', 'editor', 'leader-election'])}`, namespace: 'default' }),
  rules: rules(gen),
}));

export const clusterRole = generator<ClusterRole>((gen, shortcuts) => {
  const aggregate = gen.chance(0.2) ? { [`${RBAC}/aggregate-to-${gen.pick(['view', 'edit', 'admin'])}`]: 'true' } : undefined;
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: metadataOf(
      { ...shortcuts, namespace: undefined },
      { name: `${appName(gen)}-${gen.pick(['viewer', 'manager', 'metrics'])}`, ...(aggregate ? { labels: aggregate } : {}) },
    ),
    rules: [...rules(gen), ...(gen.chance(0.3) ? [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }] : [])],
  };
});

export const roleBinding = generator<RoleBinding>((gen, shortcuts) => {
  const namespace = shortcuts.namespace ?? 'default';
  const kind = gen.pick(['Role', 'ClusterRole']);
  const roleName = kind === 'ClusterRole' ? gen.pick(['view', 'edit', 'admin']) : `${appName(gen)}-reader`;
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: metadataOf(shortcuts, { name: `${roleName}-binding`, namespace }),
    subjects: [subject(gen, namespace)],
    roleRef: { apiGroup: RBAC, kind, name: roleName },
  };
});

export const clusterRoleBinding = generator<ClusterRoleBinding>((gen, shortcuts) => {
  const roleName = `${appName(gen)}-viewer`;
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: metadataOf({ ...shortcuts, namespace: undefined }, { name: roleName }),
    subjects: [subject(gen, 'default')],
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName },
  };
});
