import { dns1035LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from '../kube/names';
import { isRecord as isObject } from '../kube/json';
import { MUTATING_BINDING_SHAPE, MUTATING_POLICY_SHAPE, unknownFields, VALIDATING_BINDING_SHAPE, VALIDATING_POLICY_SHAPE, type Shape } from './fields';
import { validateLabelSelector, validateRule, type FieldError } from './validate';

type Json = Record<string, unknown>;
type Add = (path: string, message: string) => void;

const quoted = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION = 5 * 1024;
const CEL_IDENTIFIER = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
// The words cel-go reserves (pkg/apis/admissionregistration/validation `celReserved`).
const CEL_RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/**
 * The create-time validation of a ValidatingAdmissionPolicy (k8s.io/kubernetes
 * pkg/apis/admissionregistration/validation `validateValidatingAdmissionPolicySpec`) after the API's
 * defaults, except the CEL expressions: those are compiled, with their own errors, when the policy is
 * prepared (lib/policy), as matchConditions are.
 */
export function validateValidatingPolicy(policy: Json): FieldError[] {
  const { errors, add, spec, name } = begin(policy, VALIDATING_POLICY_SHAPE);
  if (!spec) return errors;
  validatePolicySpec(spec, add);
  const validations = Array.isArray(spec.validations) ? spec.validations : [];
  const annotations = Array.isArray(spec.auditAnnotations) ? spec.auditAnnotations : [];
  if (validations.length === 0 && annotations.length === 0) {
    add('spec.validations', 'Required value: validations or auditAnnotations must contain at least one item');
    add('spec.auditAnnotations', 'Required value: validations or auditAnnotations must contain at least one item');
  }
  validations.forEach((validation: unknown, i) => validateValidation(validation, `spec.validations[${i}]`, add));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS)
    add('spec.auditAnnotations', `Invalid value: "": must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`);
  const keys = new Set<string>();
  annotations.forEach((annotation: unknown, i) => {
    const at = `spec.auditAnnotations[${i}]`;
    if (!isObject(annotation)) return add(at, 'must be an object');
    const key = typeof annotation.key === 'string' ? annotation.key : '';
    if (name) for (const message of qualifiedNameErrors(`${name}/${key}`)) add(`${at}.key`, `Invalid value: ${JSON.stringify(`${name}/${key}`)}: ${message}`);
    if (keys.has(key)) add(`${at}.key`, `Duplicate value: ${JSON.stringify(key)}`);
    keys.add(key);
    const value = typeof annotation.valueExpression === 'string' ? annotation.valueExpression.trim() : '';
    if (value === '') add(`${at}.valueExpression`, 'Required value: valueExpression is not specified');
    else if (value.length > MAX_VALUE_EXPRESSION) add(`${at}.valueExpression`, `Required value: must not exceed ${MAX_VALUE_EXPRESSION} bytes in length`);
  });
  return errors;
}

function validateVariables(list: unknown, add: Add): void {
  const variables = Array.isArray(list) ? list : [];
  variables.forEach((variable: unknown, i) => {
    const at = `spec.variables[${i}]`;
    if (!isObject(variable)) return add(at, 'must be an object');
    const variableName = typeof variable.name === 'string' ? variable.name : '';
    if (variableName.trim() === '') add(`${at}.name`, 'Required value: name is not specified');
    else if (!CEL_IDENTIFIER.test(variableName) || CEL_RESERVED.has(variableName))
      add(`${at}.name`, `Invalid value: ${JSON.stringify(variableName)}: name is not a valid CEL identifier`);
    if (typeof variable.expression !== 'string' || variable.expression.trim() === '') add(`${at}.expression`, 'Required value: expression is not specified');
  });
}

/** `validateValidatingAdmissionPolicyBindingSpec`. */
export function validateValidatingPolicyBinding(binding: Json): FieldError[] {
  const { errors, add, spec } = begin(binding, VALIDATING_BINDING_SHAPE);
  if (!spec) return errors;
  validateBindingSpec(spec, add);
  validateActions(spec.validationActions, 'spec.validationActions', add);
  return errors;
}

