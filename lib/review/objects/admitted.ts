import { splitApiVersion } from '../../kube/api-version';
import { resourceForKind } from '../../kube/catalog';
import { objectAt, type JsonRecord } from '../../kube/record';
import { defaultTolerationSeconds } from '../../plugins/default-toleration-seconds';
import { runMutationPlugins } from '../../plugins/mutation-phase';
import { priorityWithClasses as priority } from '../../plugins/priority-class-exists';
import { taintNodesByCondition } from '../../plugins/taint-nodes-by-condition';
import { apiDefaults } from '../../registry/defaults';
import { hashSeed, SeededRandom } from '../../random';
import { serviceAccount } from '../../plugins/service-account';

// The in-tree plugins that change a create before any webhook, in kube-apiserver's order, as they run
// without a cluster: ServiceAccount takes the account the pod names to exist (h.admit checks it against
// the cluster's), Priority knows only the system classes.
const BEFORE_WEBHOOKS = [serviceAccount, taintNodesByCondition, priority, defaultTolerationSeconds];

/**
 * `object` as mutating webhooks see a create of it: decoded with the API's defaults (lib/registry),
 * then changed by the in-tree plugins that run before webhooks, as in fixtures/apiserver-outcomes/
 * sidecar-defaulting.json (and fixtures/apiserver-captures/pods-create.json, recorded with
 * ServiceAccount disabled). Defaulting again puts what the plugins added in the struct's field order,
 * as the conversion back to v1 does. The token volume's random suffix derives from the object's name,
 * so the same object is admitted alike every time.
 */
/** `plugins.disable`: the built-in plugins the cluster runs without, as createHarness names them. */
export function asAdmitted(object: JsonRecord, plugins: { disable?: readonly string[] } = {}): JsonRecord {
  const defaulted = apiDefaults(object);
  const [group, version] = splitApiVersion(String(object.apiVersion ?? ''));
  const entry = resourceForKind({ group, version, kind: String(object.kind ?? '') });
  if (!entry) return defaulted;
  const metadata = objectAt(defaulted, 'metadata');
  const random = new SeededRandom(hashSeed(`${String(metadata.namespace ?? '')}/${String(metadata.name ?? metadata.generateName ?? '')}`));
  const disabled = plugins.disable ?? [];
  const { changedBy, object: changed } = runMutationPlugins(
    BEFORE_WEBHOOKS.filter((plugin) => !disabled.includes(plugin.name)),
    {
      attributes: { operation: 'CREATE', subResource: '', resource: { group, version, resource: entry.resource }, namespace: String(metadata.namespace ?? '') },
      object: defaulted,
      randomSuffix: (length) => random.suffix(length),
    },
  );
  return changedBy.length > 0 ? apiDefaults(changed) : defaulted;
}
