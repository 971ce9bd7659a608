import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { integer, list, optional, text } from './fields';
import { formatLabelSelector } from './format';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for access and policy kinds: printRoleBinding and
 * printClusterRoleBinding (rbac.SubjectsStrings), printPodDisruptionBudget, printNetworkPolicy,
 * printIngressClass, printPriorityClass and printStorageClass.
 */

/** rbac.SubjectsStrings: users, groups and service accounts (`namespace/name`), each `, `-joined. */
function subjects(binding: JsonObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const subject of list(binding, 'subjects')) {
    const kind = text(subject, 'kind');
    if (kind === 'ServiceAccount') serviceAccounts.push(`${text(subject, 'namespace')}/${text(subject, 'name')}`);
    else if (kind === 'User') users.push(text(subject, 'name'));
    else if (kind === 'Group') groups.push(text(subject, 'name'));
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

function bindings(roleRefDoc: string, kind: string): Printer {
  return {
    columns: [
      NAME_COLUMN,
      column('Role', 'string', roleRefDoc),
      AGE_COLUMN,
      column('Users', 'string', `Users in the ${kind}`, { priority: 1 }),
      column('Groups', 'string', `Groups in the ${kind}`, { priority: 1 }),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${kind}`, { priority: 1 }),
    ],
    row: (object, now) => ({
      cells: [nameCell(object), `${text(object, 'roleRef', 'kind')}/${text(object, 'roleRef', 'name')}`, ageCell(object, now), ...subjects(object)],
    }),
  };
}
export const roleBindings = bindings(doc('rbac.authorization.k8s.io/v1beta1/RoleBinding', 'roleRef'), 'roleBinding');
export const clusterRoleBindings = bindings(doc('rbac.authorization.k8s.io/v1beta1/ClusterRoleBinding', 'roleRef'), 'clusterRoleBinding');

/** intstr.IntOrString.String: the number in decimal, or the string. */
const intOrString = (value: unknown): string => (typeof value === 'number' ? String(Math.trunc(value)) : typeof value === 'string' ? value : '');

export const podDisruptionBudgets: Printer = {
  columns: [
    NAME_COLUMN,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const minAvailable = optional(object, 'spec', 'minAvailable');
    const maxUnavailable = optional(object, 'spec', 'maxUnavailable');
    return {
      cells: [
        nameCell(object),
        minAvailable === undefined ? 'N/A' : intOrString(minAvailable),
        maxUnavailable === undefined ? 'N/A' : intOrString(maxUnavailable),
        integer(object, 'status', 'disruptionsAllowed'),
        ageCell(object, now),
      ],
    };
  },
};

export const networkPolicies: Printer = {
  columns: [NAME_COLUMN, column('Pod-Selector', 'string', doc('extensions/v1beta1/NetworkPolicySpec', 'podSelector')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), formatLabelSelector(optional(object, 'spec', 'podSelector')), ageCell(object, now)] }),
};

export const ingressClasses: Printer = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const parameters = optional(object, 'spec', 'parameters');
    let shown = '<none>';
    if (parameters !== undefined) {
      const group = optional(parameters, 'apiGroup');
      shown = `${text(parameters, 'kind')}${typeof group === 'string' ? `.${group}` : ''}/${text(parameters, 'name')}`;
    }
    return { cells: [nameCell(object), text(object, 'spec', 'controller'), shown, ageCell(object, now)] };
  },
};

const PRIORITY_CLASS = 'scheduling.k8s.io/v1/PriorityClass';
export const priorityClasses: Printer = {
  columns: [
    NAME_COLUMN,
    column('Value', 'integer', doc(PRIORITY_CLASS, 'value')),
    column('Global-Default', 'boolean', doc(PRIORITY_CLASS, 'globalDefault')),
    AGE_COLUMN,
    column('PreemptionPolicy', 'string', doc(PRIORITY_CLASS, 'preemptionPolicy')),
  ],
  row: (object, now) => ({
    cells: [nameCell(object), integer(object, 'value'), optional(object, 'globalDefault') === true, ageCell(object, now), text(object, 'preemptionPolicy')],
  }),
};

/** storageutil.IsDefaultAnnotation: the GA or the beta is-default-class annotation set to "true". */
function isDefaultClass(storageClass: JsonObject): boolean {
  const annotation = (key: string): unknown => optional(storageClass, 'metadata', 'annotations', key);
  return annotation('storageclass.kubernetes.io/is-default-class') === 'true' || annotation('storageclass.beta.kubernetes.io/is-default-class') === 'true';
}

const STORAGE_CLASS = 'storage.k8s.io/v1/StorageClass';
export const storageClasses: Printer = {
  columns: [
    NAME_COLUMN,
    column('Provisioner', 'string', doc(STORAGE_CLASS, 'provisioner')),
    column('ReclaimPolicy', 'string', doc(STORAGE_CLASS, 'reclaimPolicy')),
    column('VolumeBindingMode', 'string', doc(STORAGE_CLASS, 'volumeBindingMode')),
    column('AllowVolumeExpansion', 'string', doc(STORAGE_CLASS, 'allowVolumeExpansion')),
    AGE_COLUMN,
  ],
  row: (object, now) => ({
    cells: [
      isDefaultClass(object) ? `${nameCell(object)} (default)` : nameCell(object),
      text(object, 'provisioner'),
      text(object, 'reclaimPolicy') || 'Delete',
      text(object, 'volumeBindingMode') || 'Immediate',
      optional(object, 'allowVolumeExpansion') === true,
      ageCell(object, now),
    ],
  }),
};
