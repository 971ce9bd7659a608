import { admitRequest } from '../dispatch/admit';
import { AuditAnnotations } from '../dispatch/annotations';
import type { ConfiguredValidationPlugin, PolicyContext } from '../dispatch/context';
import type { AdmissionMetrics } from '../dispatch/metrics';
import { AdmissionTrace } from '../dispatch/trace';
import { WarningRecorder } from '../dispatch/warnings';
import type { MatchContext } from '../match/should-call';
import type { WriteRecord } from '../mockapi/write-log';
import { SeededRandom } from '../random';
import { storageRandom } from '../registry';
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
}

/** `h.admit`, the whole admission chain as kube-apiserver runs it, and `h.metrics`, what it counted. */
export function admission(core: HarnessCore, chain: AdmissionChain): Pick<Harness, 'admit' | 'metrics'> {
  const { options, webhooks, registry, random, seed, timeScale, lifecycle } = core;
  const { api, objects } = core.cluster;
  const { match, plugins, policies, validationPlugins, metrics, coverage, invoke } = chain;
  const pluginConfiguration = plugins.configuration;
  const kindResources = kindResourcesOf(core.catalog);
  const warnAboutSetup = admissionSetupWarnings();
  return {
    metrics: () => metrics.toString(),
    async admit(review, admitOptions = {}) {
      lifecycle.assertOpen();
      // The harness's own loading (schemas, decoders on first use) is no part of the request's time.
      await registry.ready();
      const started = performance.now();
      const deadlineMs = admitOptions.timeoutSeconds !== undefined ? admitOptions.timeoutSeconds * 1000 : undefined;
      const elapsedMs = (): number => (performance.now() - started) / timeScale;
      const trace = new AdmissionTrace(`${review.summary()} · seed ${seed}`);
      const warnings = new WarningRecorder();
      const annotations = new AuditAnnotations();
      const writes: WriteRecord[] = [];
      const result = await admitRequest(review.attributes, {
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
      });
      warnAboutSetup(trace.steps);
      coverage.admission(trace.steps, review.attributes);
      return admitResult(
        { object: result.object, rejection: result.rejection, exempt: result.exempt, writes: api ? writes : undefined },
        { warnings, annotations, trace, seed },
      );
    },
  };
}
