/**
 * The autoscaling/v1 Scale a workload's scale subresource serves (kubernetes `pkg/registry/apps/deployment/storage`
 * scaleFromDeployment and its siblings): the parent's identity, spec.replicas, status.replicas and its
 * selector as a string.
 */
import type { KubeObject } from './admission';
import { isObject, type JsonObject } from './json';

const objectAt = (value: unknown, key: string): JsonObject => (isObject(value) && isObject(value[key]) ? value[key] : {});

/** metav1.FormatLabelSelector: `app=web,tier in (a,b),!x`, requirements sorted by key. */
export function formatLabelSelector(selector: JsonObject): string {
  const requirements: [string, string][] = Object.entries(isObject(selector.matchLabels) ? selector.matchLabels : {}).map(([key, value]) => [key, `${key}=${String(value)}`]);
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObject) : [];
  for (const expression of expressions) {
    const key = String(expression.key);
    const values = (Array.isArray(expression.values) ? expression.values.map(String) : []).sort();
    const text: Record<string, string> = { In: `${key} in (${values.join(',')})`, NotIn: `${key} notin (${values.join(',')})`, Exists: key, DoesNotExist: `!${key}` };
    requirements.push([key, text[String(expression.operator)] ?? key]);
  }
  // An empty selector (it selects everything) formats as "", as labels.Everything().String() does.
  return requirements
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, text]) => text)
    .join(',');
}

/** A ReplicationController's selector is a plain map: labels.SelectorFromSet(...).String(). */
function selectorOf(spec: JsonObject): string {
  const selector = objectAt(spec, 'selector');
  if ('matchLabels' in selector || 'matchExpressions' in selector) return formatLabelSelector(selector);
  return formatLabelSelector({ matchLabels: selector });
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
