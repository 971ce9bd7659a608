/** Case folding for `(?i)`: Unicode simple case folding orbits (Go's unicode.SimpleFold), as the JS engine defines them. */
import { normalize } from './rune-ranges';
import type { Range } from './syntax-tree';

// parse.go minFold/maxFold: the runes case folding can involve.
const MIN_FOLD = 0x41;
const MAX_FOLD = 0x1e943;

interface FoldTable {
  orbit: ReadonlyMap<number, readonly number[]>;
  /** Runes with a non-trivial orbit, ascending. */
  runes: readonly number[];
}

let foldTable: FoldTable | undefined;

/**
 * The orbits of Unicode simple case folding, as JavaScript's `u`+`i` canonicalisation (simple case
 * folding) defines them: candidates are the case-mapped runes, grouped by lower(upper(r)), then split by
 * what the engine actually treats as equal. Built on first use (a few tens of milliseconds).
 */
function folds(): FoldTable {
  if (foldTable) return foldTable;
  const runes: number[] = [];
  for (let c = MIN_FOLD; c <= MAX_FOLD; c++) if (c < 0xd800 || c > 0xdfff) runes.push(c);
  let text = '';
  for (let i = 0; i < runes.length; i += 8192) text += String.fromCodePoint(...runes.slice(i, i + 8192));
  const single = (s: string, fallback: number) => {
    const cp = s.codePointAt(0) ?? fallback;
    return s.length === String.fromCodePoint(cp).length ? cp : fallback;
  };
  const groups = new Map<number, number[]>();
  for (const match of text.matchAll(/\p{Changes_When_Casemapped}/gu)) {
    const c = match[0].codePointAt(0) ?? 0;
    const upper = single(String.fromCodePoint(c).toUpperCase(), c);
    const key = single(String.fromCodePoint(upper).toLowerCase(), upper);
    const group = groups.get(key) ?? [];
    group.push(c);
    groups.set(key, group);
  }
  // A back-reference under `iu` compares canonicalised (simply case-folded) runes.
  const sameFold = /^(.)\1$/isu;
  const orbit = new Map<number, number[]>();
  for (const group of groups.values()) {
    let rest = group;
    while (rest.length > 0) {
      const [first, ...others] = rest as [number, ...number[]];
      const members = [first, ...others.filter((c) => sameFold.test(String.fromCodePoint(first, c)))];
      rest = others.filter((c) => !members.includes(c));
      if (members.length > 1) for (const m of members) orbit.set(m, members);
    }
  }
  foldTable = { orbit, runes: [...orbit.keys()].sort((a, b) => a - b) };
  return foldTable;
}

export function orbitOf(cp: number): readonly number[] {
  return folds().orbit.get(cp) ?? [cp];
}

/** appendFoldedRange: the range plus every rune fold-equivalent to one in it. */
export function foldRanges(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  for (const [lo, hi] of ranges) {
    out.push([lo, hi]);
    if ((lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD) continue;
    const { runes, orbit } = folds();
    for (let i = lowerBound(runes, lo); i < runes.length && (runes[i] ?? Infinity) <= hi; i++) {
      for (const m of orbit.get(runes[i] ?? 0) ?? []) out.push([m, m]);
    }
  }
  return normalize(out);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? Infinity) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const extrasCache = new Map<string, Range[]>();

/** unicode.FoldCategory / FoldScript: runes outside a property whose fold orbit reaches into it. */
export function foldExtras(body: string): Range[] {
  const cached = extrasCache.get(body);
  if (cached) return cached;
  const inSet = new RegExp(`^[${body}]$`, 'u');
  const extras: Range[] = [];
  const { runes, orbit } = folds();
  for (const c of runes) {
    if (inSet.test(String.fromCodePoint(c))) continue;
    if ((orbit.get(c) ?? []).some((m) => inSet.test(String.fromCodePoint(m)))) extras.push([c, c]);
  }
  const result = normalize(extras);
  extrasCache.set(body, result);
  return result;
}
