import { jsonEqual, isRecord } from '../kube/json';

export type ChangeKind = 'added' | 'removed' | 'changed';

/** One difference between two JSON documents. */
export interface Change {
  kind: ChangeKind;
  /** JSON pointer of the member: in the newer document, or in the older one for `removed`. */
  path: string;
  /** Absent for `added`. */
  before?: unknown;
  /** Absent for `removed`. */
  after?: unknown;
  /** The pointer of the array holding the member, when it is an array element. */
  array?: string;
}

const PREVIEW_LENGTH = 80;

/**
 * The differences from `before` to `after`, one per changed member. Arrays whose elements all carry
 * a unique `name` (containers, volumes, env) are compared by name, so a container inserted in the
 * middle reads as one addition rather than a change of every element after it.
 */
export function diffJson(before: unknown, after: unknown, path = ''): Change[] {
  if (jsonEqual(before, after)) return [];
  if (Array.isArray(before) && Array.isArray(after)) return diffArrays(before, after, path);
  if (isRecord(before) && isRecord(after)) return diffObjects(before, after, path);
  return [{ kind: 'changed', path, before, after }];
}

function diffObjects(before: Record<string, unknown>, after: Record<string, unknown>, path: string): Change[] {
  const changes: Change[] = [];
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) changes.push({ kind: 'removed', path: child(path, key), before: before[key] });
  }
  for (const [key, value] of Object.entries(after)) {
    if (Object.hasOwn(before, key)) changes.push(...diffJson(before[key], value, child(path, key)));
    else changes.push({ kind: 'added', path: child(path, key), after: value });
  }
  return changes;
}

function diffArrays(before: unknown[], after: unknown[], path: string): Change[] {
  const beforeNames = uniqueNames(before);
  const afterNames = uniqueNames(after);
  return beforeNames && afterNames ? diffNamed(before, beforeNames, after, afterNames, path) : diffIndexed(before, after, path);
}

function diffNamed(before: unknown[], beforeNames: string[], after: unknown[], afterNames: string[], path: string): Change[] {
  const changes: Change[] = [];
  before.forEach((element, i) => {
    if (!afterNames.includes(beforeNames[i] as string)) changes.push({ kind: 'removed', path: `${path}/${i}`, before: element, array: path });
  });
  after.forEach((element, i) => {
    const j = beforeNames.indexOf(afterNames[i] as string);
    if (j === -1) changes.push({ kind: 'added', path: `${path}/${i}`, after: element, array: path });
    else changes.push(...diffJson(before[j], element, `${path}/${i}`));
  });
  // Insertions and removals shift indices without reordering; only a changed relative order is reported.
  const kept = beforeNames.filter((name) => afterNames.includes(name));
  const keptAfter = afterNames.filter((name) => beforeNames.includes(name));
  if (!jsonEqual(kept, keptAfter)) changes.push({ kind: 'changed', path, before, after });
  return changes;
}

function diffIndexed(before: unknown[], after: unknown[], path: string): Change[] {
  const changes: Change[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    const at = `${path}/${i}`;
    if (i >= after.length) changes.push({ kind: 'removed', path: at, before: before[i], array: path });
    else if (i >= before.length) changes.push({ kind: 'added', path: at, after: after[i], array: path });
    else if (nameOf(before[i]) !== nameOf(after[i])) changes.push({ kind: 'changed', path: at, before: before[i], after: after[i], array: path });
    else changes.push(...diffJson(before[i], after[i], at));
  }
  return changes;
}

/** `added /spec/containers/2 (foo-sidecar)`: what changed where, without the values. */
export function changeTarget(change: Change): string {
  if (change.array === undefined) return change.path;
  const before = nameOf(change.before);
  const after = nameOf(change.after);
  if (before !== undefined && after !== undefined && before !== after) return `${change.path} (${before} → ${after})`;
  const name = after ?? before;
  return name === undefined ? change.path : `${change.path} (${name})`;
}

