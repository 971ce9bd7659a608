// Manifests of which kube-apiserver refuses some on create for their CEL: a webhook configuration, a
// ValidatingAdmissionPolicy and a MutatingAdmissionPolicy whose expressions do not compile, and the CRD
// of static-cost-estimate (recorded on a real kube-apiserver v1.36.2: test/fixtures/apiserver-cel-cost),
// refused for its rule's estimated cost; beside them a webhook configuration kube accepts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

type Json = Record<string, unknown>;

interface Step {
  request: { path: string; body: Json };
  response: { code: number; body: { details?: { causes: { message: string; field: string }[] } } };
}
const recording = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/apiserver-cel-cost/static-cost-estimate.json'), 'utf8')) as { steps: Step[] };
const crdStep = recording.steps.find((step) => step.request.path.endsWith('/customresourcedefinitions'))!;

/** The CRD kube refused (422) for its rule's estimated cost, and the causes of that 422. */
export const COSTLY_CRD = crdStep.request.body;
export const COSTLY_CAUSES = crdStep.response.body.details!.causes;
export const COSTLY = { group: 'cel.example.com', version: 'v1', kind: 'Costly' };

const PODS = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];

const webhookConfiguration = (name: string, webhook: string, path: string, condition: string): Json => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name },
  webhooks: [
    {
      name: webhook,
      clientConfig: { service: { namespace: 'hooks', name: 'hooks', path } },
      rules: PODS,
      namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'hooks'] }] },
      failurePolicy: 'Fail',
      sideEffects: 'None',
      timeoutSeconds: 5,
      admissionReviewVersions: ['v1'],
      matchConditions: [{ name: 'condition', expression: condition }],
    },
  ],
});

/** Accepted: called for pods labelled `deny`. */
export const ACCEPTED_WEBHOOK = webhookConfiguration('accepted-webhook', 'accepted.example.com', '/accepted', "'deny' in object.metadata.labels");
/** Refused: its matchCondition's timestamp literal is invalid. */
export const REFUSED_WEBHOOK = webhookConfiguration('refused-webhook', 'refused.example.com', '/refused', "timestamp('bad') < timestamp(0)");

/** Refused: a regex and a duration literal that do not compile. Were it running, it would deny every pod (failurePolicy Fail). */
export const REFUSED_POLICY: Json = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicy',
  metadata: { name: 'refused-policy' },
  spec: {
    failurePolicy: 'Fail',
    matchConstraints: { resourceRules: PODS },
    validations: [{ expression: "object.spec.x.matches(')')" }, { expression: "duration('1d') > duration('0')" }],
  },
};
export const REFUSED_POLICY_BINDING: Json = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  metadata: { name: 'refused-policy' },
  spec: { policyName: 'refused-policy', validationActions: ['Deny'] },
};

/** Refused: would label every pod `mutated`, but its duration literal does not compile. */
export const REFUSED_MUTATION: Json = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicy',
  metadata: { name: 'refused-mutation' },
  spec: {
    matchConstraints: { resourceRules: PODS },
    mutations: [
      {
        patchType: 'ApplyConfiguration',
        applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"mutated": string(duration('1x'))}}}` },
      },
    ],
  },
};
export const REFUSED_MUTATION_BINDING: Json = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'MutatingAdmissionPolicyBinding',
  metadata: { name: 'refused-mutation' },
  spec: { policyName: 'refused-mutation' },
};

/** Every manifest above, the refused ones among the accepted one. */
export const MIXED = [COSTLY_CRD, ACCEPTED_WEBHOOK, REFUSED_WEBHOOK, REFUSED_POLICY, REFUSED_POLICY_BINDING, REFUSED_MUTATION, REFUSED_MUTATION_BINDING];

/** The documents written to one YAML file (JSON is YAML) in a fresh directory; the caller removes the directory. */
export function manifestFile(documents: readonly unknown[]): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lint-refusals-'));
  const file = path.join(dir, 'manifests.yaml');
  writeFileSync(file, documents.map((document) => JSON.stringify(document)).join('\n---\n'));
  return { dir, file };
}
