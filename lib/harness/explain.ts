// h.explain: the chain's decisions on a request without calling anything (policies, webhooks, built-in plugins).
import { callOrder } from '../config/order';
import type { AdmissionAttributes } from '../kube/attributes';
import { explain, Explanations, type PluginExplanation } from '../match/explain';
import type { MatchContext } from '../match/should-call';
import { PLUGIN_CHAIN } from '../plugins/involvement';
import { explainPolicies } from '../policy/explain';
import type { HarnessCore } from './core';
import type { HarnessPolicies } from './policies';
import type { Harness } from './types';

/** The enabled built-in plugins that act on a request (or refuse it), in chain order. */
function actingPlugins(enabled: ReadonlySet<string>, attributes: AdmissionAttributes, namespaceExists: (name: string) => boolean): PluginExplanation[] {
  return PLUGIN_CHAIN.filter((step) => enabled.has(step.plugin)).flatMap(({ plugin, phase, position, judge }) => {
    const { involved, refuses, reason } = judge(attributes, { namespaceExists });
    return involved ? [{ name: plugin, phase, position, decision: refuses ? ('refuses' as const) : ('acts' as const), reason }] : [];
  });
}

/** `h.explain`: for each policy and webhook in call order, and each built-in plugin, whether the request reaches it and why; calls nothing. */
export function explanation(
  core: HarnessCore,
  chain: { match: MatchContext; policies: HarnessPolicies; builtins: ReadonlySet<string> },
): Pick<Harness, 'explain'> {
  const { webhooks, seed } = core;
  const { namespaces } = core.cluster;
  const { match, builtins } = chain;
  const { validating, mutating, context } = chain.policies;
  return {
    explain: (review) =>
      Explanations.forRequest(
        `${review.summary()} · seed ${seed}`,
        [
          ...(context ? explainPolicies(mutating, review.attributes, context) : []),
          ...explain(callOrder(webhooks), review.attributes, match),
          ...(context ? explainPolicies(validating, review.attributes, context) : []),
        ],
        actingPlugins(builtins, review.attributes, (name) => namespaces.labels(name) !== undefined),
      ),
  };
}
