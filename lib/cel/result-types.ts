import type { ASTNode } from '@marcbachmann/cel-js';

/*
 * Where cel-js's overload table declares another result type than cel-go's. cel-js registers
 * `duration + timestamp` with the type of its left operand (a duration) while its handler returns the
 * timestamp; cel-go declares overloads.AddDurationTimestamp as (duration, timestamp) → timestamp
 * (common/stdlib/standard.go). cel-js's operator declarations are frozen and a second overload
 * of the same signature is refused, so the type of each such node is set as it is checked
 * (lib/cel/check-every-issue.ts): the value was already the timestamp.
 */

const DURATION = 'google.protobuf.Duration';
const TIMESTAMP = 'google.protobuf.Timestamp';

interface TypeDeclaration {
  readonly name: string;
}

/** What cel-js's checker offers to look a type up by name. */
export interface TypeLookup {
  getType(name: string): unknown;
}

/** The type cel-go gives the node, where it differs from what cel-js's checker found (`type`). */
export function celGoResultType(node: ASTNode, type: unknown, checker: TypeLookup): unknown {
  if (node.op !== '+' || (type as TypeDeclaration | undefined)?.name !== DURATION) return type;
  const [left, right] = node.args as [ASTNode, ASTNode];
  return checkedTypeName(left) === DURATION && checkedTypeName(right) === TIMESTAMP ? checker.getType(TIMESTAMP) : type;
}

function checkedTypeName(node: ASTNode): string | undefined {
  return (node as { checkedType?: TypeDeclaration }).checkedType?.name;
}
