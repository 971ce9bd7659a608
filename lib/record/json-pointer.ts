import { HarnessError } from '../errors';
import { isRecord } from '../kube/json';

/** RFC 6901: `/a~1b/c~0d` names the member `c~d` of the member `a/b`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new HarnessError('USAGE', `${JSON.stringify(pointer)} is not a JSON pointer`, 'a JSON pointer starts with "/", e.g. /request/object/spec/token');
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The pointer of `segments`, escaped: the form the fixtures' `limits` name redacted members in. */
export function formatPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Replaces the value `segments` point at inside `root` with `replacement`, in place. Returns whether
 * there was a value to replace: a pointer to nothing changes nothing (it is not an error: the same
 * `--redact` path applies to every request, and most lack it).
 */
export function replaceAt(root: unknown, segments: readonly string[], replacement: unknown): boolean {
  if (segments.length === 0) return false;
  let node: unknown = root;
  for (const segment of segments.slice(0, -1)) {
    node = childOf(node, segment);
    if (node === undefined) return false;
  }
  const last = segments[segments.length - 1] as string;
  if (Array.isArray(node)) {
    const index = arrayIndex(last, node.length);
    if (index === undefined) return false;
    node[index] = replacement;
    return true;
  }
  if (isRecord(node) && Object.hasOwn(node, last)) {
    node[last] = replacement;
    return true;
  }
  return false;
}

function childOf(node: unknown, segment: string): unknown {
  if (Array.isArray(node)) {
    const index = arrayIndex(segment, node.length);
    return index === undefined ? undefined : node[index];
  }
  return isRecord(node) && Object.hasOwn(node, segment) ? node[segment] : undefined;
}

/** An array index as RFC 6901 spells it: digits, no leading zero, within the array. */
function arrayIndex(segment: string, length: number): number | undefined {
  if (!/^(0|[1-9][0-9]*)$/.test(segment)) return undefined;
  const index = Number(segment);
  return index < length ? index : undefined;
}
