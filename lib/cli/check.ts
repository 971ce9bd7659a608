import { admissionWebhooksOf, formatTable } from '../admission-coverage';
import { runBattery } from '../battery/battery';
import type { CheckId } from '../battery/checks';
import type { PolicyCheckId } from '../battery/policy-battery';
import { ALL_CHECK_IDS } from '../battery/battery';
import { HarnessError } from '../errors';
import { didYouMean } from '../nearest-name';
import { createHarness } from '../harness';
import { writeJUnit } from './junit';
import { ensureWritable } from './output-file';
import { loadCommandManifests } from './manifests';
import { defaultCatalog } from '../kube/catalog';
import { targetFromArgs } from './target';
import { abortLines, formatReport, jsonReport } from './report';
import { parseShard } from './shard';
import { writeFileSync } from 'node:fs';
import { htmlFromBattery } from '../report';
import { coverageThresholdFailures } from './coverage-threshold';
import { checkImagePolicy } from './check-image-policy';
import { checkConversionOnly, conversionInputs, conversionSection, CONVERSION_CHECK_IDS, runConversionCheck, withConversionJson } from './check-conversion';
import { backendJUnitCases } from './check-backend-common';
import { defaultSeed } from '../random';
import type { CheckArgs } from './check-args';

/** `admission-harness check`: runs the battery and prints a report. Returns the exit code. */
export async function check(args: CheckArgs, out: (text: string) => void): Promise<number> {
  if (args.imagePolicyConfig !== undefined) return checkImagePolicy({ ...args, imagePolicyConfig: args.imagePolicyConfig }, out);
  for (const [option, ids] of [
    ['--only', args.only],
    ['--skip', args.skip],
  ] as const) {
    const known: readonly string[] = [...ALL_CHECK_IDS, ...CONVERSION_CHECK_IDS];
    const unknown = (ids ?? []).filter((id) => !known.includes(id));
    if (unknown.length > 0) {
      const named = unknown.map((id) => `${JSON.stringify(id)}${didYouMean(id, known)}`).join(', ');
      throw new HarnessError('USAGE', `${option}: unknown check id ${named}`, `known check ids: ${known.join(', ')}`);
    }
  }

  const shard = args.shard !== undefined ? parseShard(args.shard) : undefined;
  if (args.junit) ensureWritable('--junit', args.junit);
  if (args.html) ensureWritable('--html', args.html);
  // Checked before a process is started or a module loaded: the manifests, as the harness will load them.
  const conversion = conversionInputs(args.manifests);
  const loaded = await loadCommandManifests('check', args.manifests, defaultCatalog.copy(), conversion !== undefined);
  // Policies alone are evaluated in-process: a webhook target is needed only when there are webhooks.
  const target = await targetFromArgs(args, loaded.webhooks.length > 0 || conversion !== undefined);
  if (conversion && loaded.webhooks.length + loaded.validatingPolicies.length + loaded.mutatingPolicies.length === 0)
    return checkConversionOnly(args, target, conversion, args.seed ?? defaultSeed(), out);
  const harness = await createHarness({
    target,
    manifests: args.manifests,
    ...(args.mockApi ? { mockApi: true } : {}),
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.timeScale !== undefined ? { timeScale: args.timeScale } : {}),
    plugins: {
      ...(args.disablePlugins ? { disable: args.disablePlugins } : {}),
      ...(args.enablePlugins ? { enable: args.enablePlugins } : {}),
      ...(args.admissionConfigFile ? { configuration: args.admissionConfigFile } : {}),
    },
  });
  try {
    // A progress line only where a person watches: a terminal, and not when JSON goes to stdout.
    const progress = process.stderr.isTTY && !args.json;
    const report = await runBattery(harness, {
      ...(args.only ? { only: args.only as (CheckId | PolicyCheckId)[] } : {}),
      ...(args.skip ? { skip: args.skip as (CheckId | PolicyCheckId)[] } : {}),
      ...(shard ? { shard } : {}),
      failFast: args.failFast,
      ...(args.concurrency !== undefined ? { concurrency: args.concurrency } : {}),
      ...(progress ? { onProgress: (done: number, total: number, title: string) => process.stderr.write(`\r\x1b[K[${done + 1}/${total}] ${title}`) } : {}),
    });
    if (progress) process.stderr.write('\r\x1b[K');
    // The conversion webhooks the manifests name, once (on the first shard), with the admission battery's seed.
    const converted = conversion && (!shard || shard.index === 1) ? await runConversionCheck(args, target, conversion, report.seed) : undefined;
    if (args.junit) {
      writeJUnit(args.junit, [
        // A dead target is one failure, first, where it died; what it left undone is skipped, not failed.
        ...(report.aborted
          ? [{ suite: `${report.aborted.webhook} · ${report.aborted.scenario}`, name: 'target-process', durationMs: 0, failures: abortLines(report.aborted) }]
          : []),
        ...report.results.flatMap((r) =>
          r.checks.map((c) => ({
            suite: `${r.webhook} · ${r.scenario}`,
            name: c.id,
            durationMs: r.outcome.durationMs,
            failures: c.status === 'fail' ? [c.detail ?? c.id] : [],
          })),
        ),
        ...report.policies.flatMap((r) =>
          r.checks.map((c) => ({
            suite: `${r.kind} ${r.policy} · ${r.scenario}`,
            name: c.id,
            durationMs: 0,
            failures: c.status === 'fail' ? [c.detail ?? c.id] : [],
          })),
        ),
        ...report.notRun.map((n) => ({
          suite: `${n.webhook} · ${n.scenario}`,
          name: 'not run',
          durationMs: 0,
          failures: [],
          skipped: report.aborted ? 'the webhook process ended before this scenario' : 'not run after --fail-fast',
        })),
        ...(converted ? backendJUnitCases(converted) : []),
      ]);
    }
    const targetName = args.module ?? args.command ?? args.url ?? 'no webhook target';
    const scale = harness.timeScale !== 1 ? ` · time scale ${harness.timeScale}` : '';
    const count = (n: number, what: string) => (n > 0 ? ` · ${n} ${what}` : '');
    const policies = `${count(harness.mutatingPolicies.length, 'MutatingAdmissionPolicies')}${count(harness.validatingPolicies.length, 'ValidatingAdmissionPolicies')}`;
    // What the battery's requests exercised of each webhook's registration.
    const coverage = admissionWebhooksOf(harness.coverage().summary());
    const belowThreshold = args.coverageThreshold !== undefined ? coverageThresholdFailures(coverage, args.coverageThreshold) : [];
    const threshold = args.coverageThreshold !== undefined ? { threshold: args.coverageThreshold, thresholdMet: belowThreshold.length === 0 } : {};
    out(
      args.json
        ? withConversionJson(jsonReport(report, { ...coverage, ...threshold }), converted)
        : `${formatReport(report, { verbose: args.verbose === true }, `admission-harness check · ${targetName} · ${harness.webhooks.length} webhooks${policies} · seed ${report.seed}${scale}`)}${harness.webhooks.length > 0 ? `\n\nadmission coverage (the battery's requests):\n${formatTable(coverage)}` : ''}${conversionSection(converted)}`,
    );
    if (belowThreshold.length > 0 && !args.json) out(`\n${belowThreshold.join('\n')}`);
    if (args.html)
      writeFileSync(
        args.html,
        htmlFromBattery(report, {
          coverage,
          title: `admission-harness check · ${targetName}`,
          verbose: args.verbose === true,
          ...(converted ? { conversion: converted } : {}),
        }),
      );
    // A webhook that exits mid-run fails the run (exit 1, as a failed check): it crashed under the battery's
    // requests, which is a finding about the webhook; setup errors (exit 2) are the ones before any request.
    return report.aborted || report.failed > 0 || belowThreshold.length > 0 || (converted?.failed ?? 0) > 0 ? 1 : 0;
  } finally {
    await harness.close();
  }
}
