import { objectAt, stringAt } from '../kube/record';
import { isPodCreate, type MutationPlugin } from './plugin';

// The system classes every cluster has (scheduling/v1 SystemPriorityClasses).
const SYSTEM_PRIORITIES: Readonly<Record<string, number>> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/**
 * Priority (plugin/pkg/admission/priority): a created pod gets the priority of its class (0 without
 * one, as no class is marked globalDefault) and the class's preemption policy.
 */
export const priority: MutationPlugin = {
  name: 'Priority',
  admit({ attributes, object }) {
    if (!isPodCreate(attributes)) return undefined;
    const spec = objectAt(object, 'spec');
    const className = stringAt(spec, 'priorityClassName');
    const value = className ? SYSTEM_PRIORITIES[className] : 0;
    const additions = {
      ...(spec.priority === undefined && value !== undefined ? { priority: value } : {}),
      ...(spec.preemptionPolicy === undefined ? { preemptionPolicy: 'PreemptLowerPriority' } : {}),
    };
    if (Object.keys(additions).length === 0) return undefined;
    return { ...object, spec: { ...spec, ...additions } };
  },
};
