import type { CallOutcome } from '../call/call-webhook';
import type { Harness, HarnessCallOutcome } from '../harness';
import type { KubeObject } from '../kube/admission';
import { Review } from '../review/review';
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
function unchanged(second: HarnessCallOutcome, when: string): CheckVerdict {
  if (second.error) return { pass: false, detail: `${when} the call failed: ${second.error.message}` };
  if (!second.allowed) return { pass: false, detail: `${when} the webhook denied its own output: ${second.denial?.message ?? ''}` };
  // No patch, or an empty one, is no change; the harness judged any other as kube-apiserver would.
  const again = second.patched;
  if (!again) return { pass: true };
  if (!again.ok) return { pass: false, detail: `${when} the patch no longer applies: ${again.status.message ?? ''}` };
  if (!again.changed) return { pass: true };
  return { pass: false, detail: `${when} the webhook changed the object again: ${JSON.stringify(second.patch)}` };
}

/** Why the API's own validation refuses the object an answer produced, or undefined when it accepts it. */
function invalidity(outcome: HarnessCallOutcome): string | undefined {
  const patched = outcome.patched;
  return patched?.ok && patched.invalid ? `${patched.invalid.code} ${patched.invalid.message ?? ''}` : undefined;
}

// The change a typical later webhook makes (a label), after which kube-apiserver reinvokes IfNeeded webhooks.
const PEER_LABEL = 'admission-harness.io/peer';

/** The scenario's object with the webhook's output and a later webhook's label on top. */
function withPeerLabel(object: KubeObject): KubeObject {
  return { ...object, metadata: { ...object.metadata, labels: { ...object.metadata?.labels, [PEER_LABEL]: 'true' } } };
}

// How many times the storage layer admits one pod DELETE (k8s.io/apiserver/pkg/registry/generic/registry/store.go `Delete`; recorded in test/fixtures/apiserver-outcomes/delete-with-options.json).
const DELETE_ATTEMPTS = 3;

export const FOLLOW_UP_CHECKS: readonly FollowUpCheck[] = [
  {
    id: 'object-valid',
    title: 'the object the webhook’s patch produces is accepted by the API, alone and when reinvoked after a later webhook’s change',
    run: async (harness, webhook, scenario, outcome, context) => {
      if (!context.applied?.ok || !outcome.patch || outcome.patch.length === 0 || scenario.dryRunOf) return undefined;
      const alone = invalidity(outcome as HarnessCallOutcome);
      if (alone) return { pass: false, detail: `the API refuses the patched object: ${alone}` };
      const object = patchedObject(context);
      if (!object || scenario.review.attributes.operation !== 'CREATE') return { pass: true };
      const second = await harness.call(webhook, new Review({ ...scenario.review.attributes, object: withPeerLabel(object) }));
      const after = invalidity(second);
      return after
        ? {
            pass: false,
            detail: `reinvoked after another webhook added a label (reinvocationPolicy: IfNeeded), the webhook's output is refused by the API: ${after}`,
          }
        : { pass: true };
    },
  },
  {
    id: 'delete-repeatable',
    title: 'a DELETE admitted several times (once per storage attempt) gets the same answer each time and writes nothing',
    run: async (harness, webhook, scenario, outcome) => {
      const attributes = scenario.review.attributes;
      if (attributes.operation !== 'DELETE' || outcome.error || scenario.dryRunOf) return undefined;
      const first = outcome as HarnessCallOutcome;
      for (let attempt = 2; attempt <= DELETE_ATTEMPTS; attempt++) {
        const again = await harness.call(webhook, scenario.review);
        if (again.error) return { pass: false, detail: `storage attempt ${attempt} of the same DELETE: the call failed: ${again.error.message}` };
        if (again.allowed !== first.allowed) {
          return {
            pass: false,
            detail: `storage attempt ${attempt} of the same DELETE was ${again.allowed ? 'allowed' : 'denied'}, the first ${first.allowed ? 'allowed' : 'denied'}: kube-apiserver admits one pod DELETE up to ${DELETE_ATTEMPTS} times`,
          };
        }
        const writes = again.writes ?? [];
        if (writes.length > 0) {
          return {
            pass: false,
            detail: `storage attempt ${attempt} of the same DELETE wrote to the API again (${writes.map((w) => `${w.verb} ${w.path}`).join(', ')}): count storage attempts, not requests`,
          };
        }
      }
      return { pass: true };
    },
  },
  {
    id: 'idempotent-reinvocation',
    title: 'reinvoked with its own output, the webhook changes nothing more',
    run: async (harness, webhook, scenario, _outcome, context) => {
      const object = patchedObject(context);
      if (!object || scenario.dryRunOf) return undefined;
      const second = await harness.call(webhook, new Review({ ...scenario.review.attributes, object }));
      return unchanged(second, 'reinvoked with its own output,');
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
      return unchanged(second, 'given a new object with its changes already made,');
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
        : {
            pass: false,
            detail: `dryRun was ${outcome.allowed ? 'allowed' : 'denied'} but the same request without dryRun was ${real.allowed ? 'allowed' : 'denied'}: kubectl --dry-run=server would mislead`,
          };
    },
  },
];
