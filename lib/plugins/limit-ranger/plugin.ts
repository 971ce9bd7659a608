import type { JsonRecord } from '../../kube/record';
import type { MutationPlugin } from '../plugin';
import { limitRangerHandles } from './applies';
import { limitRangerDefaults } from './defaults';

/**
 * LimitRanger's mutation (plugin/pkg/admission/limitranger `Admit`), second in the mutation phase: a
 * pod's containers get the default requests and limits of the namespace's LimitRanges (their
 * `Container` items), with the `kubernetes.io/limit-ranger` annotation saying what it set.
 */
export const limitRanger: MutationPlugin = {
  name: 'LimitRanger',
  admit({ attributes, object, cluster }) {
    const kind = attributes.kind;
    if (!kind || !cluster || !attributes.namespace) return undefined;
    if (
      !limitRangerHandles({
        operation: attributes.operation,
        kind,
        subResource: attributes.subResource,
        oldObject: (attributes.oldObject ?? null) as JsonRecord | null,
      })
    )
      return undefined;
    if (kind.kind !== 'Pod') return undefined;
    const ranges = cluster.list('v1', 'LimitRange', attributes.namespace) as unknown as JsonRecord[];
    return ranges.length === 0 ? undefined : limitRangerDefaults(object, ranges);
  },
};
