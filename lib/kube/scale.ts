/**
 * The autoscaling/v1 Scale a workload's scale subresource serves (kubernetes `pkg/registry/apps/deployment/storage`
 * scaleFromDeployment and its siblings): the parent's identity, spec.replicas, status.replicas and its
 * selector as a string.
 */
import type { KubeObject } from './admission';
import { isObject, type JsonObject } from './json';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { compileSelector } from './label-selector';

const objectAt = (value: unknown, key: string): JsonObject => (isObject(value) && isObject(value[key]) ? value[key] : {});

/** A ReplicationController's selector is a plain map: labels.SelectorFromSet(...).String(). */
function selectorOf(spec: JsonObject): string {
  const selector = objectAt(spec, 'selector');
  // The workloads' selectors through LabelSelectorAsSelector(...).String(); a ReplicationController's map as its matchLabels.
  const labelSelector = ('matchLabels' in selector || 'matchExpressions' in selector ? selector : { matchLabels: selector }) as LabelSelector;
  try {
    return compileSelector(labelSelector).text;
  } catch {
    return '';
  }
}

/** The Scale of `parent` (no managedFields: the scale REST storage answers without them). */
export function scaleOf(parent: KubeObject): KubeObject {
  const metadata = objectAt(parent, 'metadata');
  const spec = objectAt(parent, 'spec');
  const statusReplicas = objectAt(parent, 'status').replicas;
  const selector = selectorOf(spec);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: metadata.name as string,
      namespace: metadata.namespace as string,
      uid: metadata.uid as string,
      resourceVersion: metadata.resourceVersion as string,
      creationTimestamp: metadata.creationTimestamp as string,
    },
    spec: { replicas: typeof spec.replicas === 'number' ? spec.replicas : 0 },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(selector ? { selector } : {}) },
  };
}
