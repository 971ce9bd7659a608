import { didYouMean } from '../nearest-name';
import { isRecord } from '../kube/json';

/**
 * The fields of admissionregistration.k8s.io webhook configurations, for strict decoding: what kubectl's
 * server-side field validation (`strict decoding error: unknown field …`) refuses, the harness refuses at
 * load, naming the field and the nearest known one.
 */
export type Shape = 'value' | 'map' | { fields: Record<string, Shape> } | { items: Shape };

const fields = (shape: Record<string, Shape>): Shape => ({ fields: shape });
const list = (items: Shape): Shape => ({ items });

const OBJECT_META = fields({
  name: 'value',
  generateName: 'value',
  namespace: 'value',
  selfLink: 'value',
  uid: 'value',
  resourceVersion: 'value',
  generation: 'value',
  creationTimestamp: 'value',
  deletionTimestamp: 'value',
  deletionGracePeriodSeconds: 'value',
  labels: 'map',
  annotations: 'map',
  ownerReferences: 'value',
  finalizers: 'value',
  managedFields: 'value',
});

const LABEL_SELECTOR = fields({ matchLabels: 'map', matchExpressions: list(fields({ key: 'value', operator: 'value', values: 'value' })) });

const RULE_FIELDS: Record<string, Shape> = { operations: 'value', apiGroups: 'value', apiVersions: 'value', resources: 'value', scope: 'value' };

const VALIDATING_WEBHOOK: Record<string, Shape> = {
  name: 'value',
  clientConfig: fields({ url: 'value', service: fields({ namespace: 'value', name: 'value', path: 'value', port: 'value' }), caBundle: 'value' }),
  rules: list(fields(RULE_FIELDS)),
  failurePolicy: 'value',
  matchPolicy: 'value',
  namespaceSelector: LABEL_SELECTOR,
  objectSelector: LABEL_SELECTOR,
  sideEffects: 'value',
  timeoutSeconds: 'value',
  admissionReviewVersions: 'value',
  matchConditions: list(fields({ name: 'value', expression: 'value' })),
};

/** The shape of a configuration of either kind. */
export function configurationShape(mutating: boolean): Shape {
  const webhook = fields(mutating ? { ...VALIDATING_WEBHOOK, reinvocationPolicy: 'value' } : VALIDATING_WEBHOOK);
  return fields({ apiVersion: 'value', kind: 'value', metadata: OBJECT_META, webhooks: list(webhook) });
}

const NAMED_RULE = fields({ ...RULE_FIELDS, resourceNames: 'value' });
const MATCH_RESOURCES = fields({
  namespaceSelector: LABEL_SELECTOR,
  objectSelector: LABEL_SELECTOR,
  resourceRules: list(NAMED_RULE),
  excludeResourceRules: list(NAMED_RULE),
  matchPolicy: 'value',
});
const PARAM_KIND = fields({ apiVersion: 'value', kind: 'value' });
const PARAM_REF = fields({ name: 'value', namespace: 'value', selector: LABEL_SELECTOR, parameterNotFoundAction: 'value' });
const NAMED_EXPRESSIONS = list(fields({ name: 'value', expression: 'value' }));
// status is written by the API (typeChecking, conditions): a manifest may carry it, e.g. from `kubectl get -o yaml`.
const POLICY_STATUS = fields({ observedGeneration: 'value', typeChecking: 'value', conditions: 'value' });

/** A policy or binding object: the common top level around its `spec`. */
const policyObject = (spec: Record<string, Shape>, withStatus: boolean): Shape =>
  fields({ apiVersion: 'value', kind: 'value', metadata: OBJECT_META, spec: fields(spec), ...(withStatus ? { status: POLICY_STATUS } : {}) });

const POLICY_SPEC: Record<string, Shape> = {
  paramKind: PARAM_KIND,
  matchConstraints: MATCH_RESOURCES,
  failurePolicy: 'value',
  matchConditions: NAMED_EXPRESSIONS,
  variables: NAMED_EXPRESSIONS,
};
const BINDING_SPEC: Record<string, Shape> = { policyName: 'value', paramRef: PARAM_REF, matchResources: MATCH_RESOURCES };

/** ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1). */
export const VALIDATING_POLICY_SHAPE: Shape = policyObject(
  {
    ...POLICY_SPEC,
    validations: list(fields({ expression: 'value', message: 'value', reason: 'value', messageExpression: 'value' })),
    auditAnnotations: list(fields({ key: 'value', valueExpression: 'value' })),
  },
  true,
);

/** ValidatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1). */
export const VALIDATING_BINDING_SHAPE: Shape = policyObject({ ...BINDING_SPEC, validationActions: 'value' }, false);

/** MutatingAdmissionPolicy (admissionregistration.k8s.io/v1, GA in 1.36). */
export const MUTATING_POLICY_SHAPE: Shape = policyObject(
  {
    ...POLICY_SPEC,
    mutations: list(fields({ patchType: 'value', applyConfiguration: fields({ expression: 'value' }), jsonPatch: fields({ expression: 'value' }) })),
    reinvocationPolicy: 'value',
  },
  true,
);

/** MutatingAdmissionPolicyBinding (admissionregistration.k8s.io/v1). */
export const MUTATING_BINDING_SHAPE: Shape = policyObject(BINDING_SPEC, false);

/** Every field of `value` that `shape` does not declare: `[path, message]`, the message naming the nearest known field. */
export function unknownFields(value: unknown, shape: Shape, path = ''): { path: string; message: string }[] {
  if (shape === 'value' || shape === 'map') return [];
  if ('items' in shape) return Array.isArray(value) ? value.flatMap((item, i) => unknownFields(item, shape.items, `${path}[${i}]`)) : [];
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => {
    const here = path ? `${path}.${key}` : key;
    const known = shape.fields[key];
    if (known === undefined) return [{ path: here, message: `unknown field ${JSON.stringify(key)}${didYouMean(key, Object.keys(shape.fields))}` }];
    return unknownFields(member, known, here);
  });
}
