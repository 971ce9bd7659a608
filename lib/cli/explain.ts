import { parseManifestFile } from '../config/parse';
import { HarnessError } from '../errors';
import { callOrder } from '../config/order';
import { defaultCatalog } from '../kube/catalog';
import { prepareMatchConditions } from '../match/conditions';
import { explain, formatExplanation } from '../match/explain';
import { NamespaceStore, type NamespaceSpec } from '../match/namespace-store';
import { reviewFromRequest } from '../review/from-request';
import { loadCommandManifests } from './manifests';
import { explainPolicies } from '../policy/explain';
import { NO_PARAMS } from '../policy/params';
import { prepareValidatingPolicies } from '../policy/prepare';

export interface ExplainArgs {
  manifests: string[];
  review: string;
  namespaces?: string;
  json: boolean;
}

function readDocuments(file: string): unknown[] {
  return parseManifestFile(file, 'USAGE').map((d) => d.value);
}

/** Namespaces from `{name, labels}` entries or Namespace objects, in one or more documents or a list. */
function readNamespaces(file: string): NamespaceSpec[] {
  return readDocuments(file)
    .flatMap((doc) => (Array.isArray(doc) ? doc : (doc as { kind?: string; items?: unknown[] }).kind === 'NamespaceList' ? ((doc as { items: unknown[] }).items ?? []) : [doc]))
    .map((item, i) => {
      const entry = item as { name?: unknown; labels?: unknown; metadata?: { name?: unknown; labels?: unknown } };
      const name = entry.metadata?.name ?? entry.name;
      if (typeof name !== 'string') throw new HarnessError('USAGE', `${file}: namespace ${i + 1} has no name`);
      return { name, labels: (entry.metadata?.labels ?? entry.labels ?? {}) as Record<string, string> };
    });
}

/** `admission-harness explain`: which webhooks a request reaches and why. Returns the exit code. */
export async function explainCommand(args: ExplainArgs, out: (text: string) => void): Promise<number> {
  if (!args.review) throw new HarnessError('USAGE', 'explain needs --review FILE (an AdmissionReview or AdmissionRequest, YAML or JSON)');
  const [document] = readDocuments(args.review);
  const review = reviewFromRequest(document, args.review);
  const namespaces = new NamespaceStore(args.namespaces ? readNamespaces(args.namespaces) : []);
  // The manifests' CRDs are served for this request only: a copy of the process-wide catalog.
  const catalog = defaultCatalog.copy();
  const set = await loadCommandManifests('explain', args.manifests, catalog);
  const conditions = await prepareMatchConditions(set.webhooks);
  const explanations = explain(callOrder(set.webhooks), review.attributes, { namespaces, resources: catalog, ...(conditions ? { conditions } : {}) });
  // Matching only: params are not read, so no cluster objects are needed.
  const policies = await prepareValidatingPolicies(set, NO_PARAMS);
  const policyExplanations = explainPolicies(policies, review.attributes, { namespaces, resources: catalog });
  if (!args.json) {
    out([review.summary(), ...explanations.map((e) => `  ${formatExplanation(e)}`), ...policyExplanations.map((e) => `  ValidatingAdmissionPolicy ${e.configuration}${e.name ? ` with binding ` : ''}${formatExplanation(e)}`)].join('\n'));
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
  out(JSON.stringify({ webhooks: report, ...(policyReport.length > 0 ? { policies: policyReport } : {}) }, null, 2));
  return 0;
}
