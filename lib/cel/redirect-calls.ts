import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachNode } from './ast-walk';

/*
 * cel-js rejects a second overload with the signature of one it has, so a built-in whose behaviour
 * differs from cel-go's cannot be replaced by registering the project's own. Type checking leaves on each
 * call node the handler cel-js will run (`handle`); replacing it on a checked program runs the
 * project's function instead, for every call whose values it takes, and cel-js's for the others (which
 * keep cel-js's runtime overload resolution and its `no such overload`).
 */

/** What a redirect returns to let cel-js's own handler run the call. */
export const CEL_JS_RUNS = Symbol('cel-js runs the call');

/** A call as written: `name(args)`, or `receiver.name(args)` when it is a member call. */
export interface CallShape {
  readonly name: string;
  readonly member: boolean;
  readonly arity: number;
}

/**
 * Runs a call with its evaluated values (for a member call, the receiver first, then the arguments), or
 * returns CEL_JS_RUNS for values it does not take.
 */
export type CallRedirect = (values: readonly unknown[]) => unknown;

type Handle = (values: unknown[], ...rest: unknown[]) => unknown;

/** Replaces the handler of every checked call for which `redirectFor` gives a redirect. */
export function redirectCalls(root: ASTNode, redirectFor: (call: CallShape) => CallRedirect | undefined): void {
  forEachNode(root, (node) => {
    if (node.op !== 'call' && node.op !== 'rcall') return;
    const member = node.op === 'rcall';
    const operands = node.args as unknown[];
    const name = operands[0];
    const args = member ? operands[2] : operands[1];
    const call = node as unknown as { handle?: Handle };
    const original = call.handle;
    if (typeof name !== 'string' || !Array.isArray(args) || typeof original !== 'function') return;
    const redirect = redirectFor({ name, member, arity: args.length });
    if (!redirect) return;
    call.handle = (values, ...rest) => {
      const result = redirect(values);
      return result === CEL_JS_RUNS ? original(values, ...rest) : result;
    };
  });
}
