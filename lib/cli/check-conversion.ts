import type { BackendBatteryReport } from '../battery/backend/report';
import { backendJson } from '../battery/backend/report';
import { CONVERSION_CHECK_IDS } from '../battery/conversion/checks';
import { webhookCrds, type WebhookCrd } from '../battery/conversion/plan';
import { runConversionBattery } from '../battery/conversion/run';
import { AgentPool } from '../call/agents';
import { conversionCapability } from '../conversion';
import { loadManifestSet } from '../config/load';
import { parseManifestFiles } from '../config/parse';
import { writeFileSync } from 'node:fs';
import { htmlFromBackendBattery } from '../report';
import { defaultCatalog, type ResourceCatalog } from '../kube/catalog';
import { SeededRandom } from '../random';
import { startTargets, type Target } from '../target/targets';
import { sharedAuthority } from '../tls';
import { backendJUnitCases, printBackendReport } from './check-backend-common';
import type { CheckArgs } from './check-args';
import { writeJUnit } from './junit';

export { CONVERSION_CHECK_IDS };

/** The manifests' CRDs with a conversion webhook, and the catalog that holds them (validated as the API validates them). */
export interface ConversionInputs {
  crds: WebhookCrd[];
  catalog: ResourceCatalog;
}

/**
 * The conversion webhooks `check --manifests` finds: every CustomResourceDefinition with
 * `spec.conversion.strategy: Webhook`. Undefined when there is none (the manifests are left to the admission battery).
 */
export function conversionInputs(manifests: readonly string[]): ConversionInputs | undefined {
  if (manifests.length === 0) return undefined;
  const crds = webhookCrds(parseManifestFiles(manifests).map((d) => d.value));
  if (crds.length === 0) return undefined;
  const catalog = defaultCatalog.copy();
  loadManifestSet(manifests, { catalog });
  return { crds, catalog };
}

/**
 * Runs the conversion battery against `target`, served (or reached) in each conversion webhook's
 * clientConfig place as admission webhooks are; `seed` as the admission battery's.
 */
export async function runConversionCheck(
  args: Pick<CheckArgs, 'only' | 'skip' | 'timeScale'>,
  target: Target | undefined,
  inputs: ConversionInputs,
  seed: number,
): Promise<BackendBatteryReport> {
  const timeScale = args.timeScale ?? 1;
  const capability = conversionCapability(inputs.catalog);
  const targets = await startTargets({
    target,
    stubs: {},
    webhooks: [],
    authority: await sharedAuthority(),
    timeScale,
    clientConfigs: capability.clientConfigs,
  });
  const agents = new AgentPool();
  const random = new SeededRandom(seed);
  try {
    return await runConversionBattery(
      inputs.crds,
      inputs.catalog,
      { connection: (webhook) => targets.connection(webhook), agents, timeScale, uuid: () => random.uuid() },
      { seed, ...(args.only ? { only: args.only } : {}), ...(args.skip ? { skip: args.skip } : {}) },
    );
  } finally {
    agents.destroy();
    await targets.close();
  }
}

/** `check --manifests` with conversion webhooks alone (no admission webhook or policy): their battery's report and exit code. */
export async function checkConversionOnly(
  args: CheckArgs,
  target: Target | undefined,
  inputs: ConversionInputs,
  seed: number,
  out: (text: string) => void,
): Promise<number> {
  const report = await runConversionCheck(args, target, inputs, seed);
  if (args.junit) writeJUnit(args.junit, backendJUnitCases(report));
  if (args.html) writeFileSync(args.html, htmlFromBackendBattery(report, { title: 'admission-harness check · conversion webhooks' }));
  const targetName = args.module ?? args.command ?? args.url ?? '';
  out(printBackendReport(report, args.json, `admission-harness check · conversion webhooks · ${targetName} · ${inputs.crds.length} CRDs · seed ${seed}`));
  return report.failed > 0 ? 1 : 0;
}

/** The admission battery's JSON report with the conversion battery's under `conversion`. */
export function withConversionJson(admissionJson: string, report: BackendBatteryReport | undefined): string {
  if (!report) return admissionJson;
  return JSON.stringify({ ...(JSON.parse(admissionJson) as object), conversion: backendJson(report) }, null, 2);
}

/** The conversion battery's text report, under the admission battery's. */
export function conversionSection(report: BackendBatteryReport | undefined): string {
  return report ? `\n\n${printBackendReport(report, false, 'conversion webhooks')}` : '';
}
