/**
 * apimachinery's name checks (pkg/util/validation, pkg/api/validate/content) with their texts: each
 * returns the messages a field error carries, none when the value is valid. Lengths are Go's `len`,
 * in bytes.
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';

const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);

const maxLength = (value: string, max: number): string[] => (Buffer.byteLength(value) > max ? [`must be no more than ${max} bytes`] : []);

export const isDns1123Subdomain = (value: string): boolean => Buffer.byteLength(value) <= 253 && DNS1123_SUBDOMAIN.test(value);
export const isDns1123Label = (value: string): boolean => Buffer.byteLength(value) <= 63 && DNS1123_LABEL.test(value);

/** `IsDNS1123Subdomain`. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors = maxLength(value, 253);
  if (!DNS1123_SUBDOMAIN.test(value)) {
    errors.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN_FMT}')`,
    );
  }
  return errors;
}

/** `IsDNS1123Label`. A valid subdomain that is no label (its length already checked) can only have dots in it. */
export function dns1123LabelErrors(value: string): string[] {
  const errors = maxLength(value, 63);
  if (DNS1123_SUBDOMAIN.test(value) && !DNS1123_LABEL.test(value)) errors.push('must not contain dots');
  else if (!DNS1123_LABEL.test(value)) {
    errors.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL_FMT}')`,
    );
  }
  return errors;
}

/** `IsDNS1035Label`. */
export function dns1035LabelErrors(value: string): string[] {
  const errors = maxLength(value, 63);
  if (!DNS1035_LABEL.test(value)) {
    errors.push(
      `a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '${DNS1035_LABEL_FMT}')`,
    );
  }
  return errors;
}

const LABEL_KEY = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY}$`);
const LABEL_KEY_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_EXAMPLES = `(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${LABEL_KEY}')`;

/**
 * apimachinery `IsQualifiedName` (= content.IsLabelKey, pkg/api/validate/content/kube.go): an
 * optional DNS-subdomain prefix and `/`, then a name of at most 63 bytes.
 */
export function qualifiedNameErrors(value: string): string[] {
  // Most keys are valid and unprefixed: one test, nothing split.
  if (value.length <= 63 && value.indexOf('/') < 0 && LABEL_KEY_RE.test(value)) return [];
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a valid label key ${LABEL_KEY_MESSAGE} ${LABEL_KEY_EXAMPLES} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : value;
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (prefix === '') errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((message) => `prefix part ${message}`));
  }
  // A name the pattern accepts is ASCII, so its length is its byte count (byteLength is a native call).
  const matches = LABEL_KEY_RE.test(name);
  if (name === '') errors.push('name part must be non-empty');
  else if (name.length > 63 || (!matches && Buffer.byteLength(name) > 63)) errors.push('name part must be no more than 63 bytes');
  if (!matches) errors.push(`name part ${LABEL_KEY_MESSAGE} ${LABEL_KEY_EXAMPLES}`);
  return errors;
}

const LABEL_VALUE = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE}$`);

/** apimachinery `IsValidLabelValue`: empty, or at most 63 characters of the label alphabet. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!LABEL_VALUE_RE.test(value)) {
    errors.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`,
    );
  }
  return errors;
}
