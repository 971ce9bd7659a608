import type { Json, JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, nameCell } from './columns';
import { list, optional, text } from './fields';
import { isObject } from '../../kube/json';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for the admission configuration kinds:
 * printMutatingWebhook, printValidatingWebhook, printValidatingAdmissionPolicy(Binding) and
 * printMutatingAdmissionPolicy(Binding). Their column descriptions are literal texts in AddHandlers.
 */

const webhooks: Printer = {
  columns: [NAME_COLUMN, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), list(object, 'webhooks').length, ageCell(object, now)] }),
};
export const mutatingWebhookConfigurations = webhooks;
export const validatingWebhookConfigurations = webhooks;

const PARAM_KIND = column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy');

/** `apiVersion/kind` of spec.paramKind, `<unset>` without one. */
function paramKind(policy: JsonObject): string {
  const kind = optional(policy, 'spec', 'paramKind');
  return kind === undefined ? '<unset>' : `${text(kind, 'apiVersion')}/${text(kind, 'kind')}`;
}

export const validatingAdmissionPolicies: Printer = {
  columns: [
    NAME_COLUMN,
    column('Validations', 'integer', 'Validations indicates the number of validation rules defined in this configuration'),
    PARAM_KIND,
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), list(object, 'spec', 'validations').length, paramKind(object), ageCell(object, now)] }),
};

export const mutatingAdmissionPolicies: Printer = {
  columns: [
    NAME_COLUMN,
    column('Mutations', 'integer', 'Mutation indicates the number of mutations rules defined in this configuration'),
    PARAM_KIND,
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), list(object, 'spec', 'mutations').length, paramKind(object), ageCell(object, now)] }),
};

/**
 * `(*metav1.LabelSelector).String()`, the generated protobuf stringer printers.go calls on a paramRef selector:
 * `&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{…},}`.
 */
function labelSelectorStringer(selector: Json): string {
  const labels = isObject(selector) && isObject(selector.matchLabels) ? selector.matchLabels : {};
  const pairs = Object.keys(labels)
    .sort()
    .map((key) => `${key}: ${String(labels[key])},`)
    .join('');
  const requirements = list(selector, 'matchExpressions')
    .map((r) => `LabelSelectorRequirement{Key:${text(r, 'key')},Operator:${text(r, 'operator')},Values:[${list(r, 'values').join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${pairs}},MatchExpressions:[]LabelSelectorRequirement{${requirements}},}`;
}

/** The binding's param: `namespace/name`, `*\/name` without a namespace, the selector, or `<unset>`. */
function paramRef(binding: JsonObject): string {
  const ref = optional(binding, 'spec', 'paramRef');
  if (ref === undefined) return '<unset>';
  const refName = text(ref, 'name');
  if (refName) return text(ref, 'namespace') ? `${text(ref, 'namespace')}/${refName}` : `*/${refName}`;
  const selector = optional(ref, 'selector');
  return selector === undefined ? '<unset>' : labelSelectorStringer(selector);
}

const binding: Printer = {
  columns: [
    NAME_COLUMN,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'spec', 'policyName'), paramRef(object), ageCell(object, now)] }),
};
export const validatingAdmissionPolicyBindings = binding;
export const mutatingAdmissionPolicyBindings = binding;
