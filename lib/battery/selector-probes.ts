import { namespaceSides, objectSides, selectsSomething } from '../admission-coverage/selector-sides';
import { refuserOf } from '../admission-coverage/from-trace';
import type { WebhookEntry } from '../config/load';
import type { KubeObject } from '../kube/admission';
import { isNamespaceResource } from '../kube/gvr';
import { BUILTIN_NAMESPACES, namespaceLabels } from '../kube/namespaces';
import { matchNamespaceSelector } from '../match/namespace-selector';
import { matchObjectSelector } from '../match/object-selector';
import type { NamespaceSpec } from '../match/namespace-store';
import type { Harness } from '../harness';
import { Review } from '../review/review';
import type { Scenario } from './requests';

/**
 * Where the battery sends a webhook's requests so that kube-apiserver would send them to it: a
 * namespace its namespaceSelector matches, objects labelled as its objectSelector wants. And the
 * requests that show the other side of each selector: the same request from a namespace made not to
 * match, or with labels made not to match, admitted through the chain (`h.admit`), where the webhook
 * is not called. The harness never sends a webhook what its selectors exclude.
 */
export interface Placement {
  /** The namespace of every namespaced request the webhook is sent. */
  namespace: string;
  /** Labels put on every object and old object, so the objectSelector matches. */
  labels?: Record<string, string>;
}

/** A request that shows a selector's "not matched" side: admitted, the webhook must be skipped. */
export interface ExclusionProbe {
  webhook: string;
  qualified: string;
  type: 'mutating' | 'validating';
  selector: 'namespaceSelector' | 'objectSelector';
  review: Review;
}

/** What the battery plans for one webhook's selectors. */
export interface SelectorPlan {
  /** The webhook's scenarios, placed; CONNECT ones left out under an objectSelector (never sent one). */
  scenarios: Scenario[];
  /** Namespaces to declare in the harness before the run. */
  namespaces: NamespaceSpec[];
  exclusions: ExclusionProbe[];
  /** Sides no request can be on, and requests kube-apiserver never sends the webhook, with why. */
  notes: string[];
}

const DEFAULT_LOOKUP = { labels: (name: string) => (BUILTIN_NAMESPACES.includes(name) ? namespaceLabels(name) : undefined) };

function relabel(object: KubeObject | null, namespace: string | undefined, labels: Record<string, string> | undefined, replace: boolean): KubeObject | null {
  if (!object || typeof object.metadata !== 'object' || object.metadata === null) return object;
  const metadata = { ...object.metadata };
  if (namespace !== undefined && metadata.namespace !== undefined) metadata.namespace = namespace;
  if (labels) metadata.labels = replace ? { ...labels } : { ...(metadata.labels ?? {}), ...labels };
  return { ...object, metadata };
}

/**
 * The request moved to `namespace` (namespaced requests only; a namespace's own requests keep theirs)
 * and its object and old object labelled with `labels`, merged into theirs or, with `replace`, instead.
 */
export function placed(review: Review, namespace: string | undefined, labels: Record<string, string> | undefined, replace = false): Review {
  const a = review.attributes;
  const moves = a.namespace !== '' && !isNamespaceResource(a.resource) ? namespace : undefined;
  if (moves === undefined && !labels) return review;
  return new Review({
    ...a,
    namespace: moves ?? a.namespace,
    object: relabel(a.object, moves, labels, replace),
    oldObject: relabel(a.oldObject, moves, labels, replace),
  });
}

/** The scenario's requests placed as `placement` says; a generated label the objectSelector forbids gives way to its labels alone. */
export function placeScenario(entry: WebhookEntry, scenario: Scenario, placement: Placement): Scenario {
  const place = (r: Review): Review => {
    const merged = placed(r, placement.namespace, placement.labels);
    if (!placement.labels || matchObjectSelector(entry.spec, merged.attributes).matches) return merged;
    return placed(r, placement.namespace, placement.labels, true);
  };
  return { ...scenario, review: place(scenario.review), ...(scenario.dryRunOf ? { dryRunOf: place(scenario.dryRunOf) } : {}) };
}

/**
 * The selectors' part of the battery for webhook number `index` of the run, given its scenarios
 * (already built; no seeded draw is taken here, so the other webhooks' requests stay as they were).
 */
