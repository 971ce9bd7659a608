import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { isRecord, jsonEqual } from '../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../kube/record';
import { acts, notInvolved, type Involvement } from './involved';
import type { PluginAttributes, PluginCluster } from './plugin';
import { isRequestFor, pluginForbidden, refusingPlugin } from './refusing-plugin';

/** What the plugin reads of a PriorityClass. */
interface PriorityClass {
  name: string;
  value: number;
  globalDefault: boolean;
  /** Stored classes always have one (defaulting sets PreemptLowerPriority). */
  preemptionPolicy: string;
}

// scheduling SystemPriorityClasses(): kube-apiserver creates them at start-up and never lets them go,
// so they resolve even when the harness's store was not seeded with them.
const SYSTEM_CLASSES: readonly PriorityClass[] = [
  { name: 'system-node-critical', value: 2000001000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
  { name: 'system-cluster-critical', value: 2000000000, globalDefault: false, preemptionPolicy: 'PreemptLowerPriority' },
];

function priorityClass(object: KubeObject): PriorityClass {
  const record = object as JsonRecord;
  return {
    name: object.metadata?.name ?? '',
    value: typeof record.value === 'number' ? record.value : 0,
    globalDefault: record.globalDefault === true,
    // A class given to the harness as a fixture may lack what the registry's defaulting would have set.
    preemptionPolicy: stringAt(record, 'preemptionPolicy') ?? 'PreemptLowerPriority',
  };
}

function storedClasses(cluster: PluginCluster): PriorityClass[] {
  return cluster.list('scheduling.k8s.io/v1', 'PriorityClass', '').map(priorityClass);
}

function findClass(cluster: PluginCluster, name: string): PriorityClass | undefined {
  return storedClasses(cluster).find((c) => c.name === name) ?? SYSTEM_CLASSES.find((c) => c.name === name);
}

/** getDefaultPriorityClass: of the globalDefault classes (one, unless a race made more), the lowest value. */
function defaultClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  let found: PriorityClass | undefined;
  for (const c of classes) if (c.globalDefault && (found === undefined || found.value > c.value)) found = c;
  return found;
}

/**
 * Priority (plugin/pkg/admission/priority) `Admit`, fifth in the mutation phase, reading the cluster's
 * PriorityClasses — what lib/plugins/priority.ts (system classes only, never refusing) leaves out:
 * - pod CREATE naming a class: the class must exist (`no PriorityClass with name x was found`); the pod
 *   gets its value as `spec.priority` and its `preemptionPolicy`;
 * - pod CREATE naming none: the globalDefault class (lowest value if several) is named and applied,
 *   else priority 0 and PreemptLowerPriority;
 * - a `spec.priority` / `spec.preemptionPolicy` the client set that differs from the computed one is
 *   refused with kube's texts;
 * - pod UPDATE: a priority or preemptionPolicy the new object dropped is carried over from the old one.
 * Meant to replace `priority` in MUTATION_PLUGINS (same name).
 */
/** Priority's `Admit` acts on pods themselves (no subresource): creates get their priority, updates keep it. */
export function priorityMutationInvolvement(attributes: PluginAttributes): Involvement {
  if (attributes.subResource !== '' || attributes.resource.group !== '' || attributes.resource.resource !== 'pods')
    return notInvolved('handles only pods (no subresource) in this phase');
  if (attributes.operation === 'CREATE')
    return acts('resolves spec.priorityClassName (else the globalDefault class) into spec.priority and preemptionPolicy; an unknown class is refused');
  if (attributes.operation === 'UPDATE') return acts('carries spec.priority and preemptionPolicy over from the stored pod when the update drops them');
  return notInvolved('handles only pod creates and updates');
}

const NO_OBJECTS: PluginCluster = { list: () => [], get: () => undefined };

export const priorityWithClasses = refusingPlugin('Priority', ({ attributes, object, cluster: given }) => {
  // Without a cluster (the review builders), there are only the system classes.
  const cluster = given ?? NO_OBJECTS;
  if (!priorityMutationInvolvement(attributes).involved) return {};
  const spec = objectAt(object, 'spec');
  if (attributes.operation === 'UPDATE') {
    const oldSpec = isRecord(attributes.oldObject) ? objectAt(attributes.oldObject as JsonRecord, 'spec') : {};
    const carried = {
      ...(spec.priority === undefined && oldSpec.priority !== undefined ? { priority: oldSpec.priority } : {}),
      ...(spec.preemptionPolicy === undefined && oldSpec.preemptionPolicy !== undefined ? { preemptionPolicy: oldSpec.preemptionPolicy } : {}),
    };
    return Object.keys(carried).length === 0 ? {} : { object: { ...object, spec: { ...spec, ...carried } } };
  }

  const className = stringAt(spec, 'priorityClassName') ?? '';
  let resolved: { name: string; value: number; preemptionPolicy: string };
  if (className === '') {
    const found = defaultClass(storedClasses(cluster));
    resolved = found ?? { name: '', value: 0, preemptionPolicy: 'PreemptLowerPriority' };
  } else {
    const found = findClass(cluster, className);
    if (!found) return { refusal: pluginForbidden(attributes, object, `no PriorityClass with name ${className} was found`) };
    resolved = found;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== resolved.value) {
    const cause = `the integer value of priority (${String(spec.priority)}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`;
    return { refusal: pluginForbidden(attributes, object, cause) };
  }
  if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== resolved.preemptionPolicy) {
    const cause = `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`;
    return { refusal: pluginForbidden(attributes, object, cause) };
  }
  // Upstream writes the default class's name (or "", which the wire form leaves out) into priorityClassName.
  const changed = {
    ...object,
    spec: {
      ...spec,
      ...(resolved.name !== '' ? { priorityClassName: resolved.name } : {}),
      priority: resolved.value,
      preemptionPolicy: resolved.preemptionPolicy,
    },
  };
  return jsonEqual(changed, object) ? {} : { object: changed };
});

/** Priority's `Validate` acts on PriorityClass creates and updates. */
export function priorityValidationInvolvement(attributes: PluginAttributes): Involvement {
  const { operation } = attributes;
  if ((operation !== 'CREATE' && operation !== 'UPDATE') || !isRequestFor(attributes, operation, 'scheduling.k8s.io', 'priorityclasses')) {
    return notInvolved('handles only PriorityClass creates and updates in this phase');
  }
  return acts('refuses a globalDefault class while another class is the default');
}

/**
 * Priority `Validate`, fourth in the validation phase (after PodSecurity): a PriorityClass created or
 * updated with `globalDefault: true` is refused while another class is the default (on update, another
 * than itself). Reads the cluster's PriorityClasses.
 */
export function priorityClassValidate(attributes: AdmissionAttributes, cluster: PluginCluster): Status | undefined {
  if (!priorityValidationInvolvement(attributes).involved || !isRecord(attributes.object)) return undefined;
  const incoming = priorityClass(attributes.object);
  if (!incoming.globalDefault) return undefined;
  const current = defaultClass(storedClasses(cluster));
  if (!current) return undefined;
  if (attributes.operation === 'UPDATE' && current.name === incoming.name) return undefined;
  return pluginForbidden(attributes, attributes.object as JsonRecord, `PriorityClass ${current.name} is already marked as default. Only one default can exist`);
}