/**
 * `validateMutatingAdmissionPolicySpec` (after the API's defaults), CEL apart as for validating policies:
 * what every policy has, at least one mutation, each with a supported patchType and the expression its
 * patchType names, and reinvocationPolicy among its values.
 */
export function validateMutatingPolicy(policy: Json): FieldError[] {
  const { errors, add, spec } = begin(policy, MUTATING_POLICY_SHAPE);
  if (!spec) return errors;
  validatePolicySpec(spec, add);
  if (spec.reinvocationPolicy !== undefined && spec.reinvocationPolicy !== 'Never' && spec.reinvocationPolicy !== 'IfNeeded') {
    add('spec.reinvocationPolicy', `Unsupported value: ${JSON.stringify(spec.reinvocationPolicy)}: supported values: "IfNeeded", "Never"`);
  }
  const mutations = Array.isArray(spec.mutations) ? spec.mutations : [];
  if (mutations.length === 0) add('spec.mutations', 'Required value: mutations must contain at least one item');
  mutations.forEach((mutation: unknown, i) => {
    const at = `spec.mutations[${i}]`;
    if (!isObject(mutation)) return add(at, 'must be an object');
    const patchType = mutation.patchType;
    if (patchType === undefined || patchType === '') return add(`${at}.patchType`, 'Required value');
    if (patchType !== 'ApplyConfiguration' && patchType !== 'JSONPatch')
      return add(`${at}.patchType`, `Unsupported value: ${JSON.stringify(patchType)}: supported values: "ApplyConfiguration", "JSONPatch"`);
    const field = patchType === 'ApplyConfiguration' ? 'applyConfiguration' : 'jsonPatch';
    const other = patchType === 'ApplyConfiguration' ? 'jsonPatch' : 'applyConfiguration';
    const holder = mutation[field];
    if (!isObject(holder)) add(`${at}.${field}`, `Required value: ${field} is required when patchType is ${patchType}`);
    else if (typeof holder.expression !== 'string' || holder.expression.trim() === '')
      add(`${at}.${field}.expression`, 'Required value: expression is not specified');
    if (mutation[other] !== undefined) add(`${at}.${other}`, `Forbidden: must not be specified when patchType is ${patchType}`);
  });
  return errors;
}

/** `validateMutatingAdmissionPolicyBindingSpec`. */
export function validateMutatingPolicyBinding(binding: Json): FieldError[] {
  const { errors, add, spec } = begin(binding, MUTATING_BINDING_SHAPE);
  if (spec) validateBindingSpec(spec, add);
  return errors;
}

/** Unknown fields, metadata.name, and the spec every policy and binding must have. */
function begin(object: Json, shape: Shape): { errors: FieldError[]; add: Add; spec?: Json; name?: string } {
  const errors: FieldError[] = [...unknownFields(object, shape)];
  const add: Add = (path, message) => void errors.push({ path, message });
  const name = metadataName(object, add);
  const spec = object.spec;
  if (!isObject(spec)) {
    add('spec', 'Required value');
    return { errors, add };
  }
  return { errors, add, spec, ...(name ? { name } : {}) };
}

/** What validating and mutating policies have alike: failurePolicy, paramKind, matchConstraints with resourceRules, variables. */
function validatePolicySpec(spec: Json, add: Add): void {
  if (spec.failurePolicy !== undefined && !FAILURE_POLICIES.includes(spec.failurePolicy as string)) {
    add('spec.failurePolicy', `Unsupported value: ${JSON.stringify(spec.failurePolicy)}: supported values: ${quoted(FAILURE_POLICIES)}`);
  }
  if (spec.paramKind !== undefined) validateParamKind(spec.paramKind, 'spec.paramKind', add);
  if (spec.matchConstraints === undefined || spec.matchConstraints === null) add('spec.matchConstraints', 'Required value');
  else {
    validateMatchResources(spec.matchConstraints, 'spec.matchConstraints', add);
    // At least one resourceRule gives the expressions their type information.
    const rules = isObject(spec.matchConstraints) ? spec.matchConstraints.resourceRules : undefined;
    if (!Array.isArray(rules) || rules.length === 0) add('spec.matchConstraints.resourceRules', 'Required value');
  }
  validateVariables(spec.variables, add);
}

