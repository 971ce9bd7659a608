import { splitApiVersion } from './api-version';
import { BUILTIN_RESOURCES } from './catalog';

const BUILTIN_GROUPS = new Set(BUILTIN_RESOURCES.map((resource) => resource.group));

/**
 * Whether objects of `apiVersion` are custom resources, which the apiserver keeps as unstructured
 * maps (so their JSON has sorted members and no typed defaults).
 */
export function isUnstructured(apiVersion: unknown): boolean {
  return typeof apiVersion === 'string' && !BUILTIN_GROUPS.has(splitApiVersion(apiVersion)[0]);
}
