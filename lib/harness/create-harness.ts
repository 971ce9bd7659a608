import { AgentPool } from '../call/agents';
import type { Refusal } from '../config/refusal';
import { AdmissionMetrics } from '../dispatch/metrics';
import type { MatchContext } from '../match/should-call';
import { SeededRandom } from '../random';
import { startTargets } from '../target/targets';
import { sharedAuthority } from '../tls';
import { admission } from './admit';
import { type CapabilityMethods, harnessCapabilities } from './capabilities';
import { capabilityClientConfigs, capabilityMockApiOptions, startCapabilities, type StartedCapabilities } from './capability';
import { mockCluster, seedObjects } from './cluster';
import type { HarnessCore } from './core';
import { harnessCoverage } from './coverage';
import { type CredentialsOf, webhookCredentials } from './credentials';
import { explanation } from './explain';
import { Lifecycle } from './lifecycle';
import { manifestLint } from './lint';
import { loadHarnessManifests } from './manifests';
import { matchContextFor } from './match-context';
import { type HarnessOptions, seedAndClock } from './options';
import { type EnabledPlugins, enabledPlugins } from './plugins';
import { type HarnessPolicies, policyHandles, preparePolicies } from './policies';
import type { Harness } from './types';
import { invoker, webhookCalls } from './webhooks';

/**
 * Creates a mock apiserver for one webhook target: loads and validates the manifests, issues
 * certificates, serves an in-process app on loopback TLS, and calls it as kube-apiserver does.
 */
export async function createHarness(options: HarnessOptions): Promise<Harness> {
  const { seed, timeScale } = seedAndClock(options);
  const authority = options.authority ?? (await sharedAuthority());
  const random = new SeededRandom(seed);
  const { catalog, manifests, registry, refusals } = await loadHarnessManifests(options);
  const webhooks = manifests.webhooks;
  const plugins = enabledPlugins(options.plugins);
  const capabilities = harnessCapabilities(options, catalog);
  const lifecycle = new Lifecycle();
  const metrics = new AdmissionMetrics();
  const agents = new AgentPool();
  lifecycle.own(() => agents.destroy());
  // Whatever started before a step fails (the mock API, the targets, a capability's servers) is closed again.
  try {
    const cluster = await mockCluster(options, { catalog, authority, seed, timeScale, capabilities: capabilityMockApiOptions(capabilities) }, lifecycle);
    seedObjects(cluster.store, options.objects ?? []);
    const policies = await preparePolicies(manifests, { cluster, catalog, options });
    const match = await matchContextFor(webhooks, {
      namespaces: cluster.namespaces,
      catalog,
      metrics,
      ...(options.authorizer ? { authorizer: options.authorizer } : {}),
    });
    const credentialsOf = await webhookCredentials(options.credentials, authority);
    const targets = await startTargets({
      target: options.target,
      stubs: options.stubs ?? {},
      webhooks,
      authority,
      timeScale,
      env: cluster.api?.env ?? {},
      clientConfigs: capabilityClientConfigs(capabilities),
    });
    lifecycle.own(() => targets.close());
    const core: HarnessCore = { options, seed, random, timeScale, authority, catalog, registry, webhooks, cluster, targets, agents, lifecycle };
    const extensions = await startCapabilities(capabilities, core);
    return harnessOf(core, { policies, match, credentialsOf, plugins, metrics, extensions, refusals });
  } catch (error) {
    await lifecycle.undo();
    throw error;
  }
}

/** The Harness, built once from its parts: each capability's module gives its methods. */
function harnessOf(
  core: HarnessCore,
  parts: {
    policies: HarnessPolicies;
    match: MatchContext;
    credentialsOf: CredentialsOf;
    plugins: EnabledPlugins;
    metrics: AdmissionMetrics;
    extensions: StartedCapabilities<CapabilityMethods>;
    refusals: readonly Refusal[];
  },
): Harness {
  const { seed, timeScale, webhooks, authority, catalog, registry, cluster, targets, lifecycle } = core;
  const { policies, match, credentialsOf, plugins, metrics, extensions, refusals } = parts;
  const coverage = harnessCoverage(webhooks, catalog, cluster.namespaces, extensions.coverage);
  // The summary is written before the servers close, so that a closing error cannot lose it.
  lifecycle.flushFirst(() => coverage.writeSummary());
  const invoke = invoker(core, credentialsOf);
  const chain = {
    match,
    plugins,
    policies: policies.context,
    validationPlugins: extensions.validationPlugins,
    metrics,
    coverage,
    invoke,
    convert: extensions.methods.convert,
  };
  return {
    seed,
    timeScale,
    webhooks,
    authority,
    caBundle: authority.caBundle,
    namespaces: cluster.namespaces,
    catalog,
    registry,
    ...(cluster.api ? { api: cluster.api } : {}),
    ...webhookCalls(core, invoke, coverage, extensions.methods.convert),
    ...policyHandles(core, policies),
    ...admission(core, chain),
    ...explanation(core, { match, policies, builtins: plugins.builtins }),
    coverage: () => coverage.collector(),
    ...manifestLint(core, policies, refusals),
    targetExit: () => targets.targetExit(),
    ...extensions.methods,
    close: () => lifecycle.close(),
  };
}
