import type { Environment } from '@marcbachmann/cel-js';
import { qualifiedNameErrors } from '../../kube/names';
import { matchesFormat } from '../../kube/openapi-formats';
import { labelValueErrors } from '../../kube/value-formats';
import { nameIsDns1035Label, nameIsDnsLabel, nameIsDnsSubdomain, type NameValidator } from '../../kube/name-validators';
import { celModule } from '../runtime';
// The URL library's port of Go's net/url, so that `format.uri()` and `url()` read URLs alike.
import { GoUrlError, fromBytes, goParseRequestURI, toBytes } from './go-url';
import { registerNamespace } from './namespace';

/*
 * The Kubernetes format library (k8s.io/apiserver/pkg/cel/library/format.go, type
 * kubernetes.NamedFormat of pkg/cel/format.go), enabled from 1.31 by pkg/cel/environment/base.go:
 * `format.named(name)`, `format.<name>()` and `<format>.validate(value)`, which is optional.none for a
 * valid value and otherwise the messages of the apimachinery or kube-openapi check behind the format.
 */

/** A CEL `kubernetes.NamedFormat` value (apiservercel.Format). */
export class NamedFormat {
  constructor(
    /** Format.Name, which `==` compares. */
    readonly name: string,
    readonly validate: (value: string) => string[],
  ) {}
}

/**
 * apimachinery's NameIsDNSLabel & co. with prefix = true, as generateName is checked. Their
 * maskTrailingDash leaves a one-byte name alone (`len(name) > 1`), which the shared validators
 * do not model, so such a name is checked as it is.
 */
const prefixed = (validator: NameValidator) => (value: string) => validator(value, Buffer.byteLength(value) > 1);

/** kube-openapi strfmt checks (default.go, date.go, time.go), which only say whether the value matches. */
const strfmt = (format: string, message: string) => (value: string) => (matchesFormat(format, value) ? [] : [message]);

/** format.go `ConstantFormats`, by the name `format.named` and `format.<name>()` take. */
const FORMATS: ReadonlyMap<string, NamedFormat> = new Map([
  ['dns1123Label', new NamedFormat('DNS1123Label', (value) => nameIsDnsLabel(value, false))],
  ['dns1123Subdomain', new NamedFormat('DNS1123Subdomain', (value) => nameIsDnsSubdomain(value, false))],
  ['dns1035Label', new NamedFormat('DNS1035Label', (value) => nameIsDns1035Label(value, false))],
  ['qualifiedName', new NamedFormat('QualifiedName', qualifiedNameErrors)],
  ['dns1123LabelPrefix', new NamedFormat('DNS1123LabelPrefix', prefixed(nameIsDnsLabel))],
  ['dns1123SubdomainPrefix', new NamedFormat('DNS1123SubdomainPrefix', prefixed(nameIsDnsSubdomain))],
  ['dns1035LabelPrefix', new NamedFormat('DNS1035LabelPrefix', prefixed(nameIsDns1035Label))],
  ['labelValue', new NamedFormat('LabelValue', labelValueErrors)],
  // format.go calls url.ParseRequestURI itself for its error text.
  [
    'uri',
    new NamedFormat('URI', (value) => {
      const error = parseRequestURI(value);
      return error === undefined ? [] : [error];
    }),
  ],
  ['uuid', new NamedFormat('uuid', strfmt('uuid', 'does not match the UUID format'))],
  ['byte', new NamedFormat('byte', strfmt('byte', 'invalid base64'))],
  ['date', new NamedFormat('date', strfmt('date', 'invalid date'))],
  ['datetime', new NamedFormat('datetime', strfmt('datetime', 'invalid datetime'))],
]);

export const FORMAT_TYPE = 'kubernetes.NamedFormat';

// `format.named` and `format.dns1123Label` are namespaced global functions in cel-go; cel-js has none,
// so `format` is a namespace constant with the functions as members (namespace.ts).

/** Registers the kubernetes.NamedFormat type and the format library functions of format.go. */
export function registerFormat(env: Environment): void {
  const { Optional } = celModule();
  const sync = { async: false };
  registerNamespace(env, 'format');
  env
    .registerType(FORMAT_TYPE, { ctor: NamedFormat, fields: {} })
    .registerFunction(
      `format.named(string): optional<${FORMAT_TYPE}>`,
      (_: unknown, name: string) => {
        const format = FORMATS.get(name);
        return format ? Optional.of(format) : Optional.none();
      },
      sync,
    )
    .registerFunction(
      `${FORMAT_TYPE}.validate(string): optional<list<string>>`,
      (format: NamedFormat, value: string) => {
        const errors = format.validate(value);
        return errors.length === 0 ? Optional.none() : Optional.of(errors);
      },
      sync,
    )
    .registerOperator(`${FORMAT_TYPE} == ${FORMAT_TYPE}`, (a: NamedFormat, b: NamedFormat) => a.name === b.name);
  for (const [name, format] of FORMATS) env.registerFunction(`format.${name}(): ${FORMAT_TYPE}`, () => format, sync);
}

/** url.ParseRequestURI's error for the value (`parse "<value>": <why>`), or undefined when Go accepts it. */
function parseRequestURI(value: string): string | undefined {
  try {
    goParseRequestURI(toBytes(value));
    return undefined;
  } catch (error) {
    if (error instanceof GoUrlError) return fromBytes(error.message);
    throw error;
  }
}
