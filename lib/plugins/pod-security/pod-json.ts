/**
 * Reading a pod's metadata and spec as JSON the way the checks read the decoded Go structs: a member
 * that is absent or `null` is Go's nil pointer, and the containers are visited as policy/visitor.go
 * visits them (init containers, then containers, then ephemeral containers).
 */
import { isRecord } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';

/** `value` when it is an object (a non-nil struct pointer), else undefined. */
export function struct(value: unknown): JsonRecord | undefined {
  return isRecord(value) ? value : undefined;
}

/** `parent.key` as an object, or undefined when nil. */
export function member(parent: JsonRecord | undefined, key: string): JsonRecord | undefined {
  return parent === undefined ? undefined : struct(parent[key]);
}

/** A string member; Go's zero value `""` when unset. */
export function stringMember(parent: JsonRecord | undefined, key: string): string {
  const value = parent?.[key];
  return typeof value === 'string' ? value : '';
}

/** A list member's elements; nil is empty. */
export function listMember(parent: JsonRecord | undefined, key: string): unknown[] {
  const value = parent?.[key];
  return Array.isArray(value) ? value : [];
}

/** A `[]string` member (capability lists), its strings only. */
export function stringsMember(parent: JsonRecord | undefined, key: string): string[] {
  return listMember(parent, key).filter((v): v is string => typeof v === 'string');
}

/** `map[string]string` (annotations), string values only. */
export function stringMap(parent: JsonRecord | undefined, key: string): Record<string, string> {
  const map = member(parent, key);
  if (map === undefined) return {};
  return Object.fromEntries(Object.entries(map).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Every container of the spec in visitor.go's order. */
export function containers(spec: JsonRecord): JsonRecord[] {
  return CONTAINER_LISTS.flatMap((list) => listMember(spec, list).filter(isRecord));
}

export function containerName(container: JsonRecord): string {
  return stringMember(container, 'name');
}

/** The container's `securityContext`, undefined when nil. */
export function securityContext(container: JsonRecord): JsonRecord | undefined {
  return member(container, 'securityContext');
}

/** The pod's `spec.securityContext`, undefined when nil. */
export function podSecurityContext(spec: JsonRecord): JsonRecord | undefined {
  return member(spec, 'securityContext');
}

/** A Windows pod by `spec.os.name` (the 1.25 revisions exempt these from Linux-only checks). */
export function isWindowsPod(spec: JsonRecord): boolean {
  return stringMember(member(spec, 'os'), 'name') === 'windows';
}

/** policy/helpers.go relaxPolicyForUserNamespacePod: `spec.hostUsers` explicitly false. */
export function inUserNamespace(spec: JsonRecord): boolean {
  return spec.hostUsers === false;
}
