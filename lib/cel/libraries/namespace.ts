import type { Environment } from '@marcbachmann/cel-js';

/**
 * Declares a function namespace such as `sets` or `math`. cel-go names these functions with a dot
 * (`sets.contains`); cel-js has no such names, so — as cel-js does for `optional.of` — the namespace is a
 * constant of a type of the same name, and its functions are methods of that type
 * (`sets.contains(list<T>, list<T>): bool`). Registering it twice is harmless.
 */
export function registerNamespace(env: Environment, name: string): void {
  if (env.hasVariable(name)) return;
  const Namespace = { [name]: class {} }[name] as new () => object;
  env.registerType(name, Namespace).registerConstant(name, name, new Namespace());
}
