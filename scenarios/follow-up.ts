import type { CallOutcome } from '../lib/call/call-webhook';
import type { Harness } from '../lib/harness';
import type { KubeObject } from '../lib/kube/admission';
import { patchObject } from '../lib/dispatch/patch-object';
import { Review } from '../lib/review/review';
import type { CheckContext, CheckId, CheckVerdict } from './checks';
import type { Scenario } from './requests';

/** A check that needs more calls than the scenario's own. */
export interface FollowUpCheck {
  id: CheckId;
  title: string;
  /** undefined: does not apply. */
  run(harness: Harness, webhook: string, scenario: Scenario, outcome: CallOutcome, context: CheckContext): Promise<CheckVerdict | undefined>;
}

/** The object after the webhook's own patch, or undefined when it did not (validly) change it. */
function patchedObject({ applied }: CheckContext): KubeObject | undefined {
  return applied?.ok && applied.changed ? (applied.object as KubeObject) : undefined;
}

/** The verdict on a second answer to an object that already carries the first answer's changes. */
function unchanged(second: CallOutcome, object: KubeObject, when: string): CheckVerdict {
  if (second.error) return { pass: false, detail: `${when} the call failed: ${second.error.message}` };
  if (!second.allowed) return { pass: false, detail: `${when} the webhook denied its own output: ${second.denial?.message ?? ''}` };
  const again = patchObject(second.webhook, object, second.patch ?? []);
  if (!again.ok) return { pass: false, detail: `${when} the patch no longer applies: ${again.status.message ?? ''}` };
  if (!again.changed) return { pass: true };
  return { pass: false, detail: `${when} the webhook changed the object again: ${JSON.stringify(second.patch)}` };
}

export const FOLLOW_UP_CHECKS: readonly FollowUpCheck[] = [
  {
    id: 'idempotent-reinvocation',
    title: 'reinvoked with its own output, the webhook changes nothing more',
    run: async (harness, webhook, scenario, _outcome, context) => {
      const object = patchedObject(context);
      if (!object || scenario.dryRunOf) return undefined;
      const second = await harness.call(webhook, new Review({ ...scenario.review.attributes, object }));
      return unchanged(second, object, 'reinvoked with its own output,');
    },
  },
  {
    id: 'idempotent-preset',
    title: 'a new object that already carries the webhook’s changes is left alone',
    run: async (harness, webhook, scenario, _outcome, context) => {
      const object = patchedObject(context);
      if (!object || scenario.dryRunOf || scenario.review.attributes.operation !== 'CREATE') return undefined;
      // A copy of the admitted object under another name, as `kubectl get -o yaml | … | kubectl create` sends it:
      // a webhook keying its idempotence on the request (name, uid) instead of the object fails here.
      const name = `${object.metadata?.name ?? 'object'}-copy`;
      const copy: KubeObject = { ...object, metadata: { ...object.metadata, name } };
      const second = await harness.call(webhook, new Review({ ...scenario.review.attributes, name, object: copy }));
      return unchanged(second, copy, 'given a new object with its changes already made,');
    },
  },
  {
    id: 'dryrun-honored',
    title: 'a dryRun request gets the same decision as the real one',
    run: async (harness, webhook, scenario, outcome) => {
      if (!scenario.dryRunOf || outcome.error) return undefined;
      const real = await harness.call(webhook, scenario.dryRunOf);
      if (real.error) return undefined;
      return real.allowed === outcome.allowed
        ? { pass: true }
        : { pass: false, detail: `dryRun was ${outcome.allowed ? 'allowed' : 'denied'} but the same request without dryRun was ${real.allowed ? 'allowed' : 'denied'}: kubectl --dry-run=server would mislead` };
    },
  },
];
