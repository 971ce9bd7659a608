import { listAt, objectAt, type JsonRecord } from '../../kube/record';
import { acts, notInvolved, type Involvement } from '../involved';
import { isCoreCreateOrUpdate, type MutationPlugin, type PluginAttributes } from '../plugin';

// Hand-written after plugin/pkg/admission/extendedresourcetoleration/admission.go and
// pkg/apis/core/helper (IsExtendedResourceName, AddOrUpdateTolerationInPod).

/** IsExtendedResourceName: a domain-prefixed name outside kubernetes.io, not a quota's `requests.` name. */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/')) return false;
  if (name.startsWith('requests.')) return false;
  return /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)\/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(`requests.${name}`);
}

const sameToleration = (a: JsonRecord, b: JsonRecord): boolean =>
  ['key', 'operator', 'value', 'effect'].every((field) => (a[field] ?? '') === (b[field] ?? ''));

/** AddOrUpdateTolerationInPod: the toleration replaces a matching one (key, operator, value, effect), else is appended. */
function addOrUpdate(tolerations: readonly JsonRecord[], toleration: JsonRecord): JsonRecord[] {
  const at = tolerations.findIndex((t) => sameToleration(t, toleration));
  if (at < 0) return [...tolerations, toleration];
  return tolerations.map((t, i) => (i === at ? toleration : t));
}

/** ExtendedResourceToleration acts on pod creates and updates. */
export function extendedResourceTolerationInvolvement(attributes: PluginAttributes): Involvement {
  if (!isCoreCreateOrUpdate(attributes, 'pods')) return notInvolved('handles only pod creates and updates');
  return acts('tolerates the NoSchedule taint of each extended resource the containers request');
}

/**
 * ExtendedResourceToleration (off by default), after PodTolerationRestriction in the mutation phase: a
 * pod (create or update) whose containers or init containers request an extended resource tolerates
 * the `<resource>:NoSchedule` taint of the nodes that have it, one toleration per resource in
 * sorted order. It never refuses.
 */
export const extendedResourceToleration: MutationPlugin = {
  name: 'ExtendedResourceToleration',
  admit({ attributes, object }) {
    if (!extendedResourceTolerationInvolvement(attributes).involved) return undefined;
    const spec = objectAt(object, 'spec');
    const names = new Set(
      ['containers', 'initContainers']
        .flatMap((list) => listAt(spec, list).flatMap((c) => Object.keys(objectAt(objectAt(c, 'resources'), 'requests'))))
        .filter(isExtendedResourceName),
    );
    if (names.size === 0) return undefined;
    let tolerations = listAt(spec, 'tolerations') as JsonRecord[];
    for (const key of [...names].sort()) tolerations = addOrUpdate(tolerations, { key, operator: 'Exists', effect: 'NoSchedule' });
    if (JSON.stringify(tolerations) === JSON.stringify(listAt(spec, 'tolerations'))) return undefined;
    return { ...object, spec: { ...spec, tolerations } };
  },
};
