import type { CallOutcome } from '../call/call-webhook';
import type { JsonPatchOperation, Status } from '../kube/admission';
import type { MissingObject } from '../plugins/plugin';

/** What happened at one point of the chain: a webhook, a built-in plugin, or the registry between the phases. */
export interface TraceStep {
  phase: 'mutating' | 'validating' | 'registry' | 'validating-policy';
  round: 0 | 1;
  /** Mutating: position in the sorted list of all mutating webhooks. Validating: among the matching ones. Plugins and the registry: -1. */
  index: number;
  /** The webhook's configuration; '' for a built-in plugin and the registry. */
  configuration: string;
  /** The webhook's name, the plugin's name, or `registry`. */
  webhook: string;
  /** A built-in admission plugin (lib/plugins), not a webhook. */
  plugin?: boolean;
  /** An admission policy with one of its bindings (`configuration` is the policy, `webhook` the binding). */
  policy?: {
    kind: 'ValidatingAdmissionPolicy' | 'MutatingAdmissionPolicy';
    outcome: string;
    /** Expressions and configuration that failed, whatever the failurePolicy made of them. */
    errors: string[];
  };
  decision: 'skipped' | 'not-reinvoked' | 'called' | 'rejected-without-call';
  /** The reasons, in the order kube-apiserver decided them. */
  why: string[];
  outcome?: CallOutcome;
  /** The call failed and failurePolicy Ignore let the request through. */
  failedOpen?: boolean;
  /** The patch applied to the object, and whether kube-apiserver counts it as a change. */
  patch?: JsonPatchOperation[];
  mutated?: boolean;
  /** The patch counted as a change only because it was the request's first (its managedFields time lost precision). */
  firstPatch?: boolean;
  /** Fields of the patched object its kind does not have, dropped by the decode. */
  dropped?: string[];
  /** Fields the kind's defaulters filled in after the decode (or a plugin added). */
  defaulted?: string[];
  /** The rejection this step caused, as the client sees it. */
  rejection?: Status;
  /** A plugin's refusal: the object it looked up and the cluster lacks, when that is the cause. */
  missing?: MissingObject;
  durationMs?: number;
  /** For a DELETE admitted more than once: which storage attempt this step belongs to (1-based) and what it was. */
  attempt?: { number: number; of: number; step: string };
}

/** Every step of one admission, printable as a tree. */
export class AdmissionTrace {
  readonly steps: TraceStep[] = [];

  constructor(
    /** One line naming the request. */
    readonly request: string,
  ) {}

  /** The webhooks actually called, in call order (validating ones in list order). */
  get calls(): TraceStep[] {
    return this.steps.filter((s) => s.decision === 'called' && !s.plugin && !s.policy && s.phase !== 'registry');
  }

  /** A readable tree: phase and round (and storage attempt), then one line per webhook, plugin or registry step. */
  toString(): string {
    const lines = [this.request];
    const groups: { title: string; steps: TraceStep[] }[] = [];
    for (const step of this.steps) {
      const phase =
        step.phase === 'mutating'
          ? `mutating round ${step.round}`
          : step.phase === 'registry'
            ? 'registry'
            : step.phase === 'validating-policy'
              ? 'validating admission policies'
              : 'validating';
      const title = step.attempt ? `storage attempt ${step.attempt.number} of ${step.attempt.of} (${step.attempt.step}): ${phase}` : phase;
      const last = groups[groups.length - 1];
      if (last?.title === title) last.steps.push(step);
      else groups.push({ title, steps: [step] });
    }
    groups.forEach((group, g) => {
      const lastGroup = g === groups.length - 1;
      lines.push(`${lastGroup ? '└─' : '├─'} ${group.title}`);
      group.steps.forEach((step, s) => {
        const branch = s === group.steps.length - 1 ? '└─' : '├─';
        lines.push(`${lastGroup ? '   ' : '│  '}${branch} ${label(step)}: ${describe(step)}`);
      });
    });
    if (groups.length === 0) lines.push('└─ no webhook configured');
    return lines.join('\n');
  }
}

function label(step: TraceStep): string {
  if (step.plugin) return `${step.webhook} (built-in plugin)`;
  if (step.phase === 'registry') return 'strategy and validation';
  if (step.policy) return `${step.policy.kind} ${step.configuration}${step.webhook ? ` with binding ${step.webhook}` : ''}`;
  return `[${step.index}] ${step.configuration}/${step.webhook}`;
}

// At most this many field paths per list in a trace line.
const SHOWN = 4;
function paths(list: readonly string[]): string {
  return list.length <= SHOWN ? list.join(', ') : `${list.slice(0, SHOWN).join(', ')} and ${list.length - SHOWN} more`;
}

function objectNotes(step: TraceStep): string {
  const notes: string[] = [];
  if (step.dropped && step.dropped.length > 0) notes.push(`unknown fields dropped: ${paths(step.dropped)}`);
  if (step.defaulted && step.defaulted.length > 0) notes.push(`${step.plugin ? 'added' : 'defaulted'}: ${paths(step.defaulted)}`);
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

function describe(step: TraceStep): string {
  if (step.plugin) return step.rejection ? `rejected — ${step.rejection.message ?? ''}` : `changed the object${objectNotes(step)}`;
  if (step.phase === 'registry') return step.rejection ? `rejected — ${step.rejection.code} ${step.rejection.message ?? ''}` : 'the object is valid';
  if (step.policy) {
    if (step.decision === 'skipped') return `skipped — ${step.why[step.why.length - 1] ?? ''}`;
    if (step.decision === 'not-reinvoked') return 'not reinvoked — it was not scheduled for round 1';
    // A ValidatingAdmissionPolicy's outcome already names the failed validation and the action that denied.
    if (step.rejection && step.phase !== 'validating-policy') return `rejected — ${step.rejection.code} ${step.rejection.message ?? ''}`;
    return `${step.policy.outcome}${objectNotes(step)}`;
  }
  if (step.decision === 'skipped') return `skipped — ${step.why[step.why.length - 1] ?? ''}`;
  if (step.decision === 'not-reinvoked') return 'not reinvoked — it was not scheduled for round 1';
  if (step.decision === 'rejected-without-call') return `rejected without a call — ${step.rejection?.message ?? ''}`;
  const o = step.outcome;
  const ms = step.durationMs !== undefined ? ` (${step.durationMs.toFixed(1)} ms)` : '';
  if (o?.error) return `${step.failedOpen ? 'failed open' : 'failed'}${ms} — ${o.error.message}`;
  if (o?.denial) return `denied${ms} — ${o.denial.code} ${o.denial.message}`;
  if (step.rejection) return `rejected${ms} — ${step.rejection.message}`;
  if (!step.patch || step.patch.length === 0) return `allowed${ms}`;
  const ops = `patch of ${step.patch.length} op${step.patch.length === 1 ? '' : 's'}`;
  const verdict = step.mutated ? (step.firstPatch ? 'mutated (the request’s first patch always counts as a change)' : 'mutated') : 'no change';
  return `allowed${ms}, ${ops}, ${verdict}${objectNotes(step)}`;
}
