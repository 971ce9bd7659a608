import { isRecord } from '../kube/json';
import { listAt, objectAt } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import { isPodCreate, type MutationPlugin, type PluginAttributes } from './plugin';

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
// The plugin's flags --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds.
const SECONDS = 300;

/** DefaultTolerationSeconds acts on pod creates. */
export function defaultTolerationSecondsInvolvement(attributes: PluginAttributes): Involvement {
  if (!isPodCreate(attributes)) return notInvolved('handles only pod creates');
  return acts('adds 300 s NoExecute tolerations of not-ready and unreachable nodes, unless the pod has them');
}

/**
 * DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds): a created pod tolerates
 * not-ready and unreachable nodes for 5 minutes, unless it already tolerates them.
 */
export const defaultTolerationSeconds: MutationPlugin = {
  name: 'DefaultTolerationSeconds',
  admit({ attributes, object }) {
    if (!defaultTolerationSecondsInvolvement(attributes).involved) return undefined;
    const spec = objectAt(object, 'spec');
    const tolerations = listAt(spec, 'tolerations');
    const tolerates = (key: string) =>
      tolerations.some((t) => (t.key === key || (t.key === undefined && t.operator === 'Exists')) && (t.effect === undefined || t.effect === 'NoExecute'));
    const added = [NOT_READY, UNREACHABLE]
      .filter((key) => !tolerates(key))
      .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: SECONDS }));
    if (added.length === 0) return undefined;
    return { ...object, spec: { ...spec, tolerations: [...tolerations, ...added] } };
  },
};

/** The tolerations DefaultTolerationSeconds adds, which no client wrote (managedFields leave them out). */
export function isDefaultToleration(toleration: unknown): boolean {
  return (
    isRecord(toleration) &&
    (toleration.key === NOT_READY || toleration.key === UNREACHABLE) &&
    toleration.tolerationSeconds === SECONDS &&
    toleration.effect === 'NoExecute'
  );
}
