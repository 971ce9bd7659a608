/**
 * patch.go's containers (`partialDoc`, `partialArray`) and `findObject`, over plain JSON values.
 *
 * Go keeps a JSON null in a document as a nil *lazyNode, the same thing a missing key reads as, so `get`
 * returns null for both. Nulls a patch adds are non-nil nodes with no bytes in Go; this model does not
 * tell them apart, which only matters for later operations of the same patch that test or copy them.
 */
import type { Json, JsonObject } from '../kube/json';
import { ERR_INVALID_INDEX, ERR_MISSING, GoError, GoPanic, goAtoi, wrapFailure } from './go-text';

export type { Json, JsonObject } from '../kube/json';

/** The interface patch.go's operations use; every method throws GoError with patch.go's text. */
export interface Container {
  get(key: string): Json;
  /** Only used by `replace`, after `get` has accepted the key. */
  set(key: string, value: Json): void;
  add(key: string, value: Json): void;
  remove(key: string): void;
}

export interface Target {
  container: Container;
  key: string;
}

/**
 * findObject: walks every token but the last, returning the container that last token names a member of.
 * Like Go it ignores whatever precedes the first `/`, so `a/b` means `/b` and `""` resolves nothing.
 */
export function findObject(root: Container, path: string): Target | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let container: Container | undefined = root;
  for (const token of tokens.slice(1, -1)) {
    container = containerOf(getOrNull(container, decodePatchKey(token)));
    if (container === undefined) return undefined;
  }
  return { container, key: decodePatchKey(tokens[tokens.length - 1] ?? '') };
}

/** patch.go's decodePatchKey: a JSON-pointer token's `~1` is `/`, then `~0` is `~` (RFC 6901 §4, in that order). */
export function decodePatchKey(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The container a document root unmarshals into; a `null` document decodes into a nil map. */
export function rootContainer(root: Json): Container {
  return containerOf(root) ?? NIL_MAP;
}

/** Scalars and nulls cannot be walked into: intoDoc fails on them and findObject reports the path missing. */
function containerOf(value: Json): Container | undefined {
  if (Array.isArray(value)) return arrayContainer(value);
  if (typeof value === 'object' && value !== null) return objectContainer(value);
  return undefined;
}

function getOrNull(container: Container, key: string): Json {
  try {
    return container.get(key);
  } catch (error) {
    if (error instanceof GoError) return null;
    throw error;
  }
}

function objectContainer(doc: JsonObject): Container {
  // defineProperty, because assigning a `__proto__` key would change the object's prototype instead.
  const put = (key: string, value: Json) => void Object.defineProperty(doc, key, { value, writable: true, enumerable: true, configurable: true });
  return {
    get: (key) => (Object.hasOwn(doc, key) ? (doc[key] ?? null) : null),
    set: put,
    add: put,
    remove(key) {
      if (!Object.hasOwn(doc, key)) throw new GoError(`Unable to remove nonexistent key: ${key}: ${ERR_MISSING}`);
      delete doc[key];
    },
  };
}

function arrayContainer(ary: Json[]): Container {
  return {
    get: (key) => ary[arrayIndex(goAtoi(key), ary.length)] ?? null,
    set(key, value) {
      ary[arrayIndex(goAtoi(key), ary.length)] = value;
    },
    add(key, value) {
      if (key === '-') {
        ary.push(value);
        return;
      }
      const index = wrapFailure(`value was not a proper array index: '${key}'`, () => goAtoi(key));
      // Inserting makes room for one more, so len(ary) itself is a valid index and -1 appends.
      ary.splice(arrayIndex(index, ary.length + 1), 0, value);
    },
    remove(key) {
      ary.splice(arrayIndex(goAtoi(key), ary.length), 1);
    },
  };
}

/** SupportNegativeIndices (true by default, and kube leaves it): -1 is the last of `length` slots. */
function arrayIndex(index: bigint, length: number): number {
  const size = BigInt(length);
  if (index >= size || index < -size) throw new GoError(`Unable to access invalid index: ${index}: ${ERR_INVALID_INDEX}`);
  return Number(index < 0n ? index + size : index);
}

/** A nil partialDoc: reads see an empty map, writes panic. */
const NIL_MAP: Container = {
  get: () => null,
  set: nilMapWrite,
  add: nilMapWrite,
  remove(key) {
    throw new GoError(`Unable to remove nonexistent key: ${key}: ${ERR_MISSING}`);
  },
};

function nilMapWrite(): never {
  throw new GoPanic('assignment to entry in nil map');
}
