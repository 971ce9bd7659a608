import type { WebhookEntry } from '../config/load';
import { jsonEqual } from '../kube/json';
import type { CoverageEvent, CoverageRequest } from './event';
import { coverageStep, eventsFromTrace, type CoverageTraceStep } from './from-trace';

interface AdmissionEntry {
  steps: CoverageTraceStep[];
  request: CoverageRequest;
}

/**
 * What a harness keeps for its coverage until someone reads it. Events are kept small and made only
 * when asked for: an `h.call` keeps its event (the request's few fields), an `h.admit` the step fields
 * coverage reads, turned into events (which parses each step's sentences) on the first read.
 *
 * Coverage is a set of cells, so an admission that says for coverage exactly what the one before it said
 * (the same request shape, the same decisions for the same reasons) adds nothing and is not kept: a test
 * that admits one object in a loop keeps one entry, not one per admission for the rest of the file.
 */
export class CoverageLog {
  #items: (CoverageEvent | AdmissionEntry)[] = [];
  #lastAdmission: AdmissionEntry | undefined;

  /** An `h.call` to a webhook of the configuration. */
  call(event: CoverageEvent): void {
    this.#items.push(event);
  }

  /** An `h.admit`: its trace's steps and the request. */
  admission(steps: readonly CoverageTraceStep[], request: CoverageRequest): void {
    const last = this.#lastAdmission;
    if (last && sameRequest(last.request, request) && sameSteps(last.steps, steps)) return;
    const entry = { steps: steps.map(coverageStep), request };
    this.#items.push(entry);
    this.#lastAdmission = entry;
  }

  /** Every event recorded, in the order the requests came; admissions are turned into events once. */
  events(webhooks: readonly WebhookEntry[]): CoverageEvent[] {
    const events: CoverageEvent[] = [];
    for (const item of this.#items) {
      if ('steps' in item) for (const event of eventsFromTrace(item.steps, item.request, webhooks)) events.push(event);
      else events.push(item);
    }
    this.#items = [...events];
    this.#lastAdmission = undefined;
    return events;
  }
}

function sameRequest(a: CoverageRequest, b: CoverageRequest): boolean {
  return (
    a.operation === b.operation &&
    a.subResource === b.subResource &&
    a.namespace === b.namespace &&
    a.dryRun === b.dryRun &&
    a.resource.group === b.resource.group &&
    a.resource.version === b.resource.version &&
    a.resource.resource === b.resource.resource
  );
}

// Every field coverageStep keeps, compared: a step kept from an earlier admission is the same for
// coverage only when each one is.
function sameSteps(kept: readonly CoverageTraceStep[], steps: readonly CoverageTraceStep[]): boolean {
  if (kept.length !== steps.length) return false;
  for (let i = 0; i < steps.length; i++) {
    const a = kept[i]!;
    const b = steps[i]!;
    if (a.phase !== b.phase || a.configuration !== b.configuration || a.webhook !== b.webhook || a.decision !== b.decision || a.plugin !== b.plugin)
      return false;
    if (a.why.length !== b.why.length || a.why.some((sentence, k) => sentence !== b.why[k])) return false;
    if (!jsonEqual(a.policy, b.policy) || !jsonEqual(a.rejection, b.rejection) || !jsonEqual(a.matchConditions, b.matchConditions)) return false;
  }
  return true;
}
