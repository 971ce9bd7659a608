/** The lexical pieces of a Go pattern: escaped runes and repeat counts (parse.go parseEscape, parseRepeat). */
import { isAlnum } from './rune-ranges';
import { ERR, GoRegexpSyntaxError } from './syntax-error';
import { MAX_RUNE } from './syntax-tree';

export const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isOctal = (c: string | undefined) => c !== undefined && c >= '0' && c <= '7';

function unhex(cp: number): number {
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp >= 0x61 && cp <= 0x66) return cp - 0x61 + 10;
  if (cp >= 0x41 && cp <= 0x46) return cp - 0x41 + 10;
  return -1;
}

/** parse.go parseRepeat: `{n}`, `{n,}` or `{n,m}` at `i`; undefined when the text is not a repeat. */
export function parseRepeat(src: string, i: number): { min: number; max: number; end: number } | undefined {
  let j = i + 1;
  const first = parseInt(src, j);
  if (!first) return undefined;
  let min = first.value;
  let max: number;
  j = first.end;
  if (j >= src.length) return undefined;
  if (src[j] !== ',') max = min;
  else {
    j++;
    if (j >= src.length) return undefined;
    if (src[j] === '}') max = -1;
    else {
      const second = parseInt(src, j);
      if (!second) return undefined;
      max = second.value;
      j = second.end;
      if (max < 0) min = -1;
    }
  }
  if (src[j] !== '}') return undefined;
  return { min, max, end: j + 1 };
}

/** parse.go parseInt: decimal without leading zeros; -1 when too large. */
function parseInt(src: string, i: number): { value: number; end: number } | undefined {
  if (!isDigit(src[i])) return undefined;
  if (src[i] === '0' && isDigit(src[i + 1])) return undefined;
  let j = i;
  let value = 0;
  while (isDigit(src[j])) {
    if (value >= 1e8) value = -1;
    else if (value >= 0) value = value * 10 + Number(src[j]);
    j++;
  }
  return { value, end: j };
}

/** parse.go parseEscape: a single escaped rune. */
export function parseEscape(src: string, i: number): { cp: number; end: number } {
  let j = i + 1;
  if (j >= src.length) throw new GoRegexpSyntaxError(ERR.trailingBackslash, '');
  const next = (): number | undefined => {
    if (j >= src.length) return undefined;
    const cp = src.codePointAt(j) ?? 0;
    j += cp > 0xffff ? 2 : 1;
    return cp;
  };
  const c = next() ?? 0;
  const invalid = () => new GoRegexpSyntaxError(ERR.invalidEscape, src.slice(i, j));
  const ch = String.fromCodePoint(c);
  if (ch >= '1' && ch <= '7' && !isOctal(src[j])) {
    // A single non-zero digit is a back-reference, which Go does not support.
    throw invalid();
  }
  if (ch >= '0' && ch <= '7') {
    let r = c - 0x30;
    for (let k = 1; k < 3 && isOctal(src[j]); k++) r = r * 8 + Number(src[j++]);
    return { cp: r, end: j };
  }
  switch (ch) {
    case 'x': {
      let d = next();
      if (d === undefined) throw invalid();
      if (d === 0x7b) {
        let r = 0;
        let digits = 0;
        for (;;) {
          d = next();
          if (d === undefined) throw invalid();
          if (d === 0x7d) break;
          const v = unhex(d);
          if (v < 0) throw invalid();
          r = r * 16 + v;
          if (r > MAX_RUNE) throw invalid();
          digits++;
        }
        if (digits === 0) throw invalid();
        return { cp: r, end: j };
      }
      const x = unhex(d);
      const y = unhex(next() ?? -1);
      if (x < 0 || y < 0) throw invalid();
      return { cp: x * 16 + y, end: j };
    }
    case 'a':
      return { cp: 0x07, end: j };
    case 'f':
      return { cp: 0x0c, end: j };
    case 'n':
      return { cp: 0x0a, end: j };
    case 'r':
      return { cp: 0x0d, end: j };
    case 't':
      return { cp: 0x09, end: j };
    case 'v':
      return { cp: 0x0b, end: j };
  }
  // Escaped ASCII punctuation stands for itself; letters and digits that are no escape are errors.
  if (c < 0x80 && !isAlnum(c)) return { cp: c, end: j };
  throw invalid();
}
