import { loadFixtures, formatReport, replayFixtures, replayReportJson } from '../replay';
import { HarnessError } from '../errors';
import { createHarness } from '../harness';
import { loadCommandManifests } from './manifests';
import { defaultCatalog } from '../kube/catalog';
import { targetFromArgs, type TargetArgs } from './target';

export interface ReplayArgs extends TargetArgs {
  /** Fixture files or directories (RecordedReview documents). */
  paths: string[];
  manifests: string[];
  /** Record the answers of fixtures without one, and rewrite those the webhook no longer gives. */
  update: boolean;
  json: boolean;
  /** Compare only this webhook's answers (when several webhooks match a fixture). */
  webhook?: string;
  seed?: number;
}

/**
 * `admission-harness replay`: each recorded request sent again to the webhook its rules match, as
 * kube-apiserver would (a fresh uid), and its answer compared with the recorded one — allowed, status,
 * warnings, the patch by its effect on the object — plus the object-validity and idempotence checks.
 * Exit 1 when an answer differs.
 */
export async function replayCommand(args: ReplayArgs, out: (text: string) => void): Promise<number> {
  if (args.paths.length === 0) throw new HarnessError('USAGE', 'replay needs fixture files or directories', 'e.g. admission-harness replay fixtures/ --manifests deploy/webhooks.yaml --module src/app.ts');
  // Both checked before a process is started or a module loaded.
  const fixtures = loadFixtures(args.paths);
  await loadCommandManifests('replay', args.manifests, defaultCatalog.copy());
  const target = await targetFromArgs(args, true);
  const harness = await createHarness({ target, manifests: args.manifests, ...(args.seed !== undefined ? { seed: args.seed } : {}) });
  try {
    const report = await replayFixtures(harness, fixtures, { update: args.update, ...(args.webhook ? { webhook: args.webhook } : {}) });
    out(args.json ? JSON.stringify(replayReportJson(report), null, 2) : formatReport(report));
    return report.failed > 0 ? 1 : 0;
  } finally {
    await harness.close();
  }
}
