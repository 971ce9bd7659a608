/**
 * The wording helpers the checks share (policy/helpers.go joinQuote and pluralize), and the ordering of
 * apimachinery's string sets (`sets.String.List()` sorts by Go string comparison, i.e. by UTF-8 bytes).
 */

/** `"a", "b"`: each item between plain double quotes, no escaping (joinQuote). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

const utf8 = (s: string): Buffer => Buffer.from(s, 'utf8');

/** Go's `a < b` on strings. */
export function goLess(a: string, b: string): boolean {
  return Buffer.compare(utf8(a), utf8(b)) < 0;
}

/** The values sorted as Go's sort.Strings sorts them. */
export function goSorted(values: Iterable<string>): string[] {
  return [...values].sort((a, b) => Buffer.compare(utf8(a), utf8(b)));
}

/** The distinct values, sorted as a Go string set lists them. */
export function sortedSet(values: Iterable<string>): string[] {
  return goSorted(new Set(values));
}

/** `container "a"` / `containers "a", "b"`: the subject most details start with. */
export function containersSubject(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}