export function planSelectors(entry: WebhookEntry, index: number, scenarios: readonly Scenario[]): SelectorPlan {
  const spec = entry.spec;
  const base = { webhook: spec.name, qualified: `${entry.configuration}/${spec.name}`, type: entry.type };
  const notes: string[] = [];
  const namespaces: NamespaceSpec[] = [];
  const exclusions: ExclusionProbe[] = [];
  const probe = probeScenario(scenarios, true);
  const objectProbe = probeScenario(scenarios, false);

  let namespace = 'default';
  let outside: string | undefined;
  if (selectsSomething(spec.namespaceSelector)) {
    const sides = namespaceSides(spec, { matched: `admission-harness-${index}-in`, notMatched: `admission-harness-${index}-out` });
    const defaultMatches = matchNamespaceSelector(spec, { ...probeAttributes, namespace: 'default' }, DEFAULT_LOOKUP).matches;
    // `default` when it matches: the requests stay as a webhook without selectors gets them.
    if (!defaultMatches) {
      if ('made' in sides.matched) {
        namespace = sides.matched.made.name;
        namespaces.push(sides.matched.made);
      } else notes.push(`the namespaceSelector's matched side: ${sides.matched.impossible}`);
    }
    if ('made' in sides.notMatched) {
      outside = sides.notMatched.made.name;
      // A built-in namespace keeps its labels: the name alone fails the selector (NotIn on kubernetes.io/metadata.name).
      if (!BUILTIN_NAMESPACES.includes(outside) || Object.keys(sides.notMatched.made.labels ?? {}).length > 0) namespaces.push(sides.notMatched.made);
    } else notes.push(`the namespaceSelector's not-matched side: ${sides.notMatched.impossible}`);
  }

  let labels: Record<string, string> | undefined;
  let unlabelled: Record<string, string> | undefined;
  if (selectsSomething(spec.objectSelector)) {
    const sides = objectSides(spec);
    if ('made' in sides.matched) labels = sides.matched.made;
    else notes.push(`the objectSelector's matched side: ${sides.matched.impossible}`);
    if ('made' in sides.notMatched) unlabelled = sides.notMatched.made;
    else notes.push(`the objectSelector's not-matched side: ${sides.notMatched.impossible}`);
  }

  const placement: Placement = { namespace, ...(labels ? { labels } : {}) };
  // A CONNECT's object is its options, which have no labels: kube-apiserver never sends one past an objectSelector.
  const connects = selectsSomething(spec.objectSelector) ? scenarios.filter((s) => s.kind === 'connect') : [];
  if (connects.length > 0)
    notes.push(
      `${connects.map((s) => s.title).join(', ')}: not sent: an objectSelector other than {} never matches a CONNECT (its options object has no labels)`,
    );
  const sent = scenarios.filter((s) => !connects.includes(s)).map((s) => placeScenario(entry, s, placement));
  if (probe && outside !== undefined) exclusions.push({ ...base, selector: 'namespaceSelector', review: placed(probe.review, outside, labels) });
  else if (outside !== undefined) notes.push("the namespaceSelector's not-matched side: the battery builds no namespaced CREATE its rules match");
  if (objectProbe && unlabelled) exclusions.push({ ...base, selector: 'objectSelector', review: placed(objectProbe.review, namespace, unlabelled, true) });
  else if (unlabelled) notes.push("the objectSelector's not-matched side: the battery builds no CREATE its rules match");
  return { scenarios: sent, namespaces, exclusions, notes };
}

// The namespaceSelector reads only the namespace of a pods CREATE; the rest is a stand-in.
const probeAttributes = {
  operation: 'CREATE' as const,
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
  name: 'probe',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  object: null,
  oldObject: null,
};

/** The request an exclusion is made of: the first CREATE of the webhook's main scenarios (no dry run), in a namespace if `namespaced`. */
function probeScenario(scenarios: readonly Scenario[], namespaced: boolean): Scenario | undefined {
  return scenarios.find(
    ({ kind, dryRunOf, review: { attributes: a } }) =>
      kind === 'main' && !dryRunOf && a.operation === 'CREATE' && (!namespaced || (a.namespace !== '' && !isNamespaceResource(a.resource))),
  );
}

/**
 * Admits the probe and says why it did not show the selector's other side, or undefined when it did
 * (the chain reached the webhook's turn and skipped it). Nothing of the outcome is judged otherwise.
 */
export async function runExclusion(harness: Harness, probe: ExclusionProbe): Promise<string | undefined> {
  const [configuration] = probe.qualified.split('/');
  let steps;
  try {
    steps = (await harness.admit(probe.review)).trace.steps;
  } catch (error) {
    return `the ${probe.selector}'s not-matched side: ${(error as Error).message}`;
  }
  const step = steps.find((s) => s.phase === probe.type && s.configuration === configuration && s.webhook === probe.webhook && !s.plugin && !s.policy);
  if (step?.decision === 'skipped') return undefined;
  const refusal = steps.find((s) => s.rejection);
  const why = step
    ? `the webhook was not skipped (${step.decision})`
    : refusal
      ? `${probe.review.summary()} was refused first by ${refuserOf(refusal)}`
      : 'the webhook had no turn';
  return `the ${probe.selector}'s not-matched side: ${why}`;
}
