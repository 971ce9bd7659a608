import { parseManifestFile, parseManifestFiles } from '../config/parse';
import type { ManifestSet } from '../config/load';
import { webhookCrds } from '../battery/conversion/plan';
import { HarnessError } from '../errors';
import { callOrder } from '../config/order';
import { defaultCatalog } from '../kube/catalog';
import type { AdmissionAttributes } from '../kube/attributes';
import { prepareMatchConditions } from '../match/conditions';
import { explain, formatExplanation, type Explanation } from '../match/explain';
import { NamespaceStore, type NamespaceSpec } from '../match/namespace-store';
import { PLUGIN_CHAIN, type AdmissionPhase, type InvolvementContext, type PluginStep } from '../plugins/involvement';
import { assertBuiltinPluginNames, OFF_BY_DEFAULT_PLUGIN_NAMES } from '../plugins/mutation-phase';
import { readAdmissionConfiguration } from '../plugins/optional/admission-configuration';
import { reviewFromRequest } from '../review/from-request';
import { loadCommandManifests } from './manifests';
import { explainPolicies } from '../policy/explain';
import { BEFORE_IMAGE_POLICY, imagePolicyInvolvement, imagePolicyView } from '../imagepolicy/explain';
import { explainConversion, type ConversionView } from '../conversion/explain';
import { NO_PARAMS } from '../policy/params';
import { prepareMutatingPolicies, prepareValidatingPolicies } from '../policy/prepare';

export interface ExplainArgs {
  manifests: string[];
  review: string;
  namespaces?: string;
  json: boolean;
  /** Built-in admission plugins the cluster runs without (`--disable-admission-plugins`). */
  disablePlugins?: string[];
  /** Off-by-default plugins the cluster runs too (`--enable-admission-plugins`): only those are listed. */
  enablePlugins?: string[];
  /** Their AdmissionConfiguration (`--admission-control-config-file`): read so a bad file is said here too. */
  admissionConfigFile?: string;
  /** ImagePolicyWebhook's configuration (`--image-policy-config`): the plugin is shown in its place in the chain. */
  imagePolicyConfig?: string;
}

/** What a built-in plugin makes of the request: `refuses` only when the attributes alone decide it. */
type PluginDecision = 'acts' | 'refuses' | 'not-involved' | 'disabled';

/** One step of kube-apiserver's admission chain for the request: a built-in plugin, an admission policy binding or a webhook. */
type ChainStep =
  | { phase: AdmissionPhase; kind: 'plugin'; name: string; involved: boolean; decision: PluginDecision; reason: string }
  | { phase: AdmissionPhase; kind: 'webhook' | 'mutating-policy' | 'validating-policy'; explanation: Explanation };

function pluginSteps(steps: readonly PluginStep[], attributes: AdmissionAttributes, context: InvolvementContext, disabled: ReadonlySet<string>): ChainStep[] {
  return steps.map(({ plugin, phase, judge }): ChainStep => {
    if (disabled.has(plugin))
      return { phase, kind: 'plugin', name: plugin, involved: false, decision: 'disabled', reason: 'turned off by --disable-admission-plugins' };
    const { involved, reason, refuses } = judge(attributes, context);
    return { phase, kind: 'plugin', name: plugin, involved, decision: refuses ? 'refuses' : involved ? 'acts' : 'not-involved', reason };
  });
}

/** One line of the text output; webhooks and policies are worded as before plugins were listed, so scripts that grep them keep working. */
function chainLine(step: ChainStep): string {
  if (step.kind === 'plugin')
    return `plugin ${step.name} (${step.phase}): ${step.decision === 'not-involved' ? 'not involved' : step.decision} — ${step.reason}`;
  const e = step.explanation;
  if (step.kind === 'webhook') return formatExplanation(e);
  const policyKind = step.kind === 'mutating-policy' ? 'MutatingAdmissionPolicy' : 'ValidatingAdmissionPolicy';
  return `${policyKind} ${e.configuration}${e.name ? ' with binding ' : ''}${formatExplanation(e)}`;
}

function chainEntry(step: ChainStep): Record<string, unknown> {
  if (step.kind === 'plugin') return step;
  const e = step.explanation;
  const base = { phase: step.phase, kind: step.kind };
  if (step.kind === 'webhook') return { ...base, name: e.name, configuration: e.configuration, decision: e.decision, reason: e.reason };
  return { ...base, name: e.configuration, ...(e.name ? { binding: e.name } : {}), decision: e.decision, reason: e.reason };
}

