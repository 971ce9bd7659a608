import type { CallOutcome } from '../call/call-webhook';
import type { JsonPatchOperation, Status } from '../kube/admission';

/** What happened to one webhook at one point of the chain. */
export interface TraceStep {
  phase: 'mutating' | 'validating';
  round: 0 | 1;
  /** Mutating: position in the sorted list of all mutating webhooks. Validating: among the matching ones. */
  index: number;
  configuration: string;
  webhook: string;
  decision: 'skipped' | 'not-reinvoked' | 'called' | 'rejected-without-call';
  /** The reasons, in the order kube-apiserver decided them. */
  why: string[];
  outcome?: CallOutcome;
  /** The call failed and failurePolicy Ignore let the request through. */
  failedOpen?: boolean;
  /** The patch applied to the object, and whether it changed it. */
  patch?: JsonPatchOperation[];
  mutated?: boolean;
  /** The rejection this step caused, as the client sees it. */
  rejection?: Status;
  durationMs?: number;
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
    return this.steps.filter((s) => s.decision === 'called');
  }

  /** A readable tree: phase and round, then one line per webhook with its decision. */
  toString(): string {
    const lines = [this.request];
    const groups: { title: string; steps: TraceStep[] }[] = [];
    for (const step of this.steps) {
      const title = step.phase === 'mutating' ? `mutating round ${step.round}` : 'validating';
      const last = groups[groups.length - 1];
      if (last?.title === title) last.steps.push(step);
      else groups.push({ title, steps: [step] });
    }
    groups.forEach((group, g) => {
      const lastGroup = g === groups.length - 1;
      lines.push(`${lastGroup ? '└─' : '├─'} ${group.title}`);
      group.steps.forEach((step, s) => {
        const branch = s === group.steps.length - 1 ? '└─' : '├─';
        lines.push(`${lastGroup ? '   ' : '│  '}${branch} [${step.index}] ${step.configuration}/${step.webhook}: ${describe(step)}`);
      });
    });
    if (groups.length === 0) lines.push('└─ no webhook configured');
    return lines.join('\n');
  }
}

function describe(step: TraceStep): string {
  if (step.decision === 'skipped') return `skipped — ${step.why[step.why.length - 1] ?? ''}`;
  if (step.decision === 'not-reinvoked') return 'not reinvoked — it was not scheduled for round 1';
  if (step.decision === 'rejected-without-call') return `rejected without a call — ${step.rejection?.message ?? ''}`;
  const o = step.outcome;
  const ms = step.durationMs !== undefined ? ` (${step.durationMs.toFixed(1)} ms)` : '';
  if (o?.error) return `${step.failedOpen ? 'failed open' : 'failed'}${ms} — ${o.error.message}`;
  if (o?.denial) return `denied${ms} — ${o.denial.code} ${o.denial.message}`;
  if (step.rejection) return `rejected${ms} — ${step.rejection.message}`;
  const patch = step.patch && step.patch.length > 0 ? `, patch of ${step.patch.length} op${step.patch.length === 1 ? '' : 's'}${step.mutated ? ', mutated' : ', no change'}` : '';
  return `allowed${ms}${patch}`;
}
