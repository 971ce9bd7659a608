/**
 * Pod Security levels and policy versions as pod-security-admission parses and prints them
 * (staging/src/k8s.io/pod-security-admission/api/helpers.go, api/constants.go).
 */

export type Level = 'privileged' | 'baseline' | 'restricted';

export const LEVELS: readonly Level[] = ['privileged', 'baseline', 'restricted'];

/** A policy version: `latest`, or `v1.<minor>` (the library assumes major 1 throughout). */
export type PolicyVersion = { readonly latest: true } | { readonly latest: false; readonly minor: number };

export const LATEST: PolicyVersion = { latest: true };

/** `api.MajorMinorVersion(1, minor)`. */
export function v1(minor: number): PolicyVersion {
  return { latest: false, minor };
}

/** The level and version one mode (enforce, audit or warn) evaluates. */
export interface LevelVersion {
  readonly level: Level;
  readonly version: PolicyVersion;
}

/** `Version.String()`: `latest` or `v1.25`. */
export function versionString(version: PolicyVersion): string {
  return version.latest ? 'latest' : `v1.${version.minor}`;
}

/** `LevelVersion.String()`: `restricted:latest`, as the messages quote it. */
export function levelVersionString(lv: LevelVersion): string {
  return `${lv.level}:${versionString(lv.version)}`;
}

/** `Version.Older(other)`: latest is newer than every numbered version, even future ones. */
export function older(a: PolicyVersion, b: PolicyVersion): boolean {
  if (a.latest) return false;
  if (b.latest) return true;
  return a.minor < b.minor;
}

export function sameVersion(a: PolicyVersion, b: PolicyVersion): boolean {
  return a.latest ? b.latest : !b.latest && a.minor === b.minor;
}

export function sameLevelVersion(a: LevelVersion, b: LevelVersion): boolean {
  return a.level === b.level && sameVersion(a.version, b.version);
}

/** A parse that always yields a value to use, and the error text when the input was not valid. */
export interface Parsed<T> {
  value: T;
  error?: string;
}

/**
 * `ParseLevel`: an unknown level reads as `restricted` (the caller decides whether to fail open), with
 * the error text the namespace validation reports.
 */
export function parseLevel(level: string): Parsed<Level> {
  if ((LEVELS as readonly string[]).includes(level)) return { value: level as Level };
  return { value: 'restricted', error: `must be one of ${LEVELS.join(', ')}` };
}

// helpers.go versionRegexp: no leading zeros, no patch part, major 1 only.
const VERSION_PATTERN = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** `ParseVersion`: `latest` or `v1.x`; anything else reads as latest, with an error. */
export function parseVersion(version: string): Parsed<PolicyVersion> {
  if (version === 'latest') return { value: LATEST };
  const match = VERSION_PATTERN.exec(version);
  const minor = match?.[1] === undefined ? NaN : Number(match[1]);
  // Go's strconv.Atoi fails past int64; such a label reads as latest with the same error.
  if (!Number.isSafeInteger(minor)) return { value: LATEST, error: 'must be "latest" or "v1.x"' };
  return { value: v1(minor) };
}

/** `CompareLevels`: -1 when a is less strict than b, 0 when equal, 1 when stricter. */
export function compareLevels(a: Level, b: Level): number {
  return Math.sign(LEVELS.indexOf(a) - LEVELS.indexOf(b));
}
