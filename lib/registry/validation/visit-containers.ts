import type { Path } from '../../kube/field-path';
import { listOf, type JsonObject } from './access';

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/**
 * Every container of a pod spec, init containers first (podshelper.VisitContainersWithPath), with a
 * function that makes its field path: the path is made only for a container that has an error, and
 * most have none.
 */
export function visitContainers(spec: JsonObject, path: Path, visit: (container: JsonObject, at: () => Path) => void): void {
  for (const key of CONTAINER_LISTS) {
    const list = listOf(spec, key);
    for (let i = 0; i < list.length; i++) visit(list[i]!, () => path.child(key).index(i));
  }
}
