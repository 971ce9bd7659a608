import { admitRequest, type ChainResult } from '../dispatch/admit';
import type { AdmissionAttributes } from '../kube/attributes';
import { requestLine } from '../review/review';
import { AuditAnnotations } from '../dispatch/annotations';
import type { ConfiguredValidationPlugin, PolicyContext } from '../dispatch/context';
import type { AdmissionMetrics } from '../dispatch/metrics';
import { AdmissionTrace } from '../dispatch/trace';
import { WarningRecorder } from '../kube/warning-recorder';
import type { MatchContext } from '../match/should-call';
import type { WriteRecord } from '../mockapi/write-log';
import { SeededRandom } from '../random';
import { storageRandom } from '../registry';
import { admissionConverter } from './admission-conversion';
import { admitResult } from './admit-result';
import { admissionSetupWarnings } from './admit-warnings';
import type { HarnessCore } from './core';
import type { HarnessCoverage } from './coverage';
import { type EnabledPlugins, kindResourcesOf } from './plugins';
import type { Harness } from './types';
import { callableOf, type Invoke } from './webhooks';

/** What h.admit runs besides the manifests' webhooks: the chain's plugins, policies and match data, and where it reports. */
export interface AdmissionChain {
  match: MatchContext;
  plugins: EnabledPlugins;
  policies: PolicyContext | undefined;
  /** Plugins the harness's capabilities add to the validation phase (ImagePolicyWebhook). */
  validationPlugins: readonly ConfiguredValidationPlugin[];
  metrics: AdmissionMetrics;
  coverage: HarnessCoverage;
  invoke: Invoke;
  /** `h.convert`, for custom resources a webhook matched at another version (lib/harness/admission-conversion.ts). */
  convert?: Harness['convert'];
}

/** What one run of the chain records besides its result. */
interface ChainRecords {
  warnings: WarningRecorder;
  annotations: AuditAnnotations;
  trace: AdmissionTrace;
  writes: WriteRecord[];
}

/** One request through the whole chain, its webhook calls bounded by `deadlineMs` when given. */
function chainRunner(core: HarnessCore, chain: AdmissionChain) {
  const { options, webhooks, registry, random, timeScale } = core;
  const { objects } = core.cluster;
  const { match, plugins, policies, validationPlugins, metrics, coverage, invoke } = chain;
  const pluginConfiguration = plugins.configuration;
  const kindResources = kindResourcesOf(core.catalog);
  const convertObject = admissionConverter(core.catalog, chain.convert);
  return async (attributes: AdmissionAttributes, records: ChainRecords, deadlineMs?: number): Promise<ChainResult> => {
    // The harness's own loading (schemas, decoders on first use) is no part of the request's time.
    await registry.ready();
    const started = performance.now();
    const elapsedMs = (): number => (performance.now() - started) / timeScale;
    const { warnings, annotations, trace, writes } = records;
    const result = await admitRequest(attributes, {
      webhooks,
      match,
      call: async (entry, attributes, invocation) => {
        const outcome = await invoke(callableOf(entry), attributes, invocation, deadlineMs !== undefined ? deadlineMs - elapsedMs() : undefined);
        writes.push(...(outcome.writes ?? []));
        return outcome;
      },
      requestExpired: () => deadlineMs !== undefined && elapsedMs() >= deadlineMs,
      warnings,
      annotations,
      trace,
      metrics,
      registry,
      plugins: plugins.mutating,
      builtins: plugins.builtins,
      cluster: objects,
      ...(options.podSecurity ? { podSecurity: options.podSecurity } : {}),
      ...(pluginConfiguration ? { pluginConfiguration } : {}),
      ...(options.authorizer ? { authorizer: options.authorizer } : {}),
      kindResources,
      ...(policies ? { policies } : {}),
      random: storageRandom(new SeededRandom(random.int(2 ** 31))),
      configuredPlugins: validationPlugins,
      ...(convertObject ? { convertObject } : {}),
    });
    coverage.admission(trace.steps, attributes);
    return result;
  };
}

const freshRecords = (title: string): ChainRecords => ({
  warnings: new WarningRecorder(),
  annotations: new AuditAnnotations(),
  trace: new AdmissionTrace(title),
  writes: [],
});

/** `h.admit`, the whole admission chain as kube-apiserver runs it, and `h.metrics`, what it counted. */
export function admission(core: HarnessCore, chain: AdmissionChain): Pick<Harness, 'admit' | 'metrics'> {
  const { seed, lifecycle } = core;
  const { api } = core.cluster;
  const run = chainRunner(core, chain);
  const warnAboutSetup = admissionSetupWarnings();
  // A mock API asked to admit its writes (`admitWrites`) runs each through this same chain, as a cluster does.
  if (api?.admitsWrites) {
    const stop = api.admitWritesWith(async (attributes) => {
      const records = freshRecords(`${requestLine(attributes)} · mock API write · seed ${seed}`);
      const result = await run(attributes, records);
      return { object: result.object, ...(result.rejection ? { rejection: result.rejection } : {}), warnings: records.warnings.headers };
    });
    lifecycle.own(async () => stop());
  }
  return {
    metrics: () => chain.metrics.toString(),
    async admit(review, admitOptions = {}) {
      lifecycle.assertOpen();
      const deadlineMs = admitOptions.timeoutSeconds !== undefined ? admitOptions.timeoutSeconds * 1000 : undefined;
      const records = freshRecords(`${review.summary()} · seed ${seed}`);
      const result = await run(review.attributes, records, deadlineMs);
      warnAboutSetup(records.trace.steps);
      return admitResult(
        { object: result.object, rejection: result.rejection, exempt: result.exempt, writes: api ? records.writes : undefined },
        { warnings: records.warnings, annotations: records.annotations, trace: records.trace, seed },
      );
    },
  };
}
