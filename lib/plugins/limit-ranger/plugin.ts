import type { JsonRecord } from '../../kube/record';
import type { MutationPlugin } from '../plugin';
import { limitRangerInvolvement } from './applies';
import { limitRangerDefaults } from './defaults';

const involvement = limitRangerInvolvement('mutation');

/**
 * LimitRanger's mutation (plugin/pkg/admission/limitranger `Admit`), second in the mutation phase: a
 * pod's containers get the default requests and limits of the namespace's LimitRanges (their
 * `Container` items), with the `kubernetes.io/limit-ranger` annotation saying what it set.
 */
export const limitRanger: MutationPlugin = {
  name: 'LimitRanger',
  admit({ attributes, object, cluster }) {
    if (!cluster || !involvement(attributes).involved) return undefined;
    const ranges = cluster.list('v1', 'LimitRange', attributes.namespace ?? '') as unknown as JsonRecord[];
    return ranges.length === 0 ? undefined : limitRangerDefaults(object, ranges);
  },
};
