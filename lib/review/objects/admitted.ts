import { splitApiVersion } from '../../kube/api-version';
import { resourceForKind } from '../../kube/catalog';
import type { JsonRecord } from '../../kube/record';
import { defaultTolerationSeconds } from '../../plugins/default-toleration-seconds';
import { runMutationPlugins } from '../../plugins/mutation-phase';
import { priorityWithClasses as priority } from '../../plugins/priority-class-exists';
import { taintNodesByCondition } from '../../plugins/taint-nodes-by-condition';
import { apiDefaults } from '../../registry/defaults';

// The in-tree plugins that change a create before any webhook and need no cluster state. ServiceAccount
// (which mounts a token volume) was off in the recorded captures and runs in h.admit's mutation phase instead.
const BEFORE_WEBHOOKS = [taintNodesByCondition, priority, defaultTolerationSeconds];

/**
 * `object` as mutating webhooks see a create of it: decoded with the API's defaults (lib/registry),
 * then changed by the in-tree plugins that run before webhooks, as in fixtures/apiserver-captures/
 * pods-create.json. Defaulting again puts what the plugins added in the struct's field order, as
 * the conversion back to v1 does.
 */
export function asAdmitted(object: JsonRecord): JsonRecord {
  const defaulted = apiDefaults(object);
  const [group, version] = splitApiVersion(String(object.apiVersion ?? ''));
  const entry = resourceForKind({ group, version, kind: String(object.kind ?? '') });
  if (!entry) return defaulted;
  const { changedBy, object: changed } = runMutationPlugins(BEFORE_WEBHOOKS, {
    attributes: { operation: 'CREATE', subResource: '', resource: { group, version, resource: entry.resource } },
    object: defaulted,
    randomSuffix: () => '',
  });
  return changedBy.length > 0 ? apiDefaults(changed) : defaulted;
}
