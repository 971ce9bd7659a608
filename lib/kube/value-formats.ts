/**
 * The string-format checks of apimachinery (pkg/util/validation/validation.go, ip.go and
 * pkg/api/validate/content/*) with kube's texts. Each returns the messages a field error carries, none
 * when the value is valid. Lengths are Go's `len`, in bytes. The DNS name and qualified-name (label
 * key) checks are lib/kube/names.ts's.
 */
import { isIPv6 } from 'node:net';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors } from './names';

export { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, qualifiedNameErrors };

const bytes = (value: string): number => Buffer.byteLength(value, 'utf8');

/** content.MaxLenError. */
export const maxLenError = (length: number): string => `must be no more than ${length} bytes`;

/** validation.InclusiveRangeError. */
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;

/** validation.EmptyError. */
export const EMPTY_ERROR = 'must be non-empty';

/** validation.RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 're')`. */
export function regexError(message: string, regex: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
  return `${message} (e.g. ${examples.map((example, i) => `${i > 0 ? ' or ' : ''}'${example}', `).join('')}regex used for validation is '${regex}')`;
}

const LABEL_VALUE_FMT = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** IsValidLabelValue (content.IsLabelValue). */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > 63) errors.push(maxLenError(63));
  if (!LABEL_VALUE.test(value)) {
    errors.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FMT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errors;
}

/** hasChDirPrefix. */
function chdirPrefixErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);

/** IsConfigMapKey: ConfigMap and Secret keys. */
export function configMapKeyErrors(value: string): string[] {
  const errors: string[] = [];
  if (bytes(value) > 253) errors.push(maxLenError(253));
  if (!CONFIG_MAP_KEY.test(value))
    errors.push(
      regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'),
    );
  errors.push(...chdirPrefixErrors(value));
  return errors;
}

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);

/** IsEnvVarName: the strict rule (RelaxedEnvironmentVariableValidation off). */
export function envVarNameErrors(value: string): string[] {
  const errors: string[] = [];
  if (!ENV_VAR_NAME.test(value)) {
    errors.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        ENV_VAR_NAME_FMT,
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  errors.push(...chdirPrefixErrors(value));
  return errors;
}

/** IsRelaxedEnvVarName: printable ASCII other than '=' (the rule kube v1.36 applies, its gate on by default). */
export function relaxedEnvVarNameErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length === 0) errors.push(`environment variable name ${EMPTY_ERROR}`);
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    // unicode.IsPrint over ASCII: 0x20–0x7e.
    if (code > 0x7e || code < 0x20 || ch === '=') {
      errors.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errors;
}

/** IsValidPortNum. */
export function portNumberErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA service name. */
export function portNameErrors(port: string): string[] {
  const errors: string[] = [];
  if (bytes(port) > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errors.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errors.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errors.push('must not begin or end with a hyphen');
  return errors;
}

const MAX_ID = 0xffffffff;

/** IsValidUserID. */
export function userIdErrors(uid: number): string[] {
  return uid >= 0 && uid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** IsValidGroupID. */
export function groupIdErrors(gid: number): string[] {
  return gid >= 0 && gid <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';

/** IsHTTPHeaderName. */
export function httpHeaderNameErrors(value: string): string[] {
  return new RegExp(`^${HTTP_HEADER_NAME_FMT}$`).test(value)
    ? []
    : [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, 'X-Header-Name')];
}

const PERCENT_FMT = '[0-9]+%';

/** IsValidPercent. */
export function percentErrors(value: string): string[] {
  return new RegExp(`^${PERCENT_FMT}$`).test(value)
    ? []
    : [regexError("a valid percent string must be a numeric string followed by an ending '%'", PERCENT_FMT, '1%', '93%')];
}

/** netutils.ParseIPSloppy accepts IPv4 octets with leading zeros (read as decimal). */
function isIPv4Sloppy(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 4 && parts.every((part) => /^[0-9]{1,3}$/.test(part) && Number(part) <= 255);
}

/** Whether netutils.ParseIPSloppy accepts `value`. */
export function isIP(value: string): boolean {
  if (isIPv4Sloppy(value)) return true;
  // Go's parser takes no zone and no brackets.
  if (value.includes('%') || !isIPv6(value)) return false;
  // An embedded IPv4 tail follows the same sloppy rule.
  const tail = value.slice(value.lastIndexOf(':') + 1);
  return !tail.includes('.') || isIPv4Sloppy(tail);
}

/** validation.IsValidIP's message. */
export const INVALID_IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** Whether netutils.ParseCIDRSloppy accepts `value`. */
export function isCIDR(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const ip = value.slice(0, slash);
  const bits = value.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits) || !isIP(ip)) return false;
  return Number(bits) <= (isIPv4Sloppy(ip) ? 32 : 128);
}

/** validation.IsValidCIDR's message. */
export const INVALID_CIDR = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