const NO_MANIFESTS: ManifestSet = { webhooks: [], validatingPolicies: [], validatingBindings: [], mutatingPolicies: [], mutatingBindings: [] };

/** The validation phase's plugins with ImagePolicyWebhook in its place, when `--image-policy-config` turns it on. */
function withImagePolicy(steps: ChainStep[], attributes: AdmissionAttributes, file: string | undefined): ChainStep[] {
  if (!file) return steps;
  const { involved, reason, refuses } = imagePolicyInvolvement(attributes, imagePolicyView(file));
  const step: ChainStep = {
    phase: 'validation',
    kind: 'plugin',
    name: 'ImagePolicyWebhook',
    involved,
    decision: refuses ? 'refuses' : involved ? 'acts' : 'not-involved',
    reason,
  };
  const at = steps.findIndex((s) => s.kind === 'plugin' && !BEFORE_IMAGE_POLICY.has(s.name));
  return at < 0 ? [...steps, step] : [...steps.slice(0, at), step, ...steps.slice(at)];
}

/** The conversions of a custom resource's request, after the chain. */
function conversionLines(view: ConversionView | undefined): string[] {
  if (!view) return [];
  return [`conversion (${view.crd}, strategy ${view.strategy}, stored at ${view.storage}):`, ...view.lines.map((line) => `  ${line}`)];
}

function readDocuments(file: string): unknown[] {
  return parseManifestFile(file, 'USAGE').map((d) => d.value);
}

/** Namespaces from `{name, labels}` entries or Namespace objects, in one or more documents or a list. */
function readNamespaces(file: string): NamespaceSpec[] {
  return readDocuments(file)
    .flatMap((doc) =>
      Array.isArray(doc) ? doc : (doc as { kind?: string; items?: unknown[] }).kind === 'NamespaceList' ? ((doc as { items: unknown[] }).items ?? []) : [doc],
    )
    .map((item, i) => {
      const entry = item as { name?: unknown; labels?: unknown; metadata?: { name?: unknown; labels?: unknown } };
      const name = entry.metadata?.name ?? entry.name;
      if (typeof name !== 'string') throw new HarnessError('USAGE', `${file}: namespace ${i + 1} has no name`);
      return { name, labels: (entry.metadata?.labels ?? entry.labels ?? {}) as Record<string, string> };
    });
}

/**
 * A Kubernetes object given where a review belongs (`explain --review pod.yaml`): the error names the
 * `review` command that makes the AdmissionReview of it. The object alone does not say the operation (a
 * pod is created, updated or deleted), so it is not guessed; CREATE, the usual question, is the example.
 */
function plainObjectError(document: unknown, file: string): HarnessError | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  const { apiVersion, kind, request, operation, metadata } = document as Record<string, unknown>;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || kind === 'AdmissionReview' || request !== undefined || operation !== undefined)
    return undefined;
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const entry = defaultCatalog.resources().find((e) => e.kind === kind && e.group === group);
  const resource = entry ? (group ? `${entry.resource}.${group}` : entry.resource) : `<${kind.toLowerCase()} resource>`;
  const namespace = (metadata as { namespace?: unknown } | undefined)?.namespace;
  const where = entry?.namespaced && typeof namespace === 'string' ? ` --namespace ${namespace}` : '';
  return new HarnessError(
    'USAGE',
    `--review ${file} holds a ${kind}, not an AdmissionReview: explain needs the request too (its operation, user, namespace)`,
    `make the review of it, then explain that: admission-harness review ${resource} CREATE${where} --object ${file} > review.json && admission-harness explain --review review.json … (UPDATE or DELETE for those requests)`,
  );
}

/**
 * `admission-harness explain`: the request's way through kube-apiserver's admission chain, in order:
 * which built-in plugins handle it, which admission policies and webhooks it reaches, and why. Returns
 * the exit code.
 */
