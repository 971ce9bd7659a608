import { HarnessError } from '../errors';

/** The kinds kube-apiserver refuses on create for their CEL: an expression that does not compile, a rule estimated too costly. */
export type RefusedKind =
  | 'MutatingWebhookConfiguration'
  | 'ValidatingWebhookConfiguration'
  | 'ValidatingAdmissionPolicy'
  | 'MutatingAdmissionPolicy'
  | 'CustomResourceDefinition';

/**
 * One object of the manifests kube-apiserver answers 422 on create, with the field errors of its Status
 * (`webhooks[0].matchConditions[0].expression: Invalid value: "…": compilation failed: …`). The one source
 * of these texts: the harness's MANIFEST_INVALID error and lint's findings are both written from it.
 */
export interface Refusal {
  kind: RefusedKind;
  /** metadata.name; for a CustomResourceDefinition the version refused, `costly.cel.example.com/v1`. */
  name: string;
  /** Where the object was declared (`deploy/hooks.yaml doc 2 (ValidatingWebhookConfiguration "x")`); a CRD's version as `name`. */
  where: string;
  /** For a webhook configuration: the webhook whose matchConditions the errors are about. */
  webhook?: string;
  /** For a CustomResourceDefinition: the storage its versions share in the catalog, all refused with it. */
  storageKey?: string;
  /** kube's field errors, each `field: text`. */
  errors: readonly string[];
}

const WEBHOOK_KINDS: readonly RefusedKind[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
const POLICY_KINDS: readonly RefusedKind[] = ['ValidatingAdmissionPolicy', 'MutatingAdmissionPolicy'];

/** The field a refusal's error is about: the text before kube's first `: `. */
export function refusedField(error: string): string {
  const colon = error.indexOf(': ');
  return colon < 0 ? error : error.slice(0, colon);
}

/**
 * The MANIFEST_INVALID error createHarness (and the commands that load manifests) throw for objects
 * kube-apiserver would refuse on create: a section per kind of object, each line the object and one of
 * kube's field errors, every refusal at once.
 */
export function refusedError(refusals: readonly Refusal[]): HarnessError {
  const lines = (kinds: readonly RefusedKind[], prefix: (refusal: Refusal) => string) =>
    refusals.filter((refusal) => kinds.includes(refusal.kind)).flatMap((refusal) => refusal.errors.map((error) => `${prefix(refusal)}${error}`));
  const sections = [
    { title: 'invalid CustomResourceDefinition', lines: lines(['CustomResourceDefinition'], (refusal) => `${refusal.name}: `) },
    { title: 'invalid webhook configuration', lines: lines(WEBHOOK_KINDS, (refusal) => `${refusal.where} `) },
    { title: 'invalid admission policy', lines: lines(POLICY_KINDS, (refusal) => `${refusal.where} `) },
  ].filter((section) => section.lines.length > 0);
  const onlyDefinitions = refusals.every((refusal) => refusal.kind === 'CustomResourceDefinition');
  return new HarnessError(
    'MANIFEST_INVALID',
    sections.map((section) => `${section.title}:\n  ${section.lines.join('\n  ')}`).join('\n'),
    onlyDefinitions
      ? 'the API server would reject these definitions on create; fix their x-kubernetes-validations'
      : 'the API server would reject these objects on create; fix the expressions named',
  );
}
