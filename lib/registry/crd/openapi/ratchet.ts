/**
 * Validation ratcheting for the schema's value validations on update (apiextensions-apiserver
 * pkg/apiserver/validation/ratcheting.go, CRDValidationRatcheting, on by default since 1.30 and GA):
 * while validating the new object, each field is correlated with the same field of the old object,
 * and the errors found at a field (and below it) are dropped when that field did not change.
 *
 * Correlation follows ratchetingValueValidator: object members by name; list items by their
 * `x-kubernetes-list-map-keys` for `map` lists, by index for lists without a list type, and not at all
 * for `set` and `atomic` lists. A node is "unchanged" when it deep-equals its old value, judged through
 * the children the validation visited: a member the validation did not visit (an unknown field kept by
 * x-kubernetes-preserve-unknown-fields, an item of an uncorrelated list) makes it count as changed.
 */
import { isObject, jsonEqual, type Json } from '../../../kube/json';
import type { SchemaNode } from '../schema-node';

export class RatchetNode {
  private readonly children = new Map<string | number, RatchetNode>();
  private equal: boolean | undefined;

  constructor(
    readonly value: Json | undefined,
    readonly old: Json | undefined,
  ) {}

  /** The node for member `name`, when the old object has it (SubPropertyValidator). */
  property(name: string): RatchetNode | undefined {
    if (!isObject(this.old) || !Object.hasOwn(this.old, name)) return undefined;
    const value = isObject(this.value) ? this.value[name] : undefined;
    const child = new RatchetNode(value, this.old[name]);
    this.children.set(name, child);
    return child;
  }

  /** The node for item `i` of a list described by `node` (SubIndexValidator). */
  item(i: number, node: SchemaNode): RatchetNode | undefined {
    if (!Array.isArray(this.old) || !Array.isArray(this.value) || i >= this.value.length) return undefined;
    const old = correlateItem(node, this.value[i] as Json, this.old, i);
    if (old === undefined) return undefined;
    const child = new RatchetNode(this.value[i], old);
    this.children.set(i, child);
    return child;
  }

  /** `CachedDeepEqual`. */
  unchanged(): boolean {
    this.equal ??= this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, old } = this;
    if ((value === undefined || value === null) && (old === undefined || old === null)) return true;
    if (value === undefined || value === null || old === undefined || old === null) return false;
    if (Array.isArray(old) || Array.isArray(value)) {
      if (!Array.isArray(old) || !Array.isArray(value) || old.length !== value.length) return false;
      if (this.children.size !== old.length) return false;
      return value.every((_, i) => this.children.get(i)?.unchanged() === true);
    }
    if (isObject(old) || isObject(value)) {
      if (!isObject(old) || !isObject(value)) return false;
      const keys = Object.keys(old);
      if (keys.length !== Object.keys(value).length) return false;
      if (keys.length === 0) return true;
      if (this.children.size !== keys.length) return false;
      return keys.every((name) => this.children.get(name)?.unchanged() === true);
    }
    return jsonEqual(old, value);
  }
}

/** `correlateOldValueForChildAtNewIndex`. */
function correlateItem(node: SchemaNode, item: Json, old: readonly Json[], i: number): Json | undefined {
  switch (node.listType) {
    case 'map':
      return findByKeys(node.listMapKeys, item, old);
    case 'set':
    case 'atomic':
      return undefined;
    default:
      return i < old.length ? old[i] : undefined;
  }
}

/** The old item with the same `x-kubernetes-list-map-keys` values (MakeMapList / Get). */
export function findByKeys(keys: readonly string[], item: Json, old: readonly Json[]): Json | undefined {
  if (!isObject(item)) return undefined;
  return old.find((candidate) => isObject(candidate) && keys.every((name) => jsonEqual(candidate[name], item[name])));
}
