import type { JsonObject } from './json';
import { builtinStructs } from '../../registry/schema/table';

/*
 * The keys of the built-in lists whose items are merged and owned one by one (`x-kubernetes-list-type:
 * map`), by member name, read from the schema table on first use. Managed fields are computed on JSON
 * without its Go type, so a name is what is known; where two types key a list of the same name
 * differently (a container's ports by containerPort and protocol, a Service's by port and protocol), the
 * item's own members tell them apart.
 */
let byName: ReadonlyMap<string, readonly (readonly string[])[]> | undefined;

function listKeysByName(): ReadonlyMap<string, readonly (readonly string[])[]> {
  if (byName) return byName;
  const index = new Map<string, (readonly string[])[]>();
  for (const struct of builtinStructs()) {
    for (const [name, extensions] of struct.extensions) {
      const keys = extensions.listType === 'map' ? extensions.listMapKeys : undefined;
      if (!keys || keys.length === 0) continue;
      const known = index.get(name) ?? [];
      if (!known.some((k) => k.join() === keys.join())) known.push(keys);
      index.set(name, known);
    }
  }
  byName = index;
  return index;
}

/** The keys of the list `name` whose items look like `item`, or undefined for an atomic list. */
export function keysOf(name: string, item: JsonObject): readonly string[] | undefined {
  const candidates = listKeysByName().get(name);
  if (!candidates) return undefined;
  if (candidates.length === 1) return candidates[0];
  return candidates.find((keys) => keys[0] !== undefined && keys[0] in item);
}
