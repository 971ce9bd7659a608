import { leaveOutRefused, lint, lintPolicies, refusalFindings, refusalsOnCreate } from '../lint';
import { defaultCatalog } from '../kube/catalog';
import { Registry } from '../registry/registry';
import { isEmpty, nothingToCheck, readCommandManifests } from './manifests';

/** Under the finding's title; a compile error's caret lines stay under the expression they point into. */
const indent = (text: string): string => text.replace(/^/gm, '        ');

export interface LintArgs {
  manifests: string[];
  json: boolean;
}

/**
 * `admission-harness lint`: every object of the manifests kube-apiserver would refuse on create for its
 * CEL (CustomResourceDefinitions' rules and their cost, webhooks' matchConditions, admission policies'
 * expressions), each refusal an error finding with kube's text, and the good-practice findings for the
 * objects it would accept. Exit 1 when any is an error.
 */
export async function lintCommand(args: LintArgs, out: (text: string) => void): Promise<number> {
  const catalog = defaultCatalog.copy();
  const served = catalog.resources().length;
  const read = readCommandManifests('lint', args.manifests, catalog, true);
  // CustomResourceDefinitions alone are worth linting: kube checks their rules on create.
  if (isEmpty(read) && catalog.resources().length === served) throw nothingToCheck('lint', args.manifests, 'CustomResourceDefinitions');
  const refusals = await refusalsOnCreate(read, new Registry(catalog));
  const set = leaveOutRefused(read, catalog, refusals);
  const findings = [...lint(set.webhooks), ...lintPolicies(set.validatingPolicies, catalog), ...refusalFindings(refusals)];
  if (args.json) out(JSON.stringify({ findings }, null, 2));
  else if (findings.length === 0) out('no findings');
  else
    out(findings.map((f) => `${f.severity.padEnd(7)} ${f.id} · ${f.configuration}/${f.webhook}\n${indent(f.message)}\n${indent(`fix: ${f.fix}`)}`).join('\n'));
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}
