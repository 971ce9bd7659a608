/** Sets of runes as sorted ranges, and how a set is written as a JS class body. */
import { MAX_RUNE, type Range } from './syntax-tree';

export const isAlnum = (cp: number) => (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalize(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

export function escapeRune(cp: number): string {
  return isAlnum(cp) ? String.fromCodePoint(cp) : `\\u{${cp.toString(16)}}`;
}

export function rangesBody(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? escapeRune(lo) : `${escapeRune(lo)}-${escapeRune(hi)}`)).join('');
}
