import type { ASTNode } from '@marcbachmann/cel-js';

/**
 * Visits every node of a parsed expression once, parents first (or, with `childrenFirst`, each node
 * after its operands, left to right, the order in which cel-go's planner builds a program). Nodes keep
 * their operands in `args`: a node, an array of nodes (or of `[key, value]` pairs), a literal, or an
 * object of nodes. A macro's expansion reuses the nodes written in the expression, so visiting what was
 * written reaches them.
 */
export function forEachNode(root: ASTNode, visit: (node: ASTNode) => void, childrenFirst = false): void {
  const seen = new WeakSet<object>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (!isNode(value)) {
      walk(Object.values(value));
      return;
    }
    if (!childrenFirst) visit(value);
    if (value.op !== 'value') walk(value.args);
    if (childrenFirst) visit(value);
  };
  walk(root);
}

export function isNode(value: unknown): value is ASTNode {
  return value !== null && typeof value === 'object' && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}

/** A literal string argument's value, if the node is one. */
export function stringLiteral(node: unknown): string | undefined {
  return isNode(node) && node.op === 'value' && typeof node.args === 'string' ? node.args : undefined;
}
