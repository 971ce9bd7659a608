import type { Status } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { listAt, objectAt, type JsonRecord } from '../../kube/record';
import { unknownError } from '../../kube/status';
import { acts, notInvolved, type AdmissionPhase, type Involvement } from '../involved';
import { isCoreCreateOrUpdate, type MutationPlugin, type PluginAttributes } from '../plugin';
import { pluginForbidden } from '../refusing-plugin';
import { CONTAINER_LISTS, podContainers } from './pod-containers';

// Hand-written after plugin/pkg/admission/alwayspullimages/admission.go.

/** AlwaysPullImages acts on pods themselves (not `kubectl debug`'s ephemeral containers), creates and updates, in both phases. */
export function alwaysPullImagesInvolvement(phase: AdmissionPhase): (attributes: PluginAttributes) => Involvement {
  return (attributes) => {
    if (!isCoreCreateOrUpdate(attributes, 'pods')) return notInvolved('handles only pod creates and updates (not ephemeral containers)');
    return acts(
      phase === 'mutation'
        ? 'sets every container to imagePullPolicy Always (an update only when it brings a new image)'
        : 'refuses a container whose imagePullPolicy a webhook set to other than Always (500)',
    );
  };
}
// Both phases act on the same requests; only the phrase differs.
const handles = alwaysPullImagesInvolvement('mutation');

/** isUpdateWithNoNewImages: an update whose containers use only images the stored pod already used. */
function updateWithNoNewImages(attributes: PluginAttributes, object: JsonRecord): boolean {
  if (attributes.operation !== 'UPDATE' || !isRecord(attributes.oldObject)) return false;
  const old = new Set(podContainers(attributes.oldObject as JsonRecord).map(({ container }) => container.image));
  return podContainers(object).every(({ container }) => old.has(container.image));
}

/** shouldIgnore: anything but a pod itself (no subresource: `kubectl debug` keeps its pull policy), and updates adding no image. */
function ignores(attributes: PluginAttributes, object: JsonRecord): boolean {
  if (!handles(attributes).involved) return true;
  return updateWithNoNewImages(attributes, object);
}

/**
 * AlwaysPullImages (off by default), after TaintNodesByCondition in the mutation phase: every container
 * of a created pod, or of an update that brings a new image, pulls `Always`, so a node's cached
 * image is never used without the credentials to pull it.
 */
export const alwaysPullImages: MutationPlugin = {
  name: 'AlwaysPullImages',
  admit({ attributes, object }) {
    if (ignores(attributes, object)) return undefined;
    if (podContainers(object).every(({ container }) => container.imagePullPolicy === 'Always')) return undefined;
    const spec = objectAt(object, 'spec');
    const changed: JsonRecord = { ...spec };
    for (const list of CONTAINER_LISTS) {
      if (list in spec) changed[list] = listAt(spec, list).map((container) => ({ ...container, imagePullPolicy: 'Always' }));
    }
    return { ...object, spec: changed };
  },
};

/**
 * Its Validate, after ServiceAccount in the validation phase: a container a later webhook set to
 * another policy is refused. Each is an admission.NewForbidden, joined by utilerrors.NewAggregate,
 * which is no API status: the apiserver answers a 500 with the aggregate's text.
 */
export function alwaysPullImagesValidate(attributes: PluginAttributes & { name?: string }, object: JsonRecord): Status | undefined {
  if (ignores(attributes, object)) return undefined;
  const messages = podContainers(object)
    .filter(({ container }) => container.imagePullPolicy !== 'Always')
    .map(
      ({ container, path }) =>
        pluginForbidden(
          attributes,
          object,
          `${path}.imagePullPolicy: Unsupported value: ${JSON.stringify(String(container.imagePullPolicy ?? ''))}: supported values: "Always"`,
        ).message ?? '',
    );
  if (messages.length === 0) return undefined;
  return unknownError(messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`);
}
