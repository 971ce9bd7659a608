import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { forEachNode } from '../ast-walk';

/*
 * Function namespaces such as `sets` or `ip`. cel-go names these functions with a dot (`sets.contains`,
 * `ip.isCanonical`); cel-js has no such names, so — as cel-js does for `optional.of` — the namespace is
 * a constant of a type of the same name, and its functions are methods of that type
 * (`sets.contains(list<T>, list<T>): bool`). The constant is no identifier to cel-go (checker.go
 * `checkCall` resolves `sets.contains` as one qualified name, and `sets` alone is an undeclared
 * reference), so the issues below report it as cel-go does.
 */

const NAMESPACES = new Set<string>();

/** Declares a namespace. Registering it twice is harmless. */
export function registerNamespace(env: Environment, name: string): void {
  NAMESPACES.add(name);
  if (env.hasVariable(name)) return;
  const Namespace = { [name]: class {} }[name] as new () => object;
  env.registerType(name, Namespace).registerConstant(name, name, new Namespace());
}

export function isFunctionNamespace(name: string): boolean {
  return NAMESPACES.has(name);
}

/** The environment's function names as cel-go declares them: a namespace's function as `ip.isCanonical`. */
export function celGoFunctionNames(env: Environment): Set<string> {
  const names = env
    .getDefinitions()
    .functions.map(({ name, receiverType }) => (receiverType !== null && NAMESPACES.has(receiverType) ? `${receiverType}.${name}` : name));
  return new Set(names);
}

/**
 * The places a checked expression reads a namespace constant as a value (`ip == ip`, `[sets]`, `ip.x`),
 * not as the receiver of a call: cel-go has no such identifier there. A node is one when cel-js gave it
 * the namespace's own type, so that an iteration variable of the same name is not taken for it.
 */
export function namespaceValues(root: ASTNode): ASTNode[] {
  const receivers = new Set<unknown>();
  const found: ASTNode[] = [];
  forEachNode(root, (node) => {
    if (node.op === 'rcall') receivers.add((node.args as unknown[])[1]);
    const type = (node as { checkedType?: { name?: string } }).checkedType?.name;
    if (node.op === 'id' && NAMESPACES.has(node.args) && type === node.args && !receivers.has(node)) found.push(node);
  });
  return found;
}
