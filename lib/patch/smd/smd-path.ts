/**
 * structured-merge-diff field paths (fieldpath/element.go `PathElement.String`) and the identity of a
 * list item (typed/helpers.go `listItemToPathElement`): an associative list's items are identified by
 * their key fields (a missing key takes the key field's schema default), a set's by their value, an
 * atomic list's by their index.
 */
import { goQuote } from '../../go/strconv';
import type { ListAtom } from './schema';
import { isGoList, isGoMap, isGoNull, smdToString, type GoValue } from './smd-values';

/** A path element, already printed: `.name`, `[name="x"]`, `[="a"]` or `[0]`. Equal elements print equally. */
export type PathElement = string;

export const fieldElement = (name: string): PathElement => `.${name}`;
export const indexElement = (index: number): PathElement => `[${index}]`;

export type ItemElement = { ok: true; element: PathElement } | { ok: false; error: string };

/** The identity of the `index`th item of a list. */
export function listItemElement(list: ListAtom, index: number, item: GoValue): ItemElement {
  if (list.elementRelationship !== 'associative') return { ok: true, element: indexElement(index) };
  return list.keys.length > 0 ? keyedItemElement(list, item) : setItemElement(item);
}

function keyedItemElement(list: ListAtom, item: GoValue): ItemElement {
  if (isGoNull(item)) return { ok: false, error: 'associative list with keys may not have a null element' };
  if (!isGoMap(item)) return { ok: false, error: 'associative list with keys may not have non-map elements' };
  const element = list.elementType();
  const keys: Array<[string, GoValue]> = [];
  for (const name of list.keys) {
    if (Object.hasOwn(item, name)) {
      keys.push([name, item[name] as GoValue]);
      continue;
    }
    if (!element.map) return { ok: false, error: `couldn't find default value for ${name}: associative list may not have non-map types` };
    const fallback = element.map.fields.get(name)?.default;
    if (fallback === undefined || fallback === null) {
      return { ok: false, error: `associative list with keys has an element that omits key field ${goQuote(name)} (and doesn't have default value)` };
    }
    keys.push([name, fallback]);
  }
  // value.FieldList.Sort: by field name.
  keys.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { ok: true, element: `[${keys.map(([name, value]) => `${name}=${smdToString(value)}`).join(',')}]` };
}

function setItemElement(item: GoValue): ItemElement {
  if (isGoMap(item)) return { ok: false, error: "associative list without keys has an element that's a map type" };
  if (isGoList(item)) return { ok: false, error: 'not supported: associative list with lists as elements' };
  if (isGoNull(item)) return { ok: false, error: "associative list without keys has an element that's an explicit null" };
  return { ok: true, element: `[=${smdToString(item)}]` };
}
