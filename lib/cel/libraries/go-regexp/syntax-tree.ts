/** The parsed form of a Go pattern (regexp/syntax's Regexp, reduced to what the translation needs). */

export const MAX_RUNE = 0x10ffff;
export const MAX_REPEAT = 1000;
export const MAX_HEIGHT = 1000;

export type Range = readonly [number, number];

/**
 * A character class: the union of explicit ranges, JS property escapes (`\p{L}`, `\P{L}`) and
 * complemented sets (JS class bodies whose complement belongs to the class), optionally negated as a whole.
 */
export interface ClassSet {
  ranges: Range[];
  props: string[];
  complements: string[];
}

export interface Flags {
  fold: boolean;
  dotNL: boolean;
  oneLine: boolean;
  nonGreedy: boolean;
}

export type Node =
  | { kind: 'literal'; cp: number; fold: boolean }
  | { kind: 'class'; set: ClassSet; negated: boolean }
  | { kind: 'any'; nl: boolean }
  | { kind: 'assert'; which: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { kind: 'capture'; sub: Node }
  | { kind: 'concat'; subs: Node[] }
  | { kind: 'alt'; subs: Node[] }
  | { kind: 'repeat'; sub: Node; min: number; max: number; greedy: boolean; counted: boolean }
  | { kind: 'empty' };

/** parse.go repeatIsValid: nested counted repetitions may not exceed `n` copies of the innermost item. */
export function repeatIsValid(node: Node, n: number): boolean {
  if (node.kind === 'repeat' && node.counted) {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return children(node).every((sub) => repeatIsValid(sub, n));
}

function children(node: Node): Node[] {
  switch (node.kind) {
    case 'capture':
    case 'repeat':
      return [node.sub];
    case 'concat':
    case 'alt':
      return node.subs;
    default:
      return [];
  }
}

export function height(node: Node): number {
  let max = 0;
  for (const sub of children(node)) max = Math.max(max, height(sub));
  return max + 1;
}
