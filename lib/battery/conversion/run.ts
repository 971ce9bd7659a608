import { conversionCapability, convertList, roundTrip, type ConversionCallDeps, type ConversionResult } from '../../conversion';
import { negotiateReviewVersion } from '../../conversion/review';
import type { ResourceCatalog } from '../../kube/catalog';
import type { KubeObject } from '../../kube/admission';
import { jsonEqual } from '../../kube/json';
import { backendReport, checkFilter, type BackendBatteryReport, type BackendCheckResult, type BackendScenarioResult } from '../backend/report';
import { CONVERSION_CHECKS, type ConversionCheckInput, type ConversionLeg } from './checks';
import { planConversion, type ConversionScenario, type WebhookCrd } from './plan';

/** kube-apiserver's conversion webhook client timeout, which `?timeout=30s` announces. */
const DEADLINE_SECONDS = 30;
const SHOWN = 600;

export interface ConversionBatteryOptions {
  seed: number;
  only?: readonly string[];
  skip?: readonly string[];
  onProgress?: (done: number, total: number, title: string) => void;
}

/** One scenario sent: its reviews, and for a round trip what came back. */
async function send(scenario: ConversionScenario, catalog: ResourceCatalog, deps: ConversionCallDeps): Promise<Omit<ConversionCheckInput, 'deadlineMs'>> {
  const capability = conversionCapability(catalog);
  const legs: ConversionLeg[] = [];
  if (scenario.type === 'round-trip') {
    const converter = {
      convert: async (objects: KubeObject | readonly KubeObject[], toVersion: string): Promise<ConversionResult> => {
        const result = await capability.convert(objects, toVersion, deps);
        legs.push(...result.outcomes);
        return result;
      },
    };
    const trip = await roundTrip(converter, scenario.object, scenario.via);
    return { type: 'round-trip', legs, sent: scenario.object, ...(trip.back ? { back: trip.back } : {}) };
  }
  const { crd } = scenario;
  const webhook = capability.webhooks.find((w) => w.crd === crd.name);
  if (!webhook) return { type: 'list', legs };
  const { route, ca } = await deps.connection({ name: `conversion_webhook_for_${crd.name}`, clientConfig: webhook.clientConfig });
  const list = { apiVersion: `${crd.group}/${scenario.from}`, kind: crd.listKind };
  const outcome = await convertList(webhook, list, scenario.objects, `${crd.group}/${scenario.to}`, deps.uuid(), {
    route,
    ca,
    agents: deps.agents,
    timeScale: deps.timeScale,
  });
  legs.push(outcome);
  return { type: 'list', legs };
}

function verdictOf(input: Omit<ConversionCheckInput, 'deadlineMs'>, scenario: ConversionScenario): string {
  const ms = `${input.legs.reduce((sum, leg) => sum + leg.durationMs, 0).toFixed(0)} ms`;
  const failed = input.legs.find((leg) => leg.error);
  if (failed?.error) return `failed: ${failed.error.message} · ${ms}`;
  if (scenario.type === 'list') return `${scenario.objects.length} objects converted · ${ms}`;
  return `${input.back && input.sent && jsonEqual(input.back, input.sent) ? 'came back as sent' : 'came back changed'} · ${ms}`;
}

const shorten = (text: string) => (text.length > SHOWN ? `${text.slice(0, SHOWN)}… (${text.length} bytes)` : text);

function detailsOf(legs: readonly ConversionLeg[]): string[] {
  return legs.flatMap((leg) => [
    `POST ${leg.url}`,
    ...(leg.review ? [`sent: ${shorten(JSON.stringify(leg.review))}`] : []),
    leg.httpStatus !== undefined ? `answered: HTTP ${leg.httpStatus} ${shorten((leg.reply ?? '').trim())}` : `no answer: ${leg.error?.message ?? ''}`,
  ]);
}

function notesOf(crds: readonly WebhookCrd[], catalog: ResourceCatalog): string[] {
  return conversionCapability(catalog)
    .webhooks.filter((w) => crds.some((crd) => crd.name === w.crd))
    .map((w) => {
      const version = negotiateReviewVersion(w.conversionReviewVersions);
      return version
        ? `${w.crd}: ConversionReviews of apiextensions.k8s.io/${version} (the first of conversionReviewVersions kube-apiserver knows); a failed conversion answers every read at another version than the stored one with a 500 carrying kube's text`
        : `${w.crd}: conversionReviewVersions lists no version kube-apiserver knows (v1, v1beta1): every conversion fails`;
    });
}

/**
 * The conversion webhook battery: for each CRD of the manifests with `conversion.strategy: Webhook`,
 * objects of every served version sent to every other version and back, and several objects in one
 * review, each answer verified as kube-apiserver verifies it (webhook_converter.go), with its texts.
 */
export async function runConversionBattery(
  crds: readonly WebhookCrd[],
  catalog: ResourceCatalog,
  deps: ConversionCallDeps,
  options: ConversionBatteryOptions,
): Promise<BackendBatteryReport> {
  const wanted = checkFilter(options.only, options.skip);
  const scenarios = planConversion(crds, options.seed);
  const results: BackendScenarioResult[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    options.onProgress?.(index, scenarios.length, `${scenario.crd.name} · ${scenario.title}`);
    const sent = await send(scenario, catalog, deps);
    const input: ConversionCheckInput = { ...sent, deadlineMs: DEADLINE_SECONDS * 1000 * deps.timeScale };
    const checks: BackendCheckResult[] = [];
    for (const check of CONVERSION_CHECKS) {
      if (!wanted(check.id)) continue;
      const verdict = check.verify(input);
      if (verdict) checks.push({ id: check.id, status: verdict.pass ? 'pass' : 'fail', ...(verdict.detail ? { detail: verdict.detail } : {}) });
    }
    results.push({
      subject: scenario.crd.name,
      scenario: scenario.title,
      verdict: verdictOf(sent, scenario),
      durationMs: sent.legs.reduce((sum, leg) => sum + leg.durationMs, 0),
      checks,
      details: detailsOf(sent.legs),
    });
  }
  return backendReport('conversion', options.seed, results, notesOf(crds, catalog));
}
