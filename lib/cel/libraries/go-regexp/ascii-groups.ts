/** The ASCII groups: Perl classes `\d \s \w` and POSIX classes `[:alpha:]` (perl_groups.go), and their case folding. */
import { normalize } from './rune-ranges';
import type { Range } from './syntax-tree';

// perl_groups.go: \d \s \w and the POSIX classes (all ASCII).
export const PERL_GROUPS: Readonly<Record<string, { sign: 1 | -1; ranges: Range[] }>> = {
  d: { sign: 1, ranges: [[0x30, 0x39]] },
  D: { sign: -1, ranges: [[0x30, 0x39]] },
  s: {
    sign: 1,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  S: {
    sign: -1,
    ranges: [
      [0x09, 0x0a],
      [0x0c, 0x0d],
      [0x20, 0x20],
    ],
  },
  w: {
    sign: 1,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
  W: {
    sign: -1,
    ranges: [
      [0x30, 0x39],
      [0x41, 0x5a],
      [0x5f, 0x5f],
      [0x61, 0x7a],
    ],
  },
};

export const POSIX_GROUPS: Readonly<Record<string, Range[]>> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** Folding of an ASCII group: the other case, plus ſ for s and K (Kelvin) for k (asciiFoldTable). */
export function foldAscii(ranges: readonly Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    for (let c = lo; c <= hi && c <= 0x7f; c++) {
      const lower = c | 0x20;
      if (lower < 0x61 || lower > 0x7a) continue;
      out.push([c ^ 0x20, c ^ 0x20]);
      if (lower === 0x73) out.push([0x17f, 0x17f]);
      if (lower === 0x6b) out.push([0x212a, 0x212a]);
    }
  }
  return normalize(out);
}
