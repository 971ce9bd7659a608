/**
 * The name functions of apimachinery's api/validation/generic.go and path/name.go: what
 * `metadata.name` (and `metadata.generateName`, as a prefix) must look like for each resource.
 */
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors } from './value-formats';

/** `ValidateNameFunc(name, prefix)`: the messages for an invalid name, none for a valid one. */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * maskTrailingDash: a generateName may end in '-'. Upstream replaces the last *two* bytes with "a"
 * (`name[:len(name)-2] + "a"`), so "ab-" is checked as "aa"; reproduced as is.
 */
function maskTrailingDash(name: string): string {
  if (!name.endsWith('-')) return name;
  // Go would panic slicing a one-byte name; the recover handler makes that a 500 we do not model.
  const cut = Buffer.from(name, 'utf8');
  return `${cut.subarray(0, Math.max(0, cut.length - 2)).toString('utf8')}a`;
}

/** NameIsDNSSubdomain. */
export const nameIsDnsSubdomain: NameValidator = (name, prefix) => dns1123SubdomainErrors(prefix ? maskTrailingDash(name) : name);

/** NameIsDNSLabel (namespaces, StatefulSets). */
export const nameIsDnsLabel: NameValidator = (name, prefix) => dns1123LabelErrors(prefix ? maskTrailingDash(name) : name);

/** NameIsDNS1035Label (services). */
export const nameIsDns1035Label: NameValidator = (name, prefix) => dns1035LabelErrors(prefix ? maskTrailingDash(name) : name);

/** path.ValidatePathSegmentName (RBAC objects and other names only used as a path segment). */
export const pathSegmentName: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
};

/**
 * The name rule of a kind (its strategy's ValidateNameFunc): path segments for RBAC, a DNS label for
 * namespaces, a DNS-1035 label for services, DNS subdomains otherwise.
 */
export function nameRuleOf(kind: { group: string; kind: string }): NameValidator {
  if (kind.group === 'rbac.authorization.k8s.io') return pathSegmentName;
  if (kind.group === '' && kind.kind === 'Namespace') return nameIsDnsLabel;
  if (kind.group === '' && kind.kind === 'Service') return nameIsDns1035Label;
  return nameIsDnsSubdomain;
}