/** One line per change: `changed /metadata/labels/tier: "web" → "web-canary"`. */
export function formatChange(change: Change): string {
  const values =
    change.kind === 'added'
      ? preview(change.after)
      : change.kind === 'removed'
        ? preview(change.before)
        : `${preview(change.before)} → ${preview(change.after)}`;
  return `${change.kind} ${changeTarget(change)}: ${values}`;
}

/** The changes as indented lines, or a line saying there were none. */
export function formatChanges(changes: readonly Change[], indent = '  '): string {
  return changes.length === 0 ? `${indent}(no change)` : changes.map((c) => `${indent}${formatChange(c)}`).join('\n');
}

/** Whether one pointer is, contains or lies inside the other. */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** The `name` of an object, as arrays of containers, volumes and env vars key their elements. */
export function nameOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.name === 'string' ? value.name : undefined;
}

/** A value in a few characters: JSON, arrays of named elements by their names, matchers by their name and sample. */
export function preview(value: unknown): string {
  if (isAsymmetric(value)) {
    // Jest's own rendering where the matcher has one (`Any<String>`), else its name and sample.
    const own = (value as { toAsymmetricMatcher?: () => string }).toAsymmetricMatcher;
    const sample = (value as { sample?: unknown }).sample;
    const text = typeof own === 'function' ? own.call(value) : `${String(value)}${sample === undefined ? '' : ` ${JSON.stringify(sample) ?? String(sample)}`}`;
    return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
  }
  const names = Array.isArray(value) ? uniqueNames(value) : undefined;
  const text = names && names.length > 0 ? `[${names.join(', ')}]` : (JSON.stringify(value) ?? String(value));
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

function uniqueNames(elements: unknown[]): string[] | undefined {
  const names = elements.map(nameOf);
  if (names.some((n) => n === undefined)) return undefined;
  return new Set(names).size === names.length ? (names as string[]) : undefined;
}

function isAsymmetric(value: unknown): value is { asymmetricMatch(other: unknown): boolean } {
  return typeof value === 'object' && value !== null && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function';
}

/**
 * Where `actual` disagrees with `expected`, which may hold asymmetric matchers (`expect.objectContaining`
 * …): only the members that fail, by JSON pointer, `equals` being the runner's own equality. An
 * objectContaining is followed into the keys it names; any other failing matcher is one change.
 * `removed`: expected but absent; `added`: present but not expected.
 */
export function diffExpected(expected: unknown, actual: unknown, equals: (a: unknown, b: unknown) => boolean, path = ''): Change[] {
  if (equals(actual, expected)) return [];
  if (isAsymmetric(expected)) {
    const sample = (expected as { sample?: unknown }).sample;
    if (String(expected).startsWith('ObjectContaining') && isRecord(sample) && isRecord(actual)) {
      return Object.entries(sample).flatMap(([key, value]) =>
        Object.hasOwn(actual, key)
          ? diffExpected(value, actual[key], equals, child(path, key))
          : [{ kind: 'removed' as const, path: child(path, key), before: value }],
      );
    }
    return [{ kind: 'changed', path, before: expected, after: actual }];
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    return expected.flatMap((element, i) => diffExpected(element, actual[i], equals, `${path}/${i}`));
  }
  if (isRecord(expected) && isRecord(actual)) {
    const changes: Change[] = [];
    for (const [key, value] of Object.entries(expected)) {
      if (Object.hasOwn(actual, key)) changes.push(...diffExpected(value, actual[key], equals, child(path, key)));
      else if (value !== undefined) changes.push({ kind: 'removed', path: child(path, key), before: value });
    }
    for (const [key, value] of Object.entries(actual)) {
      if (!Object.hasOwn(expected, key) && value !== undefined) changes.push({ kind: 'added', path: child(path, key), after: value });
    }
    return changes;
  }
  return [{ kind: 'changed', path, before: expected, after: actual }];
}

function child(path: string, key: string): string {
  return `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
