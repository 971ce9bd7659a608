import type { ASTNode, ParseResult } from '@marcbachmann/cel-js';
import { celModule } from '../runtime';
import { nodeCost } from './node-cost';

/**
 * Runtime cost tracking, as cel-go's interpreter/runtimecost.go `CostObserver` does it: every step of
 * the evaluation adds its cost, and the evaluation is cancelled as soon as the total passes the limit.
 *
 * cel-js has no cost observer, but every evaluation step goes through its evaluator's `run(ast, ctx)`
 * (the root node aside). The tracker wraps that one method, once, and is active only while
 * `trackCost` runs: the values each step's children produced are what the cost of a call is computed
 * from (the length of a string, the size of a list), as cel-go reads them off its value stack.
 */

type Run = (this: unknown, ast: ASTNode, ctx: unknown) => unknown;

/** Thrown through the evaluation to stop it; evaluations never see it as a CEL value. */
export class CostLimitExceeded extends Error {
  override readonly name = 'CostLimitExceeded';
}

/** The child steps of one step: how many ran, and the nodes and values of those that finished, in the order they ran. */
export interface StepChildren {
  runs: number;
  nodes: ASTNode[];
  values: unknown[];
}

class CostTracker {
  cost = 0;
  cancelled = false;
  private readonly frames: StepChildren[] = [{ runs: 0, nodes: [], values: [] }];

  constructor(
    private readonly limit: number,
    private readonly run: Run,
  ) {}

  step(evaluator: unknown, ast: ASTNode, ctx: unknown): unknown {
    if (this.cancelled) throw new CostLimitExceeded();
    const parent = this.frames[this.frames.length - 1]!;
    parent.runs++;
    const children: StepChildren = { runs: 0, nodes: [], values: [] };
    this.frames.push(children);
    let value: unknown;
    try {
      value = this.run.call(evaluator, ast, ctx);
    } finally {
      this.frames.pop();
    }
    this.add(nodeCost(ast, children, value));
    parent.nodes.push(ast);
    parent.values.push(value);
    return value;
  }

  /** The root node is evaluated without `run`: its children are the base frame's. */
  finish(root: ASTNode, value: unknown): void {
    this.add(nodeCost(root, this.frames[0]!, value));
  }

  add(cost: number): void {
    this.cost += cost;
    if (this.cost > this.limit) {
      this.cancelled = true;
      throw new CostLimitExceeded();
    }
  }
}

let active: CostTracker | undefined;
let originalRun: Run | undefined;

/**
 * Wraps the evaluator's `run` once. cel-js does not export its evaluator, so the prototype is taken
 * from the `this` a function handler is called with, in an environment of its own.
 */
function installHook(): Run {
  if (originalRun) return originalRun;
  const { Environment } = celModule();
  let evaluator: object | undefined;
  const probe = new Environment().registerFunction('costProbe(): bool', function (this: object) {
    evaluator = this;
    return true;
  });
  probe.evaluate('costProbe()');
  const prototype = Object.getPrototypeOf(evaluator) as { run: Run };
  const run = prototype.run;
  prototype.run = function trackedRun(this: unknown, ast: ASTNode, ctx: unknown): unknown {
    return active === undefined ? run.call(this, ast, ctx) : active.step(this, ast, ctx);
  };
  originalRun = run;
  return run;
}

/** A program's value and what it cost, or the error it raised (a `CostLimitExceeded` past `limit`). */
export function trackCost(program: ParseResult, activation: Record<string, unknown>, limit: number): { value?: unknown; error?: unknown; cost: number } {
  const tracker = new CostTracker(limit, installHook());
  const outer = active;
  active = tracker;
  try {
    const value = program(activation);
    tracker.finish(program.ast, value);
    return { value, cost: tracker.cost };
  } catch (error) {
    return { error: tracker.cancelled ? new CostLimitExceeded() : error, cost: tracker.cost };
  } finally {
    active = outer;
  }
}
