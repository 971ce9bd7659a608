import type { ASTNode } from '@marcbachmann/cel-js';
import { forEachNode } from './ast-walk';
import { namespaceValues } from './libraries/namespace';

/*
 * Functions cel-js declares on its own that kube-apiserver's environment does not have (apiserver
 * pkg/cel/environment/base.go enables neither ext.Bindings nor ext.Encoders, and cel-go has no member
 * functions on bytes): kube refuses them when compiling, as cel-go's checker (checker.go `checkCall`)
 * refuses any function it cannot find, naming each undeclared reference. So are the namespace constants
 * cel-js needs for cel-go's qualified function names, read anywhere but as the receiver of their functions
 * (lib/cel/libraries/namespace.ts).
 */

/** cel-js's member functions on bytes, which no library of kube's declares under any receiver. */
const CEL_JS_ONLY_MEMBERS = new Set(['json', 'hex', 'base64', 'string', 'at']);

export interface OutsideKubeIssue {
  offset: number;
  message: string;
}

const undeclared = (name: string) => `undeclared reference to '${name}' (in container '')`;

/** The offset of a member call's `(`, where cel-go locates the call (no blanks around the name assumed). */
function callOffset(node: ASTNode, name: string): number {
  const receiver = (node.args as [string, ASTNode])[1];
  return receiver.end + 1 + name.length;
}

export function outsideKubeIssues(ast: ASTNode): OutsideKubeIssue[] {
  const issues: OutsideKubeIssue[] = [];
  forEachNode(ast, (node) => {
    if (node.op !== 'rcall') return;
    const [name, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
    if (CEL_JS_ONLY_MEMBERS.has(name)) {
      issues.push({ offset: callOffset(node, name), message: undeclared(name) });
      return;
    }
    if (name === 'bind' && receiver.op === 'id' && receiver.args === 'cel') issues.push(...bindIssues(node, receiver, args));
  });
  for (const node of namespaceValues(ast)) issues.push({ offset: node.start, message: undeclared(node.args as string) });
  return issues;
}

/**
 * `cel.bind(v, init, expr)` without ext.Bindings: `cel` and `bind` are undeclared, and so is `v`
 * wherever the expressions read it (cel-go checks the arguments first; the display orders by position).
 */
function bindIssues(node: ASTNode, receiver: ASTNode, args: ASTNode[]): OutsideKubeIssue[] {
  const issues: OutsideKubeIssue[] = [
    { offset: receiver.start, message: undeclared('cel') },
    { offset: callOffset(node, 'bind'), message: undeclared('bind') },
  ];
  const [variable, ...expressions] = args;
  if (variable?.op !== 'id') return issues;
  for (const expression of expressions) {
    forEachNode(expression, (inner) => {
      if (inner.op === 'id' && inner.args === variable.args) issues.push({ offset: inner.start, message: undeclared(variable.args) });
    });
  }
  return issues;
}
