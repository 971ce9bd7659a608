import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import { CelFunctionError } from '../errors';
import { goFormatFixed, goFormatG, goFormatShortestFixed, goQuote, localizedFixed, localizedScientific } from './go-format';
import { goTypeName, runSync, type Checker, type Evaluator, type MacroInput, type TypeDecl } from './macro';
import { registerNamespace } from './namespace';

/*
 * cel-go ext.Strings at the version kube enables (pkg/cel/environment/base.go: StringsVersion(2) from
 * 1.29), for the functions cel-js lacks: `format` and `strings.quote` (version 1). charAt and replace are
 * in lib/cel/library.ts; cel-js has the rest (indexOf, lastIndexOf, lowerAscii, upperAscii, split,
 * substring, trim, join). `reverse` is version 3, which kube does not enable, so it is not declared.
 *
 * `format` follows ext/formatting.go (the version 1 formatter, localised for en_US), including its static
 * validation of a literal format string against a list literal (stringFormatValidator), and the exemption
 * of the list literals inside a format call from the homogeneous-literal check.
 */

export function registerStrings(env: Environment): void {
  registerNamespace(env, 'strings');
  env
    .registerFunction('strings.quote(string): string', (_: unknown, s: string) => quote(s), { async: false })
    // A macro, so that its list argument may mix element types as cel-go's validator allows.
    .registerFunction('string.format(ast): string', formatMacro);
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/**
 * strings.go quote: double quotes around the string, the CEL escape sequences written out; every other
 * rune is kept as it is (unlike Go's %q), invalid UTF-8 becoming U+FFFD.
 */
function quote(s: string): string {
  return `"${s.replace(/[\x07\b\f\n\r\t\v\\"]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => QUOTE_ESCAPES[c] ?? '\ufffd')}"`;
}

function formatMacro({ ast, args, receiver }: MacroInput) {
  const arg = args[0] as ASTNode;
  return {
    async: false,
    typeCheck(checker: Checker, _macro: unknown, ctx: unknown): TypeDecl {
      const noOverload = (found: string) => checker.createError('no_matching_overload', `found no matching overload for '${found}'`, ast);
      if (!receiver) throw noOverload('format');
      const receiverType = checker.check(receiver, ctx);
      const argTypes = new Map<ASTNode, TypeDecl>();
      const argType = checkExempt(checker, arg, ctx, argTypes);
      if (!(receiverType.kind === 'dyn' || receiverType.name === 'string') || !(argType.kind === 'dyn' || argType.kind === 'list')) {
        throw noOverload(`${receiverType.name}.format(${argType.name})`);
      }
      if (receiver.op === 'value' && typeof receiver.args === 'string' && arg.op === 'list') {
        validateFormat(
          receiver.args,
          arg.args,
          (node) => argTypes.get(node) ?? checker.check(node, ctx),
          (message, node) => {
            throw checker.createError('invalid_argument', message, node ?? ast);
          },
        );
      }
      return checker.getType('string');
    },
    evaluate(evaluator: Evaluator, _macro: unknown, ctx: unknown): string {
      const format = runSync(evaluator, receiver as ASTNode, ctx);
      const list = evaluateExempt(evaluator, arg, ctx);
      if (typeof format !== 'string' || !(Array.isArray(list) || list instanceof Set)) throw new CelFunctionError('no such overload');
      try {
        return formatString(format, [...list], (value) => goTypeName(evaluator.debugType(value)));
      } catch (error) {
        if (error instanceof FormatError) throw new CelFunctionError(error.message);
        throw error;
      }
    },
  };
}

/**
 * Type-checks a format argument without cel-js's homogeneous-literal rule for list and map literals
 * (validator.go hasStringFormatAncestor exempts every literal nested in a format call).
 */
function checkExempt(checker: Checker, node: ASTNode, ctx: unknown, types: Map<ASTNode, TypeDecl>): TypeDecl {
  let type: TypeDecl;
  if (node.op === 'list') {
    node.args.forEach((element) => checkExempt(checker, element, ctx, types));
    type = checker.getType('list<dyn>');
  } else if (node.op === 'map') {
    for (const [key, value] of node.args) {
      checkExempt(checker, key, ctx, types);
      checkExempt(checker, value, ctx, types);
    }
    type = checker.getType('map<dyn, dyn>');
  } else {
    type = checker.check(node, ctx);
  }
  types.set(node, type);
  return type;
}

function evaluateExempt(evaluator: Evaluator, node: ASTNode, ctx: unknown): unknown {
  let value: unknown;
  if (node.op === 'list') value = node.args.map((element) => evaluateExempt(evaluator, element, ctx));
  // A Map keeps the key types, which the formatted output shows (`1:` versus `"1":`).
  else if (node.op === 'map') value = new Map(node.args.map(([key, v]) => [evaluateExempt(evaluator, key, ctx), evaluateExempt(evaluator, v, ctx)]));
  else value = runSync(evaluator, node, ctx);
  return value;
}

// --- formatting.go ---

class FormatError extends Error {}

type Clause = (value: unknown, typeName: string) => string;

interface Interpolator {
  string: Clause;
  decimal: Clause;
  fixed(precision: number | undefined): Clause;
  scientific(precision: number | undefined): Clause;
  binary: Clause;
  hex(upper: boolean): Clause;
  octal: Clause;
}

/** formatting.go parseFormatString, driven by an interpolator (the runtime formatter or the checker). */
function parseFormatString(format: string, size: number, arg: (index: number) => [unknown, string], callbacks: Interpolator, strictArgs: boolean): string {
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
const clauseError = {
  string: (t: string) => new FormatError(`string clause can only be used on ${STRING_CLAUSE_TYPES}, was given ${t}`),
  decimal: (t: string) => new FormatError(`decimal clause can only be used on integers, was given ${t}`),
  fixed: (t: string) => new FormatError(`fixed-point clause can only be used on doubles, was given ${t}`),
  scientific: (t: string) => new FormatError(`scientific clause can only be used on doubles, was given ${t}`),
  binary: (t: string) => new FormatError(`only integers and bools can be formatted as binary, was given ${t}`),
  hex: (t: string) => new FormatError(`only integers, byte buffers, and strings can be formatted as hex, was given ${t}`),
  octal: (t: string) => new FormatError(`octal clause can only be used on integers, was given ${t}`),
};

/** `<string>.format(<list>)` at runtime: formatting.go's stringFormatter with the en_US locale. */
function formatString(format: string, args: unknown[], typeOf: (value: unknown) => string): string {
  const integer = (value: unknown): bigint => (typeof value === 'bigint' ? value : BigInt(String(value)));
  const toDouble = (value: unknown, typeName: string): number | undefined => {
    if (typeName === 'double') return value as number;
    // The strings "NaN", "Infinity" and "-Infinity" are accepted for %f and %e.
    if (typeName === 'string' && (value === 'NaN' || value === 'Infinity' || value === '-Infinity')) return Number(value);
    return undefined;
  };
  const formatter: Interpolator = {
    string: (value, typeName) => formatAsString(value, typeName, typeOf),
    decimal: (value, typeName) => {
      if (typeName !== 'int' && typeName !== 'uint') throw clauseError.decimal(typeName);
      return integer(value).toString();
    },
    fixed: (precision) => (value, typeName) => {
      const x = toDouble(value, typeName);
      if (x === undefined) throw clauseError.fixed(typeName);
      return localizedFixed(x, precision ?? 6);
    },
    scientific: (precision) => (value, typeName) => {
      const x = toDouble(value, typeName);
      if (x === undefined) throw clauseError.scientific(typeName);
      return localizedScientific(x, precision ?? 6);
    },
    binary: (value, typeName) => {
      if (typeName === 'bool') return value ? '1' : '0';
      if (typeName !== 'int' && typeName !== 'uint') throw clauseError.binary(typeName);
      return integer(value).toString(2);
    },
    hex: (upper) => (value, typeName) => {
      let hex: string;
      if (typeName === 'string') hex = Buffer.from(value as string, 'utf8').toString('hex');
      else if (typeName === 'bytes') hex = Buffer.from(value as Uint8Array).toString('hex');
      else if (typeName === 'int' || typeName === 'uint') hex = integer(value).toString(16);
      else throw clauseError.hex(typeName);
      return upper ? hex.toUpperCase() : hex;
    },
    octal: (value, typeName) => {
      if (typeName !== 'int' && typeName !== 'uint') throw clauseError.octal(typeName);
      return integer(value).toString(8);
    },
  };
  return parseFormatString(format, args.length, (index) => [args[index], typeOf(args[index])], formatter, true);
}

/** formatting.go FormatString: `%s`. */
function formatAsString(value: unknown, typeName: string, typeOf: (value: unknown) => string): string {
  switch (typeName) {
    case 'list':
      return formatList(value, typeOf);
    case 'map':
      return formatMap(value, typeOf);
    case 'null_type':
      return 'null';
  }
  const text = convertToString(value, typeName);
  if (text === undefined) throw clauseError.string(typeName);
  return text;
}

/** ConvertToType(StringType) for the scalar CEL types, as cel-go writes them. */
function convertToString(value: unknown, typeName: string): string | undefined {
  switch (typeName) {
    case 'int':
    case 'uint':
      return String(value);
    case 'double':
      return goFormatG(value as number);
    case 'bool':
      return value ? 'true' : 'false';
    case 'string':
      return value as string;
    case 'bytes': {
      const bytes = Buffer.from(value as Uint8Array);
      const text = bytes.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(bytes)) {
        throw new FormatError('could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string');
      }
      return text;
    }
    case 'google.protobuf.Timestamp':
      return rfc3339Nano(value as Date);
    case 'google.protobuf.Duration':
      return durationString(value);
    case 'type': {
      const name = /^Type<(.*)>$/.exec(String(value))?.[1] ?? String(value);
      return name === 'null' ? 'null_type' : name;
    }
    default:
      return undefined;
  }
}

/** time.RFC3339Nano in UTC: fractional seconds without trailing zeros. */
export function rfc3339Nano(date: Date): string {
  return date.toISOString().replace(/\.(\d*?)0*Z$/, (_, fraction: string) => (fraction ? `.${fraction}Z` : 'Z'));
}

/** Duration.ConvertToType(StringType): strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s". */
export function durationString(value: unknown): string {
  const { seconds, nanos } = value as { seconds: bigint; nanos: number };
  const total = seconds * 1_000_000_000n + BigInt(nanos);
  const whole = total / 1_000_000_000n;
  const fraction = total % 1_000_000_000n;
  return `${goFormatShortestFixed(Number(whole) + Number(fraction) / 1e9)}s`;
}

/** formatting.go clauseForType: how a list element or map value is written. */
function formatElement(value: unknown, typeName: string, typeOf: (value: unknown) => string): string {
  switch (typeName) {
    case 'int':
    case 'uint':
      return String(value);
    case 'string':
      return goQuote(value as string);
    case 'bytes':
      return `b${goQuote(convertToString(value, typeName) ?? '')}`;
    case 'bool':
    case 'type':
      return convertToString(value, typeName) ?? '';
    case 'null_type':
      return 'null';
    case 'google.protobuf.Timestamp':
      return `timestamp(${goQuote(rfc3339Nano(value as Date))})`;
    case 'google.protobuf.Duration':
      return `duration(${goQuote(durationString(value))})`;
    case 'list':
      return formatList(value, typeOf);
    case 'map':
      return formatMap(value, typeOf);
    case 'double': {
      // fmt "%.6f", quoted when it is not a number literal (NaN, ±Inf).
      const x = value as number;
      const text = goFormatFixed(x, 6);
      return Number.isFinite(x) ? text : goQuote(text);
    }
    default:
      throw new FormatError(`no formatting function for ${typeName}`);
  }
}

function formatList(value: unknown, typeOf: (value: unknown) => string): string {
  const elements = [...(value as Iterable<unknown>)];
  return `[${elements.map((element) => formatElement(element, typeOf(element), typeOf)).join(', ')}]`;
}

function formatMap(value: unknown, typeOf: (value: unknown) => string): string {
  const entries: [unknown, unknown][] = value instanceof Map ? [...value] : Object.entries(value as Record<string, unknown>);
  const pairs = entries.map(([key, v]) => {
    const keyType = typeOf(key);
    let keyText: string;
    if (keyType === 'string') keyText = goQuote(key as string);
    else if (keyType === 'bool' || keyType === 'int' || keyType === 'uint') keyText = String(key);
    else throw new FormatError(`no formatting function for map key of type ${keyType}`);
    return { key: keyText, value: formatElement(v, typeOf(v), typeOf) };
  });
  // sort.SliceStable by the formatted key, compared as Go strings (bytes).
  pairs.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  return `{${pairs.map((pair) => `${pair.key}:${pair.value}`).join(', ')}}`;
}

// --- stringFormatValidator: compile-time checks of a literal format string and list literal ---

const STRING_KINDS = new Set([
  'list',
  'map',
  'int',
  'uint',
  'double',
  'bool',
  'string',
  'google.protobuf.Timestamp',
  'bytes',
  'google.protobuf.Duration',
  'type',
  'null_type',
]);

function validateFormat(
  format: string,
  elements: ASTNode[],
  typeOfNode: (node: ASTNode) => TypeDecl,
  report: (message: string, node?: ASTNode) => never,
): void {
  const nameOf = (node: ASTNode) => goTypeName(typeOfNode(node));
  const oneOf = (node: ASTNode, kinds: string[]) => {
    const name = nameOf(node);
    return name === 'dyn' || kinds.includes(name);
  };
  /** stringFormatChecker.verifyString: the offending node, or undefined. */
  const verifyString = (node: ASTNode): ASTNode | undefined => {
    const name = nameOf(node);
    if (name !== 'dyn' && !STRING_KINDS.has(name)) return node;
    if (node.op === 'list') {
      for (const element of node.args) {
        const bad = verifyString(element);
        if (bad) return bad;
      }
    } else if (node.op === 'map') {
      for (const [key, value] of node.args) {
        const bad = verifyString(key) ?? verifyString(value);
        if (bad) return bad;
      }
    }
    return undefined;
  };
  let badNode: ASTNode | undefined;
  const check =
    (kinds: string[], error: (t: string) => FormatError): Clause =>
    (node) => {
      const element = node as ASTNode;
      if (!oneOf(element, kinds)) {
        badNode = element;
        throw error(nameOf(element));
      }
      return '';
    };
  const checker: Interpolator = {
    string: (node) => {
      const bad = verifyString(node as ASTNode);
      if (bad) {
        badNode = bad;
        throw clauseError.string(nameOf(bad));
      }
      return '';
    },
    decimal: check(['int', 'uint'], clauseError.decimal),
    fixed: () => check(['double', 'string'], clauseError.fixed),
    scientific: () => check(['double', 'string'], clauseError.scientific),
    binary: check(['int', 'uint', 'bool'], clauseError.binary),
    hex: () => check(['int', 'uint', 'string', 'bytes'], clauseError.hex),
    octal: check(['int', 'uint'], clauseError.octal),
  };
  let requested = 0;
  try {
    parseFormatString(
      format,
      elements.length,
      (index) => {
        requested++;
        return [elements[index], ''];
      },
      checker,
      false,
    );
  } catch (error) {
    if (error instanceof FormatError) report(error.message, badNode);
    throw error;
  }
  if (elements.length > requested) {
    report(`too many arguments supplied to string.format (expected ${requested}, got ${elements.length})`);
  }
}
