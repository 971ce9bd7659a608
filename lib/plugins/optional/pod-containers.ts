import { listAt, objectAt, type JsonRecord } from '../../kube/record';

/** The container lists of a pod spec in the order pods.VisitContainersWithPath walks them (pkg/api/pod/util.go). */
export const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Every container of a pod with its field path, init containers first, ephemeral containers last. */
export function podContainers(object: JsonRecord): { container: JsonRecord; path: string }[] {
  const spec = objectAt(object, 'spec');
  return CONTAINER_LISTS.flatMap((list) => listAt(spec, list).map((container, i) => ({ container, path: `spec.${list}[${i}]` })));
}