/** What both kinds of binding have: policyName, paramRef, matchResources. */
function validateBindingSpec(spec: Json, add: Add): void {
  const policyName = spec.policyName;
  if (typeof policyName !== 'string' || policyName === '') add('spec.policyName', 'Required value');
  else for (const message of dns1123SubdomainErrors(policyName)) add('spec.policyName', `Invalid value: ${JSON.stringify(policyName)}: ${message}`);
  if (spec.paramRef !== undefined && spec.paramRef !== null) validateParamRef(spec.paramRef, 'spec.paramRef', add);
  if (spec.matchResources !== undefined && spec.matchResources !== null) validateMatchResources(spec.matchResources, 'spec.matchResources', add);
}

function metadataName(object: Json, add: Add): string | undefined {
  const metadata = object.metadata;
  const name = isObject(metadata) && typeof metadata.name === 'string' ? metadata.name : '';
  if (name === '') {
    add('metadata.name', 'Required value: name or generateName is required');
    return undefined;
  }
  for (const message of dns1123SubdomainErrors(name)) add('metadata.name', `Invalid value: ${JSON.stringify(name)}: ${message}`);
  return name;
}

function validateParamKind(paramKind: unknown, at: string, add: Add): void {
  if (!isObject(paramKind)) return add(at, 'must be an object');
  const apiVersion = typeof paramKind.apiVersion === 'string' ? paramKind.apiVersion : '';
  if (apiVersion === '') add(`${at}.apiVersion`, 'Required value');
  else {
    const parts = apiVersion.split('/');
    if (parts.length > 2) add(`${at}.apiVersion`, `Invalid value: ${JSON.stringify(apiVersion)}: unexpected GroupVersion string: ${apiVersion}`);
    else {
      const [group, version] = parts.length === 2 ? (parts as [string, string]) : ['', apiVersion];
      if (group !== '') {
        const problems = dns1123SubdomainErrors(group);
        if (problems.length > 0) add(`${at}.apiVersion`, `Invalid value: ${JSON.stringify(group)}: ${problems.join(',')}`);
      }
      if (version === '') add(`${at}.apiVersion`, `Invalid value: ${JSON.stringify(apiVersion)}: version must be specified`);
      else {
        const problems = dns1035LabelErrors(version);
        if (problems.length > 0) add(`${at}.apiVersion`, `Invalid value: ${JSON.stringify(version)}: ${problems.join(',')}`);
      }
    }
  }
  const kind = typeof paramKind.kind === 'string' ? paramKind.kind : '';
  if (kind === '') add(`${at}.kind`, 'Required value');
  else {
    const problems = dns1035LabelErrors(kind.toLowerCase());
    if (problems.length > 0)
      add(`${at}.kind`, `Invalid value: ${JSON.stringify(kind)}: may have mixed case, but should otherwise match: ${problems.join(',')}`);
  }
}

function validateMatchResources(match: unknown, at: string, add: Add): void {
  if (!isObject(match)) return add(at, 'must be an object');
  if (match.matchPolicy !== undefined && !MATCH_POLICIES.includes(match.matchPolicy as string)) {
    add(`${at}.matchPolicy`, `Unsupported value: ${JSON.stringify(match.matchPolicy)}: supported values: ${quoted(MATCH_POLICIES)}`);
  }
  for (const selector of ['namespaceSelector', 'objectSelector'] as const) {
    if (match[selector] !== undefined && match[selector] !== null) validateLabelSelector(match[selector], `${at}.${selector}`, add);
  }
  for (const list of ['resourceRules', 'excludeResourceRules'] as const) {
    const rules = match[list];
    if (rules === undefined || rules === null) continue;
    if (!Array.isArray(rules)) {
      add(`${at}.${list}`, 'must be a list');
      continue;
    }
    rules.forEach((rule: unknown, i) => {
      const here = `${at}.${list}[${i}]`;
      validateRule(rule, here, add);
      const names = isObject(rule) && Array.isArray(rule.resourceNames) ? rule.resourceNames : [];
      const seen = new Set<string>();
      names.forEach((name: unknown, n) => {
        const text = String(name);
        for (const message of pathSegmentErrors(text)) add(`${here}.resourceNames[${n}]`, `Invalid value: ${JSON.stringify(text)}: ${message}`);
        if (seen.has(text)) add(`${here}.resourceNames[${n}]`, `Duplicate value: ${JSON.stringify(text)}`);
        seen.add(text);
      });
    });
  }
}

