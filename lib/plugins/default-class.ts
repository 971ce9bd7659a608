import type { KubeObject } from '../kube/admission';

/** metadata.creationTimestamp in milliseconds; an object without one sorts as the oldest. */
function createdAt(object: KubeObject): number {
  const value = object.metadata?.creationTimestamp;
  const millis = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(millis) ? -Infinity : millis;
}

/**
 * The default class among `classes` (StorageClasses, IngressClasses), as pkg/volume/util/storageclass.go
 * `GetDefaultClass` and defaultingressclass/admission.go `getDefaultClass` pick it: of the classes
 * `isDefault` marks, the newest by creationTimestamp, then the first by name; none when none is marked.
 */
export function newestDefaultClass(classes: readonly KubeObject[], isDefault: (annotations: Record<string, string>) => boolean): KubeObject | undefined {
  const defaults = classes.filter((c) => isDefault(c.metadata?.annotations ?? {}));
  const name = (c: KubeObject) => c.metadata?.name ?? '';
  // Go compares names byte-wise; JS string comparison is by UTF-16 unit, the same for the names kube accepts (DNS subdomains).
  defaults.sort((a, b) => createdAt(b) - createdAt(a) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  return defaults[0];
}
