import { manualClock } from '../../imagepolicy/clock';
import type { ImagePolicyBackend } from '../../imagepolicy/connect';
import { backendUrl, postImageReview, type BackendReply } from '../../imagepolicy/backend';
import { buildImageReview, encodeImageReview } from '../../imagepolicy/image-review';
import { FAILED_OPEN_ANNOTATION, ImagePolicyPlugin } from '../../imagepolicy/plugin';
import { SeededRandom } from '../../random';
import { backendReport, checkFilter, type BackendBatteryReport, type BackendCheckResult } from '../backend/report';
import { IMAGE_POLICY_CHECKS, type ImagePolicyCall } from './checks';
import { imagePolicyScenarios, type ImagePolicyScenario } from './scenarios';

/** The generic webhook client's request timeout, which `?timeout=30s` announces. */
const DEADLINE_SECONDS = 30;

export interface ImagePolicyBatteryOptions {
  seed: number;
  only?: readonly string[];
  skip?: readonly string[];
  /** Told before each scenario. */
  onProgress?: (done: number, total: number, title: string) => void;
}

async function timed(body: string, backend: ImagePolicyBackend): Promise<{ reply: BackendReply; durationMs: number }> {
  const started = performance.now();
  const reply = await postImageReview(body, backend.context);
  return { reply, durationMs: performance.now() - started };
}

/**
 * What kube-apiserver makes of a call that failed: the plugin itself run on the same request (its
 * retries waited on a manual clock, its cache fresh), said in one line.
 */
async function consequence(backend: ImagePolicyBackend, scenario: ImagePolicyScenario, seed: number): Promise<string> {
  const plugin = new ImagePolicyPlugin(backend.settings, { ...backend.context, clock: manualClock() }, new SeededRandom(seed));
  const outcome = await plugin.validate(scenario.attributes);
  const waits = outcome.backoffMs.length > 0 ? ` (waiting ${outcome.backoffMs.map((ms) => `${Math.round(ms)} ms`).join(', ')} between them)` : '';
  const tried = `kube-apiserver sends it ${outcome.backendRequests} time${outcome.backendRequests === 1 ? '' : 's'}${waits}`;
  if (outcome.failedOpen) return `${tried}, then admits the pod (defaultAllow: true) with the audit annotation ${FAILED_OPEN_ANNOTATION}=true`;
  if (outcome.status) return `${tried}, then refuses the pod: ${outcome.status.message ?? ''}`;
  return `${tried}, then admits the pod`;
}

function verdictOf({ reply, durationMs }: ImagePolicyCall): string {
  const ms = `${durationMs.toFixed(0)} ms`;
  if (!reply.status) return `failed: ${reply.error ?? ''} · ${ms}`;
  if (reply.status.allowed) return `allowed · ${ms}`;
  return `denied${reply.status.reason ? `: ${reply.status.reason}` : ' without a reason'} · ${ms}`;
}

function detailsOf(url: string, body: string, reply: BackendReply): string[] {
  const answered =
    reply.httpStatus !== undefined ? `answered: HTTP ${reply.httpStatus} ${(reply.body ?? '').trim().slice(0, 400)}` : `no answer: ${reply.error ?? ''}`;
  return [`POST ${url}`, `sent: ${body.trim()}`, answered];
}

/** Notes on the plugin's configuration a backend author should know: what a failure does, how long answers are kept. */
function settingsNotes(backend: ImagePolicyBackend): string[] {
  const { defaultAllow, allowTtlMs, denyTtlMs } = backend.settings;
  return [
    defaultAllow
      ? `defaultAllow: true: while the backend fails (an error, a timeout, a 5xx after the retries), kube-apiserver admits every pod, with the audit annotation ${FAILED_OPEN_ANNOTATION}=true`
      : 'defaultAllow: false: while the backend fails (an error, a timeout, a 5xx after the retries), kube-apiserver refuses every pod create and image update',
    `answers are cached by the ImageReview's spec: an allow for ${allowTtlMs / 1000} s (allowTTL), a denial for ${denyTtlMs / 1000} s (denyTTL)`,
  ];
}

/**
 * The ImagePolicyWebhook backend battery: each scenario's ImageReview POSTed once as the plugin sends
 * it (and once more, to see the answer is stable), every check run on the reply; a failure says what
 * kube-apiserver would do with it, from the plugin's own retries and defaultAllow.
 */
export async function runImagePolicyBattery(backend: ImagePolicyBackend, options: ImagePolicyBatteryOptions): Promise<BackendBatteryReport> {
  const wanted = checkFilter(options.only, options.skip);
  const url = backendUrl(backend.context.server);
  const scenarios = imagePolicyScenarios(options.seed);
  const results = [];
  for (const [index, scenario] of scenarios.entries()) {
    options.onProgress?.(index, scenarios.length, scenario.title);
    const { attributes } = scenario;
    const body = encodeImageReview(buildImageReview(attributes.object ?? {}, attributes.subResource, attributes.namespace));
    const call: ImagePolicyCall = await timed(body, backend);
    if (call.reply.status && wanted('image-consistent')) call.again = (await timed(body, backend)).reply;
    let said: Promise<string> | undefined;
    const context = {
      deadlineMs: DEADLINE_SECONDS * 1000 * backend.context.timeScale,
      consequence: () => (said ??= consequence(backend, scenario, options.seed)),
    };
    const checks: BackendCheckResult[] = [];
    for (const check of IMAGE_POLICY_CHECKS) {
      if (!wanted(check.id)) continue;
      const verdict = await check.verify(call, context);
      if (verdict) checks.push({ id: check.id, status: verdict.pass ? 'pass' : 'fail', ...(verdict.detail ? { detail: verdict.detail } : {}) });
    }
    results.push({
      subject: backend.context.server,
      scenario: scenario.title,
      verdict: verdictOf(call),
      durationMs: call.durationMs,
      checks,
      details: detailsOf(url, body, call.reply),
    });
  }
  return backendReport('ImagePolicyWebhook', options.seed, results, settingsNotes(backend));
}
