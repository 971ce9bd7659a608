import { customResourceFindings, lint, lintPolicies } from '../lint';
import { defaultCatalog } from '../kube/catalog';
import { Registry } from '../registry/registry';
import { loadCommandManifests } from './manifests';

export interface LintArgs {
  manifests: string[];
  json: boolean;
}

/**
 * `admission-harness lint`: good-practice findings for the manifests, which are first loaded exactly as
 * a harness loads them (an invalid matchCondition is an error here too), and the CustomResourceDefinitions
 * among them as kube-apiserver checks them on create. Exit 1 when any is an error.
 */
export async function lintCommand(args: LintArgs, out: (text: string) => void): Promise<number> {
  const catalog = defaultCatalog.copy();
  const set = await loadCommandManifests('lint', args.manifests, catalog);
  // The CRDs among the manifests, checked as kube-apiserver checks them on create (rules and their cost).
  const refused = await new Registry(catalog).prepare();
  const findings = [...lint(set.webhooks), ...lintPolicies(set.validatingPolicies, catalog), ...customResourceFindings(refused)];
  if (args.json) out(JSON.stringify({ findings }, null, 2));
  else if (findings.length === 0) out('no findings');
  else out(findings.map((f) => `${f.severity.padEnd(7)} ${f.id} · ${f.configuration}/${f.webhook}\n        ${f.message}\n        fix: ${f.fix}`).join('\n'));
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}
