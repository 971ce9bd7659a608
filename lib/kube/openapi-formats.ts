/**
 * The string formats CRD schemas are validated against (apiextensions-apiserver
 * pkg/apiserver/validation/formats.go `supportedVersionedFormats`; any other `format` is stripped
 * before validation) and their checks from kube-openapi's strfmt registry (pkg/validation/strfmt:
 * default.go, time.go, duration.go, bson.go, and its forked govalidator).
 */
import { isIPv6 } from 'node:net';
import { daysIn } from '../go/time-parse';

/** The format names kube validates, as strfmt normalizes them (dashes removed). */
const SUPPORTED = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
]);

/** `StripUnsupportedFormatsPostProcess`: the format validation sees, or '' when kube ignores it. */
export function supportedFormat(format: string): string {
  return format !== '' && SUPPORTED.has(format.replaceAll('-', '')) ? format : '';
}

const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_BYTE = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGB_COLOR = new RegExp(`^rgb\\(${RGB_BYTE},${RGB_BYTE},${RGB_BYTE}\\)$`);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
// DateTimePattern's unescaped `.` is Go's: any character but a newline (JavaScript's also refuses \r, U+2028, U+2029).
const DATE_TIME_TAIL = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** IPv4 as netutils.ParseIPSloppy reads it: leading zeros tolerated. */
function isSloppyIPv4(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

/** net.ParseIP (sloppy): a dotted IPv4, or an IPv6 without zone. */
function parseIP(value: string): boolean {
  if (isSloppyIPv4(value)) return true;
  return !value.includes('%') && isIPv6(value);
}

function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const address = value.slice(0, slash);
  const prefix = value.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix)) return false;
  if (isSloppyIPv4(address)) return Number(prefix) <= 32;
  return !address.includes('%') && isIPv6(address) && Number(prefix) <= 128;
}

/** net.ParseMAC: 6, 8 or 20 octets, `:`/`-` separated pairs or `.` separated groups of four. */
function isMAC(value: string): boolean {
  const octets = [6, 8, 20];
  for (const separator of [':', '-']) {
    const parts = value.split(separator);
    if (octets.includes(parts.length) && parts.every((part) => /^[0-9a-fA-F]{2}$/.test(part))) return true;
  }
  const groups = value.split('.');
  return octets.includes(groups.length * 2) && groups.every((group) => /^[0-9a-fA-F]{4}$/.test(group));
}

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = Number(digits[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

function isCreditCard(value: string): boolean {
  const sanitized = value.replace(/[^0-9]/g, '');
  return CREDIT_CARD.test(sanitized) && luhn(sanitized);
}

function isISBN(value: string, version: 10 | 13): boolean {
  const sanitized = value.replace(/[\s-]/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(sanitized)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(sanitized[i]);
    sum += sanitized[9] === 'X' ? 100 : 10 * Number(sanitized[9]);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(sanitized)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(sanitized[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(sanitized[12]);
}

/** time.Parse("2006-01-02"): a real calendar date. */
function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  // Not Date.UTC, which reads the years 0-99 as 1900-1999.
  return day <= daysIn(year, month);
}

/** strfmt.IsDateTime: a date, a `t`, and a time of day with a zone. */
function isDateTime(value: string): boolean {
  if (value.length < 4) return false;
  const parts = value.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const match = DATE_TIME_TAIL.exec(parts[1] ?? '');
  return match !== null && (match[1] ?? '') <= '23' && (match[2] ?? '') <= '59' && (match[3] ?? '') <= '59';
}

/** Go's time.ParseDuration grammar. */
function isGoDuration(value: string): boolean {
  if (value === '0' || value === '+0' || value === '-0') return true;
  return /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.test(value);
}

const UNITS: readonly (readonly string[])[] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt.ParseDuration: Go durations, or Scala-like `3 days 2h`. */
function isDuration(value: string): boolean {
  if (isGoDuration(value)) return true;
  if (!/^\s*(?:\d+\s*[A-Za-zµ]+\s*)+$/.test(value)) return false;
  let ok = false;
  for (const match of value.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = (match[2] ?? '').trim().toLowerCase();
    for (const variants of UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || variant === unit) ok = true;
      });
    }
  }
  return ok;
}

/** net/mail.ParseAddress, approximated: `local@domain` or `Name <local@domain>`. */
function isEmail(value: string): boolean {
  const atext = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
  const local = `(?:${atext}(?:\\.${atext})*|"(?:[^"\\\\]|\\\\.)*")`;
  const domain = `(?:${atext}(?:\\.${atext})*|\\[[^\\]]*\\])`;
  const addr = `${local}@${domain}`;
  return new RegExp(`^\\s*(?:${addr}|(?:[^<>]*?\\s*)?<${addr}>)\\s*$`).test(value);
}

/** url.ParseRequestURI: an absolute URI or an absolute path, no control characters, a sane host. */
function isRequestURI(value: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(value)) return false;
  if (/%(?![0-9a-fA-F]{2})/.test(value)) return false;
  if (value.startsWith('/')) return true;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(value);
  if (!scheme) return false;
  const rest = scheme[2] ?? '';
  if (!rest.startsWith('//')) return rest.startsWith('/') || rest === '' || !rest.includes(' ');
  const authority = rest.slice(2).split(/[/?#]/, 1)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return !/[\s<>"{}|\\^`]/.test(host);
}

const CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  bsonobjectid: (v) => /^[0-9a-fA-F]{24}$/.test(v),
  uri: isRequestURI,
  email: isEmail,
  hostname: (v) => HOSTNAME.test(v) && Buffer.byteLength(v) <= 255 && v.split('.').every((label) => Buffer.byteLength(label) <= 63),
  ipv4: (v) => parseIP(v) && v.includes('.'),
  ipv6: (v) => parseIP(v) && v.includes(':'),
  cidr: isCIDR,
  mac: isMAC,
  uuid: (v) => UUID.test(v),
  uuid3: (v) => UUID3.test(v),
  uuid4: (v) => UUID4.test(v),
  uuid5: (v) => UUID5.test(v),
  isbn: (v) => isISBN(v, 10) || isISBN(v, 13),
  isbn10: (v) => isISBN(v, 10),
  isbn13: (v) => isISBN(v, 13),
  creditcard: isCreditCard,
  ssn: (v) => SSN.test(v),
  hexcolor: (v) => HEX_COLOR.test(v),
  rgbcolor: (v) => RGB_COLOR.test(v),
  byte: (v) => BASE64.test(v),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

/** Whether `value` is valid for a supported `format` (see supportedFormat). */
export function matchesFormat(format: string, value: string): boolean {
  const check = CHECKS[format.replaceAll('-', '')];
  return check ? check(value) : true;
}
