import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors';
import type { ResourceCatalog } from '../kube/catalog';
import type { MutatingWebhook, WebhookType } from '../kube/webhook-config';
import type {
  MutatingAdmissionPolicy,
  MutatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../kube/admission-policy';
import { defaultMutatingPolicy, defaultMutatingPolicyBinding, defaultValidatingPolicy, defaultValidatingPolicyBinding, defaultWebhook } from './defaults';
import { parseManifestFiles, type SourcedDocument } from './parse';
import { validateConfiguration } from './validate';
import { validateMutatingPolicy, validateMutatingPolicyBinding, validateValidatingPolicy, validateValidatingPolicyBinding } from './validate-policy';

/** One webhook of a loaded configuration, defaulted, with where it was declared. */
export interface WebhookEntry {
  type: WebhookType;
  /** metadata.name of its configuration. */
  configuration: string;
  /** Position inside its configuration's `webhooks`. */
  index: number;
  spec: MutatingWebhook;
  source: string;
}

/** A ValidatingAdmissionPolicy of the manifests, defaulted, with where it was declared. */
export interface ValidatingPolicyEntry {
  policy: ValidatingAdmissionPolicy;
  source: string;
}

/** A ValidatingAdmissionPolicyBinding of the manifests, defaulted, with where it was declared. */
export interface ValidatingBindingEntry {
  binding: ValidatingAdmissionPolicyBinding;
  source: string;
}

/** A MutatingAdmissionPolicy of the manifests, defaulted, with where it was declared. */
export interface MutatingPolicyEntry {
  policy: MutatingAdmissionPolicy;
  source: string;
}

/** A MutatingAdmissionPolicyBinding of the manifests, defaulted, with where it was declared. */
export interface MutatingBindingEntry {
  binding: MutatingAdmissionPolicyBinding;
  source: string;
}

/** Everything of the admission chain the manifests configure. */
export interface ManifestSet {
  webhooks: WebhookEntry[];
  validatingPolicies: ValidatingPolicyEntry[];
  validatingBindings: ValidatingBindingEntry[];
  mutatingPolicies: MutatingPolicyEntry[];
  mutatingBindings: MutatingBindingEntry[];
}

/**
 * Anything a manifest may hold: a file path, a `file:` URL (`new URL('../deploy/webhooks.yaml',
 * import.meta.url)` in an ES module, where there is no `__dirname`), or an object already parsed.
 */
export type ManifestInput = string | URL | Record<string, unknown>;

function manifestPath(url: URL): string {
  if (url.protocol !== 'file:')
    throw new HarnessError('USAGE', `manifests: ${url.href} is not a file URL`, 'give a path, or new URL(relativePath, import.meta.url)');
  return fileURLToPath(url);
}

const KINDS: Record<string, WebhookType> = {
  MutatingWebhookConfiguration: 'mutating',
  ValidatingWebhookConfiguration: 'validating',
};
const API_VERSIONS = ['admissionregistration.k8s.io/v1', 'admissionregistration.k8s.io/v1beta1'];
// ValidatingAdmissionPolicy is GA since 1.30, MutatingAdmissionPolicy since 1.36; their beta versions are off by default in 1.36.
const POLICY_API_VERSIONS = ['admissionregistration.k8s.io/v1'];
const POLICY_KINDS = ['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicy', 'MutatingAdmissionPolicyBinding'];

/**
 * Loads webhook configurations from files and objects: CustomResourceDefinitions are registered with
 * `catalog` (when given), other kinds are skipped, every configuration is validated as the API server
 * would on create and then defaulted. All errors are reported at
 * once, each naming file, document, object and field.
 */
export function loadManifests(inputs: readonly ManifestInput[], options: { catalog?: ResourceCatalog } = {}): WebhookEntry[] {
  return loadManifestSet(inputs, options).webhooks;
}

/**
 * Loads the admission chain's configuration from files and objects: webhook configurations,
 * ValidatingAdmissionPolicies and their bindings, each validated as the API server would on create
 * (CEL expressions apart: they compile when the chain is prepared) and then defaulted;
 * CustomResourceDefinitions are registered with `catalog` (when given); other kinds are skipped.
 */
export function loadManifestSet(inputs: readonly ManifestInput[], options: { catalog?: ResourceCatalog } = {}): ManifestSet {
  const documents: SourcedDocument[] = inputs.flatMap((input, i) =>
    typeof input === 'string'
      ? parseManifestFiles([input])
      : input instanceof URL
        ? parseManifestFiles([manifestPath(input)])
        : [{ file: `manifests[${i}]`, doc: 0, value: input }],
  );
  const webhookProblems: string[] = [];
  const policyProblems: string[] = [];
  const set: ManifestSet = { webhooks: [], validatingPolicies: [], validatingBindings: [], mutatingPolicies: [], mutatingBindings: [] };
  for (const document of documents) {
    const value = document.value;
    const where = document.doc > 0 ? `${document.file} doc ${document.doc}` : document.file;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      webhookProblems.push(`${where}: not a Kubernetes object`);
      continue;
    }
    const config = value as Record<string, unknown>;
    if (config.kind === 'CustomResourceDefinition' && options.catalog) {
      // Helm charts ship their CRDs beside the webhook configurations; requests for them need the kinds.
      try {
        options.catalog.registerCustomResourceDefinition(config);
      } catch (error) {
        webhookProblems.push(`${where}: ${(error as Error).message.split('\n')[0]}`);
      }
      continue;
    }
    const name = (config.metadata as { name?: unknown } | undefined)?.name;
    const label = `${where} (${String(config.kind)} ${JSON.stringify(typeof name === 'string' ? name : '')})`;
    if (POLICY_KINDS.includes(config.kind as string)) {
      if (!POLICY_API_VERSIONS.includes(config.apiVersion as string)) {
        policyProblems.push(
          `${label} apiVersion: Unsupported value: ${JSON.stringify(config.apiVersion)}: supported values: ${POLICY_API_VERSIONS.map((v) => JSON.stringify(v)).join(', ')}`,
        );
        continue;
      }
      const validate = {
        ValidatingAdmissionPolicy: validateValidatingPolicy,
        ValidatingAdmissionPolicyBinding: validateValidatingPolicyBinding,
        MutatingAdmissionPolicy: validateMutatingPolicy,
        MutatingAdmissionPolicyBinding: validateMutatingPolicyBinding,
      }[config.kind as string];
      const errors = validate ? validate(config) : [];
      if (errors.length > 0) {
        policyProblems.push(...errors.map((e) => `${label} ${e.path}: ${e.message}`));
        continue;
      }
      const object = config as unknown;
      if (config.kind === 'ValidatingAdmissionPolicy')
        set.validatingPolicies.push({ policy: defaultValidatingPolicy(object as ValidatingAdmissionPolicy), source: label });
      else if (config.kind === 'ValidatingAdmissionPolicyBinding')
        set.validatingBindings.push({ binding: defaultValidatingPolicyBinding(object as ValidatingAdmissionPolicyBinding), source: label });
      else if (config.kind === 'MutatingAdmissionPolicy')
        set.mutatingPolicies.push({ policy: defaultMutatingPolicy(object as MutatingAdmissionPolicy), source: label });
      else set.mutatingBindings.push({ binding: defaultMutatingPolicyBinding(object as MutatingAdmissionPolicyBinding), source: label });
      continue;
    }
    const type = typeof config.kind === 'string' ? KINDS[config.kind] : undefined;
    if (!type) continue;
    if (!API_VERSIONS.includes(config.apiVersion as string)) {
      webhookProblems.push(
        `${label} apiVersion: Unsupported value: ${JSON.stringify(config.apiVersion)}: supported values: ${API_VERSIONS.map((v) => JSON.stringify(v)).join(', ')}`,
      );
      continue;
    }
    const errors = validateConfiguration(config, type === 'mutating');
    if (errors.length > 0) {
      webhookProblems.push(...errors.map((e) => `${label} ${e.path}: ${e.message}`));
      continue;
    }
    const webhooks = (config.webhooks ?? []) as MutatingWebhook[];
    webhooks.forEach((webhook, index) =>
      set.webhooks.push({
        type,
        configuration: name as string,
        index,
        spec: defaultWebhook(webhook, config.apiVersion as string, type === 'mutating'),
        source: label,
      }),
    );
  }
  if (webhookProblems.length > 0 || policyProblems.length > 0) {
    const sections = [
      ...(webhookProblems.length > 0 ? [`invalid webhook configuration:\n  ${webhookProblems.join('\n  ')}`] : []),
      ...(policyProblems.length > 0 ? [`invalid admission policy:\n  ${policyProblems.join('\n  ')}`] : []),
    ];
    throw new HarnessError('MANIFEST_INVALID', sections.join('\n'), 'the API server would reject these objects on create; fix the fields named');
  }
  return set;
}
