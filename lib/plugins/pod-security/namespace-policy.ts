/**
 * The policy a namespace's `pod-security.kubernetes.io/*` labels select, as `api.PolicyToEvaluate`
 * resolves them (staging/src/k8s.io/pod-security-admission/api/helpers.go).
 */
import { invalid as invalidField } from '../../kube/field-errors';
import { Path } from '../../kube/field-path';
import type { FieldError } from '../../kube/status';
import { LATEST, parseLevel, parseVersion, sameLevelVersion, type LevelVersion } from './level-version';

const LABEL_PREFIX = 'pod-security.kubernetes.io/';

export const ENFORCE_LEVEL_LABEL = `${LABEL_PREFIX}enforce`;
export const ENFORCE_VERSION_LABEL = `${LABEL_PREFIX}enforce-version`;
export const AUDIT_LEVEL_LABEL = `${LABEL_PREFIX}audit`;
export const AUDIT_VERSION_LABEL = `${LABEL_PREFIX}audit-version`;
export const WARN_LEVEL_LABEL = `${LABEL_PREFIX}warn`;
export const WARN_VERSION_LABEL = `${LABEL_PREFIX}warn-version`;

/** The three modes a namespace sets. */
export interface Policy {
  readonly enforce: LevelVersion;
  readonly audit: LevelVersion;
  readonly warn: LevelVersion;
}

const PRIVILEGED_LATEST: LevelVersion = { level: 'privileged', version: LATEST };

/** The built-in defaults (admission/api defaults): every mode privileged:latest. */
export const DEFAULT_POLICY: Policy = { enforce: PRIVILEGED_LATEST, audit: PRIVILEGED_LATEST, warn: PRIVILEGED_LATEST };

/** The labels' policy and the field errors of the labels that did not parse. */
export interface NamespacePolicy {
  policy: Policy;
  /** `metadata.labels[<label>]: Invalid value: …`, in label order (enforce, audit, warn; level before version). */
  errors: FieldError[];
}

const LABELS_PATH = Path.of('metadata', 'labels');

/**
 * `PolicyToEvaluate(labels, defaults)`. An unset label keeps the default. A label that does not parse
 * still gives a policy: an invalid enforce level reads as `restricted` (fail closed) while an invalid
 * audit or warn level reads as `privileged` (fail open); an invalid version reads as `latest`.
 */
export function policyToEvaluate(labels: Readonly<Record<string, string>> | undefined, defaults: Policy = DEFAULT_POLICY): NamespacePolicy {
  const errors: FieldError[] = [];
  if (labels === undefined || Object.keys(labels).length === 0) return { policy: defaults, errors };
  let { enforce, audit, warn } = defaults;
  const read = <T>(label: string, parse: (value: string) => { value: T; error?: string }, failOpen?: T): T | undefined => {
    if (!Object.hasOwn(labels, label)) return undefined;
    const raw = labels[label] ?? '';
    const parsed = parse(raw);
    if (parsed.error === undefined) return parsed.value;
    errors.push(invalidField(LABELS_PATH.key(label), raw, parsed.error));
    return failOpen ?? parsed.value;
  };
  const enforceLevel = read(ENFORCE_LEVEL_LABEL, parseLevel);
  const enforceVersion = read(ENFORCE_VERSION_LABEL, parseVersion);
  enforce = { level: enforceLevel ?? enforce.level, version: enforceVersion ?? enforce.version };
  const auditLevel = read(AUDIT_LEVEL_LABEL, parseLevel, 'privileged');
  const auditVersion = read(AUDIT_VERSION_LABEL, parseVersion);
  audit = { level: auditLevel ?? audit.level, version: auditVersion ?? audit.version };
  const warnLevel = read(WARN_LEVEL_LABEL, parseLevel, 'privileged');
  const warnVersion = read(WARN_VERSION_LABEL, parseVersion);
  warn = { level: warnLevel ?? warn.level, version: warnVersion ?? warn.version };
  return { policy: { enforce, audit, warn }, errors };
}

/** `Policy.FullyPrivileged()`: nothing to enforce, audit or warn about. */
export function fullyPrivileged(policy: Policy): boolean {
  return policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged';
}

/** `LevelVersion.Equivalent`: both privileged (whatever the version), or the same level and version. */
function equivalentMode(a: LevelVersion, b: LevelVersion): boolean {
  return (a.level === 'privileged' && b.level === 'privileged') || sameLevelVersion(a, b);
}

/** `Policy.Equivalent`: every mode equivalent. */
export function equivalentPolicies(a: Policy, b: Policy): boolean {
  return equivalentMode(a.enforce, b.enforce) && equivalentMode(a.audit, b.audit) && equivalentMode(a.warn, b.warn);
}
