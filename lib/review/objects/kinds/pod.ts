import type { Pod } from 'kubernetes-types/core/v1.js';
import type { SeededRandom } from '../../../random';
import { app, podSpecFor } from '../app';
import type { Gen } from '../faker';
import { generator, metadataOf, type GenerateOptions, type WorkloadShortcuts } from '../generate';
import { isObject, objectAt, stringAt, type JsonObject } from '../json';
import { appName, withSuffix } from '../names';
import { podFrom, replicaSetFrom, storedOwner } from '../owner';

export interface PodOptions extends WorkloadShortcuts {
  /** Where the pod's seed is drawn from (the same as `random` in the second argument). */
  random?: SeededRandom;
}

export interface OwnedOptions extends GenerateOptions {
  /**
   * The controller that created the object (a ReplicaSet, Deployment, StatefulSet, DaemonSet or Job for
   * pods): its template, labels and ownerReference are used. `null` for none.
   */
  owner?: object | null;
}

function standalone(gen: Gen, shortcuts: PodOptions): JsonObject {
  const name = shortcuts.name ?? withSuffix(appName(gen), gen.suffix(5));
  const base = name.replace(/-[a-z0-9]{5}$/, '');
  const { spec, version } = podSpecFor(gen, base, shortcuts.images);
  const labels = app(gen, base, version).labels;
  return { apiVersion: 'v1', kind: 'Pod', metadata: metadataOf(shortcuts, { name, namespace: 'default', labels }), spec };
}

function owned(gen: Gen, shortcuts: PodOptions, owner: JsonObject): JsonObject {
  const stored = storedOwner(owner, gen);
  const controller = stored.kind === 'Deployment' ? storedOwner(replicaSetFrom(stored, gen), gen) : stored;
  const { metadata, spec } = podFrom(controller, gen);
  const images = shortcuts.images ? podSpecFor(gen, '', shortcuts.images).spec : {};
  const generated = { name: String(metadata.name), namespace: stringAt(metadata, 'namespace'), labels: objectAt(metadata, 'labels') };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...metadata, ...metadataOf(shortcuts, generated) },
    spec: { ...spec, ...images },
  };
}

/**
 * A Pod as a webhook sees it on CREATE, with the defaults kube-apiserver fills in before admission.
 * `objects.pod({ name, namespace, labels, annotations, images, random })` keeps working; any other
 * member of the first argument is an override.
 */
export const pod = generator<Pod, PodOptions, OwnedOptions>((gen, shortcuts, options) =>
  isObject(options.owner) ? owned(gen, shortcuts, options.owner) : standalone(gen, shortcuts),
);
