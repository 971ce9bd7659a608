import type { WebhookEntry } from '../config/load';
import type { GroupVersionKind, GroupVersionResource } from '../kube/admission';
import { exemptionOf } from './exempt';
import type { MatchAttributes } from './request';
import { formatKind, formatResource, shouldCallHook, type MatchContext } from './should-call';

/** Whether one webhook would be called for a request, and why. */
export interface Explanation {
  /** The webhook's configuration; for a policy, the policy. */
  configuration: string;
  /** The webhook; for a policy, its binding. */
  name: string;
  type: 'mutating' | 'validating' | 'mutating-policy' | 'validating-policy';
  decision: 'called' | 'skipped' | 'error';
  /** The deciding reason; `reasons` has every step. */
  reason: string;
  reasons: string[];
  /** What a called webhook receives (after matchPolicy conversion). */
  kind?: GroupVersionKind;
  resource?: GroupVersionResource;
  subResource?: string;
  /** The client's error, when matching itself rejects the request (404 namespace, 403 matchConditions, 500). */
  status?: { code?: number; message?: string };
}

/**
 * For each webhook in kube-apiserver's call order (mutating, then validating), whether `attributes`
 * reaches it. Matching only: no webhook is called, so mutating webhooks are judged on the request as
 * sent, not as earlier webhooks would change it.
 */
export function explain(order: readonly WebhookEntry[], attributes: MatchAttributes, context: MatchContext): Explanation[] {
  const exempt = exemptionOf(attributes);
  return order.map((entry) => {
    const base = { configuration: entry.configuration, name: entry.spec.name, type: entry.type };
    if (exempt) return { ...base, decision: 'skipped', reason: exempt, reasons: [exempt] };
    const decision = shouldCallHook(entry.spec, attributes, context);
    const reasons = decision.why;
    if (decision.call) {
      const { kind, resource, subResource } = decision.invocation;
      return { ...base, decision: 'called', reason: reasons[reasons.length - 1] ?? '', reasons, kind, resource, subResource };
    }
    if (decision.error) {
      return {
        ...base,
        decision: 'error',
        reason: decision.error.message ?? '',
        reasons,
        status: { code: decision.error.code, message: decision.error.message },
      };
    }
    return { ...base, decision: 'skipped', reason: reasons[reasons.length - 1] ?? '', reasons };
  });
}

/** `pod-defaults.example.com: skipped — objectSelector {app=web} matched neither object nor oldObject`. */
export function formatExplanation(e: Explanation): string {
  if (e.type === 'validating-policy' || e.type === 'mutating-policy')
    return `${e.name}: ${e.decision === 'called' ? 'evaluated' : e.decision === 'error' ? 'fails to match' : 'skipped'} — ${e.reason}`;
  if (e.decision === 'called') {
    const kind = e.kind ? formatKind(e.kind) : '';
    const resource = e.resource ? formatResource(e.resource, e.subResource ?? '') : '';
    return `${e.name}: called — ${e.reason}; receives kind ${kind}, resource ${resource}`;
  }
  return `${e.name}: ${e.decision === 'error' ? 'rejects the request' : 'skipped'} — ${e.reason}`;
}

/**
 * A built-in admission plugin that acts on the request, as `Explanations.plugins` lists it: filled in
 * by whoever knows the plugins (the harness), printed here in its place in the chain.
 */
export interface PluginExplanation {
  name: string;
  phase: 'mutation' | 'validation';
  /** With the phase's plugins before its policies and webhooks, or after the validating webhooks (ResourceQuota). */
  position: 'before-webhooks' | 'after-webhooks';
  decision: 'acts' | 'refuses';
  reason: string;
}

/**
 * The explanations of one request, an array that prints (`String(h.explain(r))`) as the admission
 * trace does: the request, then mutating and validating webhooks in call order as a tree.
 */
export class Explanations extends Array<Explanation> {
  // map/filter give plain arrays: their elements need not be a request's explanations any more.
  static override get [Symbol.species](): ArrayConstructor {
    return Array;
  }

  /** The request line the tree starts with. */
  request = '';

  /** The built-in plugins that act on the request, in chain order; not elements, so the array stays webhooks and policies. */
  plugins: PluginExplanation[] = [];

  static forRequest(request: string, explanations: readonly Explanation[], plugins: readonly PluginExplanation[] = []): Explanations {
    const list = new Explanations();
    list.push(...explanations);
    list.request = request;
    list.plugins = [...plugins];
    return list;
  }

  override toString(): string {
    const lines = [this.request];
    const pluginLines = (phase: PluginExplanation['phase'], position: PluginExplanation['position']) =>
      this.plugins.filter((p) => p.phase === phase && p.position === position).map((p) => `${p.name} (built-in plugin): ${p.decision} — ${p.reason}`);
    const entryLines = (type: Explanation['type']) =>
      this.filter((e) => e.type === type).map((e, i) => {
        const policyKind = e.type === 'mutating-policy' ? 'MutatingAdmissionPolicy' : 'ValidatingAdmissionPolicy';
        return e.type === 'validating-policy' || e.type === 'mutating-policy'
          ? `${policyKind} ${e.configuration}${e.name ? ` with binding ${formatExplanation(e)}` : `: ${formatExplanation(e).replace(/^: /, '')}`}`
          : `[${i}] ${e.configuration}/${formatExplanation(e)}`;
      });
    // In the chain's order: each phase's built-in plugins, then its policies, then its webhooks; ResourceQuota last.
    const groups = [
      { title: 'built-in plugins, mutation phase', members: pluginLines('mutation', 'before-webhooks') },
      { title: 'mutating admission policies', members: entryLines('mutating-policy') },
      { title: 'mutating', members: entryLines('mutating') },
      { title: 'built-in plugins, validation phase', members: pluginLines('validation', 'before-webhooks') },
      { title: 'validating admission policies', members: entryLines('validating-policy') },
      { title: 'validating', members: entryLines('validating') },
      { title: 'built-in plugins after the validating webhooks', members: pluginLines('validation', 'after-webhooks') },
    ].filter((g) => g.members.length > 0);
    // No webhook or policy is reached: said last, after the plugins that still act.
    const noWebhooks = groups.every((g) => g.title.startsWith('built-in'));
    groups.forEach((group, g) => {
      const lastGroup = g === groups.length - 1 && !noWebhooks;
      lines.push(`${lastGroup ? '└─' : '├─'} ${group.title}`);
      group.members.forEach((member, i) => lines.push(`${lastGroup ? '   ' : '│  '}${i === group.members.length - 1 ? '└─' : '├─'} ${member}`));
    });
    if (noWebhooks) lines.push('└─ no webhooks');
    return lines.join('\n');
  }
}
