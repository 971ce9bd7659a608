/**
 * Choosing which shape of an atom applies to a value (structured-merge-diff typed/helpers.go
 * `deduceAtom`): a scalar value picks the atom's scalar, a list its list, a map its map; a value the
 * atom has no shape for (or an absent value) keeps the whole atom, so that handling it reports the
 * mismatch. `handleAtom` then tries the map first, then the scalar, then the list.
 */
import type { Atom, ListAtom, MapAtom, ScalarType } from './schema';
import { isGoList, isGoMap, isGoScalar, type GoValue } from './smd-values';

export function deduceAtom(atom: Atom, value: GoValue | undefined): Atom {
  if (value === undefined) return atom;
  if (isGoScalar(value)) return atom.scalar ? { scalar: atom.scalar } : atom;
  if (isGoList(value)) return atom.list ? { list: atom.list } : atom;
  if (isGoMap(value)) return atom.map ? { map: atom.map } : atom;
  return atom;
}

/** Whether two deduced atoms are the same shape of the same atom (smd `Atom.Equals` on deduced atoms). */
export function sameAtom(a: Atom, b: Atom): boolean {
  return a.map === b.map && a.list === b.list && a.scalar === b.scalar;
}

export interface AtomHandler<T> {
  map(atom: MapAtom): T;
  scalar(atom: ScalarType): T;
  list(atom: ListAtom): T;
}

/** smd `handleAtom`: the map first, then the scalar, then the list. */
export function handleAtom<T>(atom: Atom, handler: AtomHandler<T>): T {
  if (atom.map) return handler.map(atom.map);
  if (atom.scalar) return handler.scalar(atom.scalar);
  if (atom.list) return handler.list(atom.list);
  throw new Error('schema error: invalid atom: inlined');
}
