/**
 * The PodSecurity plugin's configuration (PodSecurityConfiguration, pod-security.admission.config.k8s.io,
 * passed through `--admission-control-config-file`): cluster-wide defaults for namespaces without labels,
 * and exemptions. Field names as the YAML spells them (admission/api/v1/types.go); `toPolicy` is
 * admission/api/helpers.go's ToPolicy.
 */
import { DEFAULT_POLICY, type Policy } from './namespace-policy';
import { parseLevel, parseVersion, type LevelVersion } from './level-version';

export interface PodSecurityDefaults {
  enforce?: string;
  'enforce-version'?: string;
  audit?: string;
  'audit-version'?: string;
  warn?: string;
  'warn-version'?: string;
}

export interface PodSecurityExemptions {
  /** Authenticated usernames whose requests are not evaluated at all. */
  usernames?: readonly string[];
  /** Namespaces whose pods and workloads are not evaluated. */
  namespaces?: readonly string[];
  /** Pods (and templates) with one of these `spec.runtimeClassName`s are not evaluated. */
  runtimeClasses?: readonly string[];
}

export interface PodSecurityConfiguration {
  defaults?: PodSecurityDefaults;
  exemptions?: PodSecurityExemptions;
}

/** What kube-apiserver runs with when no configuration is given: privileged:latest everywhere, no exemptions. */
export const DEFAULT_CONFIGURATION: PodSecurityConfiguration = {};

/** A configuration with its defaults parsed once (the plugin's CompleteConfiguration). */
export interface ResolvedConfiguration {
  readonly defaultPolicy: Policy;
  readonly exemptions: Required<{ [K in keyof PodSecurityExemptions]: readonly string[] }>;
}

function mode(level: string | undefined, version: string | undefined, fallback: LevelVersion, name: string): LevelVersion {
  const parsedLevel = level === undefined ? { value: fallback.level } : parseLevel(level);
  const parsedVersion = version === undefined ? { value: fallback.version } : parseVersion(version);
  // The apiserver refuses to start with such a configuration (admission/api/validation); so do we.
  if (parsedLevel.error !== undefined) throw new Error(`PodSecurity configuration: defaults.${name}: ${parsedLevel.error}`);
  if (parsedVersion.error !== undefined) throw new Error(`PodSecurity configuration: defaults.${name}-version: ${parsedVersion.error}`);
  return { level: parsedLevel.value, version: parsedVersion.value };
}

/** Parses the defaults (unset ones are privileged/latest) and fills the exemption lists. Throws on invalid defaults. */
export function resolveConfiguration(configuration: PodSecurityConfiguration = DEFAULT_CONFIGURATION): ResolvedConfiguration {
  const d = configuration.defaults ?? {};
  return {
    defaultPolicy: {
      enforce: mode(d.enforce, d['enforce-version'], DEFAULT_POLICY.enforce, 'enforce'),
      audit: mode(d.audit, d['audit-version'], DEFAULT_POLICY.audit, 'audit'),
      warn: mode(d.warn, d['warn-version'], DEFAULT_POLICY.warn, 'warn'),
    },
    exemptions: {
      usernames: configuration.exemptions?.usernames ?? [],
      namespaces: configuration.exemptions?.namespaces ?? [],
      runtimeClasses: configuration.exemptions?.runtimeClasses ?? [],
    },
  };
}

// admission.go exemptNamespace/exemptUser/exemptRuntimeClass: an empty value is never exempt.
export function exemptNamespace(config: ResolvedConfiguration, namespace: string): boolean {
  return namespace !== '' && config.exemptions.namespaces.includes(namespace);
}

export function exemptUser(config: ResolvedConfiguration, username: string | undefined): boolean {
  return username !== undefined && username !== '' && config.exemptions.usernames.includes(username);
}

export function exemptRuntimeClass(config: ResolvedConfiguration, runtimeClassName: unknown): boolean {
  return typeof runtimeClassName === 'string' && runtimeClassName !== '' && config.exemptions.runtimeClasses.includes(runtimeClassName);
}
