/**
 * Old/new correlation for x-kubernetes-validations on update (apiserver pkg/cel/common/equality.go
 * `CorrelatedObject`): a node is correlated with the old object's node at the same object member, or,
 * in a `map` list, with the old item of the same keys; items of other lists are not correlated. A rule
 * that is not a transition rule and fails on a node equal to its old value (or, for an uncorrelated
 * node, whose nearest correlated ancestor is unchanged) is ratcheted: reported as a warning instead
 * of an error.
 */
import { isObject, jsonEqual, type Json } from '../../../kube/json';
import { findByKeys } from '../openapi/ratchet';
import type { SchemaNode } from '../schema-node';

export class Correlation {
  private readonly children = new Map<string | number, Correlation | undefined>();
  private equal: boolean | undefined;

  constructor(
    readonly value: Json | undefined,
    readonly old: Json | undefined,
    readonly schema: SchemaNode,
  ) {}

  /** `Key(field)`: both objects have it and the schema describes it. */
  key(field: string): Correlation | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let child: Correlation | undefined;
    if (isObject(this.old) && isObject(this.value) && Object.hasOwn(this.old, field) && Object.hasOwn(this.value, field)) {
      const property =
        this.schema.properties.get(field) ?? (typeof this.schema.additionalProperties === 'object' ? this.schema.additionalProperties : undefined);
      if (property) child = new Correlation(this.value[field], this.old[field], property);
    }
    this.children.set(field, child);
    return child;
  }

  /** `Index(i)`: map lists only. */
  index(i: number): Correlation | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let child: Correlation | undefined;
    const items = this.schema.items;
    if (items && this.schema.listType === 'map' && Array.isArray(this.old) && Array.isArray(this.value) && i < this.value.length) {
      const old = findByKeys(this.schema.listMapKeys, this.value[i] as Json, this.old);
      if (old !== undefined) child = new Correlation(this.value[i], old, items);
    }
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
    if (Array.isArray(old) !== Array.isArray(value) || isObject(old) !== isObject(value)) return false;
    if (Array.isArray(old) && Array.isArray(value)) {
      if (old.length !== value.length) return false;
      if (this.schema.listType !== 'map') return jsonEqual(old, value);
      return value.every((_, i) => this.index(i)?.unchanged() === true);
    }
    if (isObject(old) && isObject(value)) {
      if (Object.keys(old).length !== Object.keys(value).length) return false;
      return Object.keys(value).every((field) => this.key(field)?.unchanged() === true);
    }
    return jsonEqual(old, value);
  }
}

/** Where a validation node sits in the correlation (cel/validation.go `ratchetingOptions`). */
export interface Ratcheting {
  current?: Correlation;
  nearestParent?: Correlation;
}

export function ratchetKey(options: Ratcheting, field: string): Ratcheting {
  if (!options.current) return options;
  // apiVersion and kind of the root cannot ratchet: old and new were converted to the same version.
  if (!options.nearestParent && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: options.current.key(field), nearestParent: options.current };
}

export function ratchetIndex(options: Ratcheting, i: number): Ratcheting {
  if (!options.current) return options;
  return { current: options.current.index(i), nearestParent: options.current };
}

/** `shouldRatchetError`. */
export function shouldRatchet(options: Ratcheting): boolean {
  if (options.current) return options.current.unchanged();
  return options.nearestParent?.unchanged() ?? false;
}
