import type { Environment } from '@marcbachmann/cel-js';
import { goQuote } from '../../go/strconv';
import { CelFunctionError } from '../errors';

/*
 * The Kubernetes semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go, type
 * kubernetes.Semver of pkg/cel/semver.go) at the version kube enables: base.go adds
 * SemverLib(SemverVersion(1)) from 1.33, so `semver` and `isSemver` also take the `normalize` flag.
 * Versions are parsed as github.com/blang/semver/v4 (v4.0.0) `Parse` parses them, with its error texts.
 */

interface PreRelease {
  readonly num?: bigint;
  readonly str?: string;
}

/** A semver.Version; the numbers are uint64. */
export interface Version {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly PreRelease[];
  readonly build: readonly string[];
}

const MAX_UINT64 = 2n ** 64n - 1n;
const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;

/** A version blang/semver refuses, with its text. */
export class VersionError extends Error {}

/** Go's strings.SplitN(s, sep, n) for n > 0: the last piece keeps the rest. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts: string[] = [];
  let rest = s;
  while (parts.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    parts.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  parts.push(rest);
  return parts;
}

const hasLeadingZeroes = (s: string): boolean => s.length > 1 && s[0] === '0';

/** strconv.ParseUint(s, 10, 64), whose error text blang passes on unchanged. */
function parseUint(s: string): bigint {
  if (s === '' || !/^[0-9]+$/.test(s)) throw new VersionError(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const value = BigInt(s);
  if (value > MAX_UINT64) throw new VersionError(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return value;
}

function parseNumber(s: string, which: 'major' | 'minor' | 'patch'): bigint {
  const name = which[0]?.toUpperCase() + which.slice(1);
  if (!NUMBERS.test(s)) throw new VersionError(`Invalid character(s) found in ${which} number ${goQuote(s)}`);
  if (hasLeadingZeroes(s)) throw new VersionError(`${name} number must not contain leading zeroes ${goQuote(s)}`);
  return parseUint(s);
}

/** `NewPRVersion`. */
function parsePreRelease(s: string): PreRelease {
  if (s === '') throw new VersionError('Prerelease is empty');
  if (NUMBERS.test(s)) {
    if (hasLeadingZeroes(s)) throw new VersionError(`Numeric PreRelease version must not contain leading zeroes ${goQuote(s)}`);
    return { num: parseUint(s) };
  }
  if (ALPHANUM.test(s)) return { str: s };
  throw new VersionError(`Invalid character(s) found in prerelease ${goQuote(s)}`);
}

/** semver.Parse: exactly `major.minor.patch[-pre][+build]`, no `v`, no spaces, no leading zeros. */
function parse(s: string): Version {
  if (s === '') throw new VersionError('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new VersionError('No Major.Minor.Patch elements found');
  const major = parseNumber(parts[0] ?? '', 'major');
  const minor = parseNumber(parts[1] ?? '', 'minor');
  let patchText = parts[2] ?? '';
  let build: string[] = [];
  let prerelease: string[] = [];
  const plus = patchText.indexOf('+');
  if (plus !== -1) {
    build = patchText.slice(plus + 1).split('.');
    patchText = patchText.slice(0, plus);
  }
  const dash = patchText.indexOf('-');
  if (dash !== -1) {
    prerelease = patchText.slice(dash + 1).split('.');
    patchText = patchText.slice(0, dash);
  }
  const patch = parseNumber(patchText, 'patch');
  const pre = prerelease.map(parsePreRelease);
  for (const part of build) {
    if (part === '') throw new VersionError('Build meta data is empty');
    if (!ALPHANUM.test(part)) throw new VersionError(`Invalid character(s) found in build meta data ${goQuote(part)}`);
  }
  return { major, minor, patch, pre, build };
}

/**
 * semverlib.go `normalizeAndParse`: drops one leading `v`, strips leading zeros from the first three
 * dot-separated parts and pads a short version with zeros; unlike blang's ParseTolerant it keeps spaces.
 */
function normalizeAndParse(s: string): Version {
  const parts = splitN(s.startsWith('v') ? s.slice(1) : s, '.', 3).map((part) => {
    // Go's len: bytes.
    if (Buffer.byteLength(part) <= 1) return part;
    const trimmed = part.replace(/^0+/, '');
    return trimmed === '' || !(trimmed[0] !== undefined && trimmed[0] >= '0' && trimmed[0] <= '9') ? `0${trimmed}` : trimmed;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1] ?? '')) throw new VersionError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parse(parts.join('.'));
}

export function parseVersion(s: string, normalize: boolean): Version | VersionError {
  try {
    return normalize ? normalizeAndParse(s) : parse(s);
  } catch (error) {
    if (error instanceof VersionError) return error;
    throw error;
  }
}

const sign = (a: bigint, b: bigint): number => (a > b ? 1 : a < b ? -1 : 0);

/** Version.Compare: numbers, then pre-releases (none ranks highest; numeric below alphanumeric); builds never count. */
export function compareVersions(v: Version, o: Version): number {
  const numbers = sign(v.major, o.major) || sign(v.minor, o.minor) || sign(v.patch, o.patch);
  if (numbers !== 0) return numbers;
  if (v.pre.length === 0 && o.pre.length === 0) return 0;
  if (v.pre.length === 0) return 1;
  if (o.pre.length === 0) return -1;
  for (let i = 0; i < v.pre.length && i < o.pre.length; i++) {
    const a = v.pre[i];
    const b = o.pre[i];
    if (a === undefined || b === undefined) break;
    let c: number;
    if (a.num !== undefined && b.num !== undefined) c = sign(a.num, b.num);
    else if (a.num !== undefined) c = -1;
    else if (b.num !== undefined) c = 1;
    // Go compares strings by bytes; pre-release identifiers are ASCII, where code units agree.
    else c = (a.str ?? '') < (b.str ?? '') ? -1 : (a.str ?? '') > (b.str ?? '') ? 1 : 0;
    if (c !== 0) return c;
  }
  return sign(BigInt(v.pre.length), BigInt(o.pre.length));
}

/** A CEL `kubernetes.Semver` value (apiservercel.Semver). */
export class SemverValue {
  constructor(readonly version: Version) {}
}

export const SEMVER_TYPE = 'kubernetes.Semver';

// semverlib.go converts the uint64 numbers with types.Int(...), a Go int64 conversion that wraps.
const toInt = (n: bigint): bigint => BigInt.asIntN(64, n);

function toSemver(s: string, normalize: boolean): SemverValue {
  const version = parseVersion(s, normalize);
  if (version instanceof VersionError) throw new CelFunctionError(version.message);
  return new SemverValue(version);
}

/** Registers the kubernetes.Semver type and the semver library functions (semverlib.go, version 1). */
export function registerSemver(env: Environment): void {
  const sync = { async: false };
  env
    .registerType(SEMVER_TYPE, { ctor: SemverValue, fields: {} })
    .registerFunction(`semver(string): ${SEMVER_TYPE}`, (s: string) => toSemver(s, false), sync)
    .registerFunction(`semver(string, bool): ${SEMVER_TYPE}`, toSemver, sync)
    .registerFunction('isSemver(string): bool', (s: string) => !(parseVersion(s, false) instanceof VersionError), sync)
    .registerFunction('isSemver(string, bool): bool', (s: string, normalize: boolean) => !(parseVersion(s, normalize) instanceof VersionError), sync)
    .registerFunction(`${SEMVER_TYPE}.major(): int`, (v: SemverValue) => toInt(v.version.major), sync)
    .registerFunction(`${SEMVER_TYPE}.minor(): int`, (v: SemverValue) => toInt(v.version.minor), sync)
    .registerFunction(`${SEMVER_TYPE}.patch(): int`, (v: SemverValue) => toInt(v.version.patch), sync)
    .registerFunction(`${SEMVER_TYPE}.compareTo(${SEMVER_TYPE}): int`, (v: SemverValue, o: SemverValue) => BigInt(compareVersions(v.version, o.version)), sync)
    .registerFunction(
      `${SEMVER_TYPE}.isGreaterThan(${SEMVER_TYPE}): bool`,
      (v: SemverValue, o: SemverValue) => compareVersions(v.version, o.version) === 1,
      sync,
    )
    .registerFunction(`${SEMVER_TYPE}.isLessThan(${SEMVER_TYPE}): bool`, (v: SemverValue, o: SemverValue) => compareVersions(v.version, o.version) === -1, sync)
    // pkg/cel/semver.go `Equal`: Version.EQ, which ignores build metadata.
    .registerOperator(`${SEMVER_TYPE} == ${SEMVER_TYPE}`, (a: SemverValue, b: SemverValue) => compareVersions(a.version, b.version) === 0);
}
