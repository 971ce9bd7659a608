/** cel-go ext/formatting.go's stringFormatter: how each CEL value is written by `format` at runtime. */
import { goQuote } from '../../go/strconv';
import { goFormatG, goFormatShortestFixed } from '../../go/format-float';
import { goFormatFixed, localizedFixed, localizedScientific } from './go-format';
import { clauseError, FormatError, type Interpolator, parseFormatString } from './string-format-clauses';
import { offsetOf } from './timestamp-offsets';

/** `<string>.format(<list>)` at runtime: formatting.go's stringFormatter with the en_US locale. */
export function formatString(format: string, args: unknown[], typeOf: (value: unknown) => string): string {
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

/**
 * time.RFC3339Nano: fractional seconds without trailing zeros, in the offset the timestamp was written
 * with (timestamp-offsets.ts), `Z` for UTC.
 */
export function rfc3339Nano(date: Date): string {
  const minutes = offsetOf(date);
  const wall = new Date(date.getTime() + minutes * 60_000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const fraction = pad(wall.getUTCMilliseconds(), 3).replace(/0+$/, '');
  const zone = minutes === 0 ? 'Z' : `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
  return (
    `${pad(wall.getUTCFullYear(), 4)}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}` +
    `T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}${fraction ? `.${fraction}` : ''}${zone}`
  );
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
