import { distance } from 'fastest-levenshtein';

/**
 * The known name a misspelt one most likely meant (`timeoutSecond` → `timeoutSeconds`), or undefined
 * when none is close: within a third of the name's length in edits (at least 2), case ignored.
 */
export function nearestName(given: string, known: Iterable<string>): string | undefined {
  const word = given.toLowerCase();
  let best: { name: string; edits: number } | undefined;
  for (const name of known) {
    const edits = distance(word, name.toLowerCase());
    if (!best || edits < best.edits) best = { name, edits };
  }
  return best && best.edits <= Math.max(2, Math.floor(given.length / 3)) ? best.name : undefined;
}

/** ` (did you mean "x"?)`, or nothing: the tail of an unknown-name message. */
export function didYouMean(given: string, known: Iterable<string>): string {
  const nearest = nearestName(given, known);
  return nearest === undefined ? '' : ` (did you mean ${JSON.stringify(nearest)}?)`;
}
