/**
 * Where a workload keeps the pod it creates (admission.go DefaultPodSpecExtractor): the resources
 * PodSecurity evaluates besides pods, and the template metadata and spec of each.
 */
import type { JsonRecord } from '../../kube/record';
import { member } from './pod-json';

export interface GroupResourceRef {
  readonly group: string;
  readonly resource: string;
}

/** The template's path in the object, from the object's root. */
const TEMPLATE_PATHS: ReadonlyMap<string, readonly string[]> = new Map([
  ['/replicationcontrollers', ['spec', 'template']],
  ['/podtemplates', ['template']],
  ['apps/replicasets', ['spec', 'template']],
  ['apps/deployments', ['spec', 'template']],
  ['apps/statefulsets', ['spec', 'template']],
  ['apps/daemonsets', ['spec', 'template']],
  ['batch/jobs', ['spec', 'template']],
  ['batch/cronjobs', ['spec', 'jobTemplate', 'spec', 'template']],
]);

/**
 * Only a ReplicationController's template is a pointer in Go; every other workload's is a struct, so an
 * absent one is evaluated as an empty template rather than skipped.
 */
const OPTIONAL_TEMPLATE = '/replicationcontrollers';

const key = (gr: GroupResourceRef): string => `${gr.group}/${gr.resource}`;

/** `HasPodSpec`: pods and the workload resources above. */
export function hasPodSpec(gr: GroupResourceRef): boolean {
  return (gr.group === '' && gr.resource === 'pods') || TEMPLATE_PATHS.has(key(gr));
}

/**
 * `ExtractPodSpec` for a workload: its template's metadata and spec, or undefined when it has no
 * template to evaluate.
 */
export function extractPodTemplate(gr: GroupResourceRef, object: JsonRecord): { metadata: JsonRecord; spec: JsonRecord } | undefined {
  const path = TEMPLATE_PATHS.get(key(gr));
  if (path === undefined) return undefined;
  // A ReplicationController's nil template means nothing to evaluate; elsewhere a missing member is
  // the Go struct's zero value.
  if (key(gr) === OPTIONAL_TEMPLATE && member(member(object, 'spec'), 'template') === undefined) return undefined;
  const template = path.reduce<JsonRecord>((parent, segment) => member(parent, segment) ?? {}, object);
  return { metadata: member(template, 'metadata') ?? {}, spec: member(template, 'spec') ?? {} };
}