function validateValidation(validation: unknown, at: string, add: Add): void {
  if (!isObject(validation)) return add(at, 'must be an object');
  const expression = typeof validation.expression === 'string' ? validation.expression : '';
  if (expression.trim() === '') add(`${at}.expression`, 'Required value: expression is not specified');
  const messageExpression = validation.messageExpression;
  if (typeof messageExpression === 'string' && messageExpression.length > 0 && messageExpression.trim() === '') {
    add(`${at}.messageExpression`, `Invalid value: ${JSON.stringify(messageExpression)}: must be non-empty if specified`);
  }
  const message = validation.message;
  if (typeof message === 'string' && message.length > 0) {
    if (message.trim() === '') add(`${at}.message`, `Invalid value: ${JSON.stringify(message)}: message must be non-empty if specified`);
    else if (/[\n\r]/.test(message.trim())) add(`${at}.message`, `Invalid value: ${JSON.stringify(message)}: message must not contain line breaks`);
  }
  if (validation.reason !== undefined && !REASONS.includes(validation.reason as string)) {
    add(`${at}.reason`, `Unsupported value: ${JSON.stringify(validation.reason)}: supported values: ${quoted(REASONS)}`);
  }
}

function validateParamRef(ref: unknown, at: string, add: Add): void {
  if (!isObject(ref)) return add(at, 'must be an object');
  const name = typeof ref.name === 'string' ? ref.name : '';
  const hasSelector = ref.selector !== undefined && ref.selector !== null;
  if (name !== '') {
    for (const message of pathSegmentErrors(name)) add(`${at}.name`, `Invalid value: ${JSON.stringify(name)}: ${message}`);
    if (hasSelector) add(`${at}.name`, 'Forbidden: name and selector are mutually exclusive');
  }
  if (hasSelector) {
    validateLabelSelector(ref.selector, `${at}.selector`, add);
    if (name !== '') add(`${at}.selector`, 'Forbidden: name and selector are mutually exclusive');
  }
  if (name === '' && !hasSelector) add(at, 'Required value: one of name or selector must be specified');
  const action = ref.parameterNotFoundAction;
  if (action === undefined || action === null || action === '') add(`${at}.parameterNotFoundAction`, 'Required value');
  else if (action !== 'Deny' && action !== 'Allow')
    add(`${at}.parameterNotFoundAction`, `Unsupported value: ${JSON.stringify(action)}: supported values: "Deny", "Allow"`);
}

function validateActions(actions: unknown, at: string, add: Add): void {
  const list = Array.isArray(actions) ? actions : [];
  const seen = new Set<string>();
  list.forEach((action: unknown, i) => {
    const text = String(action);
    if (!ACTIONS.includes(text)) add(`${at}[${i}]`, `Unsupported value: ${JSON.stringify(text)}: supported values: ${quoted(ACTIONS)}`);
    if (seen.has(text)) add(`${at}[${i}]`, `Duplicate value: ${JSON.stringify(text)}`);
    seen.add(text);
  });
  if (seen.has('Deny') && seen.has('Warn')) {
    add(
      at,
      `Invalid value: []admissionregistration.ValidationAction{${list.map((a) => JSON.stringify(String(a))).join(', ')}}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)`,
    );
  }
  if (seen.size === 0) add(at, 'Required value: at least one validation action is required');
}

/** apimachinery `path.ValidatePathSegmentName` (prefix false). */
function pathSegmentErrors(name: string): string[] {
  if (name === '.' || name === '..') return [`may not be '${name}'`];
  const errors: string[] = [];
  for (const illegal of ['/', '%']) if (name.includes(illegal)) errors.push(`may not contain '${illegal}'`);
  return errors;
}