export async function explainCommand(args: ExplainArgs, out: (text: string) => void): Promise<number> {
  if (!args.review) throw new HarnessError('USAGE', 'explain needs --review FILE (an AdmissionReview or AdmissionRequest, YAML or JSON)');
  const disabled = new Set(args.disablePlugins ?? []);
  assertBuiltinPluginNames([...disabled], '--disable-admission-plugins');
  const enabled = new Set(args.enablePlugins ?? []);
  if (args.admissionConfigFile) readAdmissionConfiguration(args.admissionConfigFile);
  const [document] = readDocuments(args.review);
  const plain = plainObjectError(document, args.review);
  if (plain) throw plain;
  const review = reviewFromRequest(document, args.review);
  const namespaces = new NamespaceStore(args.namespaces ? readNamespaces(args.namespaces) : []);
  // The manifests' CRDs are served for this request only: a copy of the process-wide catalog.
  const catalog = defaultCatalog.copy();
  // ImagePolicyWebhook and CRD conversions are worth explaining without a webhook configuration.
  const other = args.imagePolicyConfig !== undefined || webhookCrds(parseManifestFiles(args.manifests).map((d) => d.value)).length > 0;
  const set = args.manifests.length === 0 && other ? NO_MANIFESTS : await loadCommandManifests('explain', args.manifests, catalog, other);
  const conditions = await prepareMatchConditions(set.webhooks);
  const explanations = explain(callOrder(set.webhooks), review.attributes, { namespaces, resources: catalog, ...(conditions ? { conditions } : {}) });
  // Matching only: params are not read, so no cluster objects are needed.
  const policies = await prepareValidatingPolicies(set, NO_PARAMS);
  const policyExplanations = explainPolicies(policies, review.attributes, { namespaces, resources: catalog });
  const mutatingPolicyExplanations = explainPolicies(await prepareMutatingPolicies(set, NO_PARAMS), review.attributes, { namespaces, resources: catalog });

  // The namespaces explain knows are those a namespaceSelector reads: one it does not know is the 404 webhooks show too.
  const context: InvolvementContext = { namespaceExists: (name) => namespaces.labels(name) !== undefined };
  const plugins = (phase: AdmissionPhase, position: PluginStep['position']) =>
    pluginSteps(
      // An off-by-default plugin the cluster does not enable is no step of its chain.
      PLUGIN_CHAIN.filter((s) => s.phase === phase && s.position === position && (!OFF_BY_DEFAULT_PLUGIN_NAMES.includes(s.plugin) || enabled.has(s.plugin))),
      review.attributes,
      context,
      disabled,
    );
  const steps = (phase: AdmissionPhase, kind: 'webhook' | 'mutating-policy' | 'validating-policy', list: readonly Explanation[]): ChainStep[] =>
    list.map((explanation) => ({ phase, kind, explanation }));
  const mutation: ChainStep[] = [
    ...plugins('mutation', 'before-webhooks'),
    ...steps('mutation', 'mutating-policy', mutatingPolicyExplanations),
    ...steps(
      'mutation',
      'webhook',
      explanations.filter((e) => e.type === 'mutating'),
    ),
  ];
  const validation: ChainStep[] = [
    ...withImagePolicy(plugins('validation', 'before-webhooks'), review.attributes, args.imagePolicyConfig),
    ...steps('validation', 'validating-policy', policyExplanations),
    ...steps(
      'validation',
      'webhook',
      explanations.filter((e) => e.type === 'validating'),
    ),
    ...plugins('validation', 'after-webhooks'),
  ];

  const conversion = explainConversion(catalog, review.attributes);
  if (!args.json) {
    out(
      [
        review.summary(),
        'mutation phase:',
        ...mutation.map((s) => `  ${chainLine(s)}`),
        'validation phase:',
        ...validation.map((s) => `  ${chainLine(s)}`),
        ...conversionLines(conversion),
      ].join('\n'),
    );
    return 0;
  }
  const report = explanations.map((e) => ({
    configuration: e.configuration,
    name: e.name,
    type: e.type,
    decision: e.decision,
    reason: e.reason,
    ...(e.kind ? { kind: e.kind } : {}),
    ...(e.resource ? { resource: e.resource } : {}),
    ...(e.subResource !== undefined ? { subResource: e.subResource } : {}),
  }));
  const policyReport = policyExplanations.map((e) => ({ policy: e.configuration, binding: e.name, decision: e.decision, reason: e.reason }));
  // `webhooks` and `policies` (ValidatingAdmissionPolicies only) as before `chain`, for scripts that read them.
  out(
    JSON.stringify(
      {
        webhooks: report,
        ...(policyReport.length > 0 ? { policies: policyReport } : {}),
        chain: [...mutation, ...validation].map(chainEntry),
        ...(conversion ? { conversion } : {}),
      },
      null,
      2,
    ),
  );
  return 0;
}
