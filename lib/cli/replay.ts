import { checkFixtureWebhooks, fixturesOfShard, loadFixtures, formatReport, namespacesOfFixtures, replayFixtures, replayReportJson } from '../replay';
import { HarnessError } from '../errors';
import { createHarness } from '../harness';
import { loadCommandManifests } from './manifests';
import { defaultCatalog } from '../kube/catalog';
import { targetFromArgs, type TargetArgs } from './target';
import { coverageThresholdFailures } from './coverage-threshold';
import { admissionWebhooksOf, formatTable, summarize } from '../admission-coverage';
import { findWebhook } from '../config/find';
import { parseShard } from './shard';
import { ensureWritable } from './output-file';
import { writeFileSync } from 'node:fs';
import { htmlFromReplay } from '../report';

export interface ReplayArgs extends TargetArgs {
  /** Fixture files or directories (RecordedReview documents). */
  paths: string[];
  manifests: string[];
  /** Record the answers of fixtures without one, and rewrite those the webhook no longer gives. */
  update: boolean;
  json: boolean;
  /** Only this webhook: fixtures naming no webhook are sent to it; of admission fixtures, only its answers are compared. */
  webhook?: string;
  seed?: number;
  /** `i/n`: replay only the fixtures of the i-th of n parts (by file name, deterministic). */
  shard?: string;
  /** Exit 1 when a webhook's admission coverage by the replayed requests is below this percentage. */
  coverageThreshold?: number;
  /** Write the report as one self-contained HTML file here too. */
  html?: string;
}

/**
 * `admission-harness replay`: each recorded admission run again through the whole chain, and each
 * recorded call sent again to its webhook (the one it names, or those its rules match), as
 * kube-apiserver would (a fresh uid); every webhook's answer compared with its own recorded one —
 * allowed, status, warnings, the patch by its effect on the object — plus, for calls, the
 * object-validity and idempotence checks. Exit 1 when an answer differs; 2 when a fixture names a
 * webhook the manifests lack.
 */
export async function replayCommand(args: ReplayArgs, out: (text: string) => void): Promise<number> {
  if (args.paths.length === 0)
    throw new HarnessError(
      'USAGE',
      'replay needs fixture files or directories',
      'e.g. admission-harness replay fixtures/ --manifests deploy/webhooks.yaml --module src/app.ts',
    );
  const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
  if (args.html) ensureWritable('--html', args.html);
  // Both checked before a process is started or a module loaded.
  const loaded = loadFixtures(args.paths);
  const fixtures = shard ? fixturesOfShard(loaded, shard) : loaded;
  await loadCommandManifests('replay', args.manifests, defaultCatalog.copy());
  const target = await targetFromArgs(args, true);
  // The namespaces the recorded admissions happened in exist in the mock cluster, as they did in the real one.
  const namespaces = namespacesOfFixtures(fixtures);
  const harness = await createHarness({
    target,
    manifests: args.manifests,
    ...(namespaces.length > 0 ? { namespaces } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
  });
  try {
    checkFixtureWebhooks(harness.webhooks, fixtures);
    const report = await replayFixtures(harness, fixtures, { update: args.update, ...(args.webhook ? { webhook: args.webhook } : {}) });
    // What the recorded requests exercised of each webhook's registration: where real traffic leaves gaps.
    // With --webhook, the others were left out on purpose: only the one replayed is counted.
    const chosen = args.webhook !== undefined ? findWebhook(harness.webhooks, args.webhook) : undefined;
    const all = admissionWebhooksOf(harness.coverage().summary());
    const coverage = chosen
      ? summarize(all.webhooks.filter((w) => w.type === chosen.type && w.configuration === chosen.configuration && w.name === chosen.spec.name))
      : all;
    const belowThreshold = args.coverageThreshold !== undefined ? coverageThresholdFailures(coverage, args.coverageThreshold) : [];
    const part = shard ? ` · shard ${shard.index}/${shard.count}: ${fixtures.length} of ${loaded.length} fixtures` : '';
    if (args.json) {
      const threshold = args.coverageThreshold !== undefined ? { threshold: args.coverageThreshold, thresholdMet: belowThreshold.length === 0 } : {};
      out(JSON.stringify({ ...replayReportJson(report), ...(shard ? { shard } : {}), coverage: { ...coverage, ...threshold } }, null, 2));
    } else {
      out(
        `${formatReport(report)}${part}\n\nadmission coverage (the replayed requests):\n${formatTable(coverage)}${belowThreshold.length > 0 ? `\n\n${belowThreshold.join('\n')}` : ''}`,
      );
    }
    if (args.html) writeFileSync(args.html, htmlFromReplay(report, { coverage, title: `admission-harness replay · ${args.paths.join(' ')}` }));
    return report.failed > 0 || belowThreshold.length > 0 ? 1 : 0;
  } finally {
    await harness.close();
  }
}
