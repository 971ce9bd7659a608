import { loadManifests } from '../config/load';
import { HarnessError } from '../errors';
import { lint } from '../lint';

export interface LintArgs {
  manifests: string[];
  json: boolean;
}

/** `admission-harness lint`: good-practice findings for the manifests. Exit 1 when any is an error. */
export function lintCommand(args: LintArgs, out: (text: string) => void): number {
  if (args.manifests.length === 0) throw new HarnessError('USAGE', 'lint needs --manifests FILE (one or more)');
  const findings = lint(loadManifests(args.manifests));
  if (args.json) out(JSON.stringify({ findings }, null, 2));
  else if (findings.length === 0) out('no findings');
  else out(findings.map((f) => `${f.severity.padEnd(7)} ${f.id} · ${f.configuration}/${f.webhook}\n        ${f.message}\n        fix: ${f.fix}`).join('\n'));
  return findings.some((f) => f.severity === 'error') ? 1 : 0;
}
