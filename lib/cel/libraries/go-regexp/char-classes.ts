/** Character classes: `[...]`, Perl classes (`\d`) and Unicode classes (`\p{Greek}`), as parse.go parseClass and its helpers read them. */
import { foldAscii, PERL_GROUPS, POSIX_GROUPS } from './ascii-groups';
import { foldExtras, foldRanges } from './case-folding';
import { parseEscape } from './escapes';
import { complement, normalize, rangesBody } from './rune-ranges';
import { ERR, GoRegexpSyntaxError } from './syntax-error';
import type { ClassSet, Node, Range } from './syntax-tree';
import { type UnicodeTable, unicodeTable } from './unicode-tables';

/** parse.go parsePerlClassEscape: \d \D \s \S \w \W. */
export function parsePerlClassEscape(src: string, i: number, fold: boolean): ClassSet | undefined {
  if (src[i] !== '\\') return undefined;
  const group = PERL_GROUPS[src[i + 1] ?? ''];
  return group ? asciiGroup(group.ranges, group.sign, fold) : undefined;
}

/** parse.go appendGroup: an ASCII group, folded before it is negated. */
function asciiGroup(ranges: readonly Range[], sign: 1 | -1, fold: boolean): ClassSet {
  const set = fold ? foldAscii(ranges) : normalize(ranges);
  return { ranges: sign > 0 ? set : complement(set), props: [], complements: [] };
}

/** parse.go parseUnicodeClass: `\pL`, `\p{Greek}`, `\PL`, `\p{^Greek}`. */
export function parseUnicodeClass(src: string, i: number, fold: boolean): { set: ClassSet; end: number } | undefined {
  if (src[i] !== '\\' || (src[i + 1] !== 'p' && src[i + 1] !== 'P')) return undefined;
  let sign = src[i + 1] === 'P' ? -1 : 1;
  const j = i + 2;
  let seq: string;
  let name: string;
  let end: number;
  if (j >= src.length) {
    seq = src.slice(i, j);
    name = '';
    end = j;
  } else if (src[j] !== '{') {
    const cp = src.codePointAt(j) ?? 0;
    end = j + (cp > 0xffff ? 2 : 1);
    seq = src.slice(i, end);
    name = seq.slice(2);
  } else {
    const close = src.indexOf('}', i);
    if (close < 0) throw new GoRegexpSyntaxError(ERR.invalidCharRange, src.slice(i));
    seq = src.slice(i, close + 1);
    name = src.slice(i + 3, close);
    end = close + 1;
  }
  if (name.startsWith('^')) {
    sign = -sign;
    name = name.slice(1);
  }
  const table = unicodeTable(name);
  if (!table) throw new GoRegexpSyntaxError(ERR.invalidCharRange, seq);
  if (table.negate) sign = -sign;
  return { set: unicodeSet(table, sign, fold), end };
}

function unicodeSet(table: UnicodeTable, sign: number, fold: boolean): ClassSet {
  if (table.ranges) {
    const ranges = fold && table.foldRanges ? normalize([...table.ranges, ...table.foldRanges]) : table.ranges;
    return { ranges: sign > 0 ? ranges : complement(ranges), props: [], complements: [] };
  }
  const body = table.body ?? '';
  // Under (?i) the table is merged with the runes folding into it (unicode.FoldCategory/FoldScript).
  const extras = fold ? foldExtras(body) : [];
  if (sign > 0) return { ranges: extras, props: [body], complements: [] };
  if (extras.length === 0 && /^\\p\{[^}]*\}$/.test(body)) return { ranges: [], props: [`\\P${body.slice(2)}`], complements: [] };
  return { ranges: [], props: [], complements: [body + rangesBody(extras)] };
}

/** parse.go parseClass: `[...]`. */
export function parseClass(src: string, i: number, fold: boolean): { node: Node; end: number } {
  const wholeClass = src.slice(i);
  let j = i + 1;
  let negated = false;
  if (src[j] === '^') {
    negated = true;
    j++;
  }
  const set: ClassSet = { ranges: [], props: [], complements: [] };
  const add = (part: ClassSet) => {
    set.ranges.push(...part.ranges);
    set.props.push(...part.props);
    set.complements.push(...part.complements);
  };
  let first = true;
  while (j >= src.length || src[j] !== ']' || first) {
    first = false;
    if (src.length - j > 2 && src[j] === '[' && src[j + 1] === ':') {
      const close = src.indexOf(':]', j + 2);
      if (close >= 0) {
        const name = src.slice(j, close + 2);
        const negatedGroup = name[2] === '^';
        const ranges = POSIX_GROUPS[name.slice(negatedGroup ? 3 : 2, -2)];
        if (!ranges) throw new GoRegexpSyntaxError(ERR.invalidCharRange, name);
        add(asciiGroup(ranges, negatedGroup ? -1 : 1, fold));
        j = close + 2;
        continue;
      }
    }
    const unicode = parseUnicodeClass(src, j, fold);
    if (unicode) {
      add(unicode.set);
      j = unicode.end;
      continue;
    }
    const perl = parsePerlClassEscape(src, j, fold);
    if (perl) {
      add(perl);
      j += 2;
      continue;
    }
    const rangeStart = j;
    const lo = parseClassChar(src, j, wholeClass);
    let hi = lo;
    j = lo.end;
    // `[a-]` means a or -.
    if (src.length - j >= 2 && src[j] === '-' && src[j + 1] !== ']') {
      hi = parseClassChar(src, j + 1, wholeClass);
      j = hi.end;
      if (hi.cp < lo.cp) throw new GoRegexpSyntaxError(ERR.invalidCharRange, src.slice(rangeStart, j));
    }
    const range: Range[] = [[lo.cp, hi.cp]];
    set.ranges.push(...(fold ? foldRanges(range) : range));
  }
  set.ranges = normalize(set.ranges);
  return { node: { kind: 'class', set, negated }, end: j + 1 };
}

function parseClassChar(src: string, j: number, wholeClass: string): { cp: number; end: number } {
  if (j >= src.length) throw new GoRegexpSyntaxError(ERR.missingBracket, wholeClass);
  if (src[j] === '\\') return parseEscape(src, j);
  const cp = src.codePointAt(j) ?? 0;
  return { cp, end: j + (cp > 0xffff ? 2 : 1) };
}
