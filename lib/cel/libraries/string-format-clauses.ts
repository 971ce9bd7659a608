/**
 * cel-go ext/formatting.go: the format string's clauses (`%s`, `%.2f`, `%x`...) and their errors, read
 * by one parser that both the runtime formatter and the compile-time validator drive.
 */

export class FormatError extends Error {}

export type Clause = (value: unknown, typeName: string) => string;

export interface Interpolator {
  string: Clause;
  decimal: Clause;
  fixed(precision: number | undefined): Clause;
  scientific(precision: number | undefined): Clause;
  binary: Clause;
  hex(upper: boolean): Clause;
  octal: Clause;
}

/** formatting.go parseFormatString, driven by an interpolator (the runtime formatter or the checker). */
export function parseFormatString(
  format: string,
  size: number,
  arg: (index: number) => [unknown, string],
  callbacks: Interpolator,
  strictArgs: boolean,
): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    if (format[i] !== '%') {
      out += format[i];
      i++;
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    // stringArgList.Arg fails first at runtime; the compile-time checker's Arg never fails, so there
    // `unexpected end of string` comes before the size check.
    if (strictArgs && argIndex >= size) throw new FormatError(`index ${argIndex} out of range`);
    const [value, typeName] = arg(argIndex);
    if (i + 1 >= format.length) throw new FormatError('unexpected end of string');
    if (argIndex >= size) throw new FormatError(`index ${argIndex} out of range`);
    const { read, clause } = parseFormattingClause(format.slice(i + 1), callbacks);
    try {
      out += clause(value, typeName);
    } catch (error) {
      if (error instanceof FormatError) throw new FormatError(`error during formatting: ${error.message}`);
      throw error;
    }
    i += 1 + read;
    argIndex++;
  }
  return out;
}

function parseFormattingClause(text: string, callbacks: Interpolator): { read: number; clause: Clause } {
  const fail = (message: string) => new FormatError(`could not parse formatting clause: ${message}`);
  let i = 0;
  let precision: number | undefined;
  if (text[0] === '.') {
    i = 1;
    let digits = '';
    for (;;) {
      if (i >= text.length) throw fail('error while parsing precision: could not find end of precision specifier');
      const c = text[i] ?? '';
      if (c < '0' || c > '9') break;
      digits += c;
      i++;
    }
    if (digits === '') throw fail('error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
    precision = Number(digits);
    if (!Number.isSafeInteger(precision) || precision > 2 ** 63 - 1) {
      throw fail(`error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "${digits}": value out of range`);
    }
  }
  const verb = text[i] ?? '';
  const read = i + 1;
  switch (verb) {
    case 's':
      return { read, clause: callbacks.string };
    case 'd':
      return { read, clause: callbacks.decimal };
    case 'f':
      return { read, clause: callbacks.fixed(precision) };
    case 'e':
      return { read, clause: callbacks.scientific(precision) };
    case 'b':
      return { read, clause: callbacks.binary };
    case 'x':
    case 'X':
      return { read, clause: callbacks.hex(verb === 'X') };
    case 'o':
      return { read, clause: callbacks.octal };
  }
  // Go reads the clause byte as a rune: the first UTF-8 byte of a non-ASCII character.
  const firstByte = Buffer.from(String.fromCodePoint(text.codePointAt(i) ?? 0), 'utf8')[0] ?? 0;
  throw fail(`unrecognized formatting clause "${String.fromCharCode(firstByte)}"`);
}

const STRING_CLAUSE_TYPES = 'strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps';
export const clauseError = {
  string: (t: string) => new FormatError(`string clause can only be used on ${STRING_CLAUSE_TYPES}, was given ${t}`),
  decimal: (t: string) => new FormatError(`decimal clause can only be used on integers, was given ${t}`),
  fixed: (t: string) => new FormatError(`fixed-point clause can only be used on doubles, was given ${t}`),
  scientific: (t: string) => new FormatError(`scientific clause can only be used on doubles, was given ${t}`),
  binary: (t: string) => new FormatError(`only integers and bools can be formatted as binary, was given ${t}`),
  hex: (t: string) => new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${t}`),
  octal: (t: string) => new FormatError(`octal clause can only be used on integers, was given ${t}`),
};
