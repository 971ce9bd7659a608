import { yaml } from '../../yaml';
import { HarnessError } from '../../errors';
import type { KubeObject } from '../../kube/admission';
import { splitApiVersion } from '../../kube/api-version';
import { customDefaults, customVersion, definesKind } from './custom/crd';
import { asAdmitted } from './admitted';
import { withSeed } from './faker';
import { seedOf, type GenerateOptions } from './generate';
import { isObject, type JsonObject } from './json';
import { persist } from '../../registry/strategy/create';
import { sortedDeep } from '../../registry/shape';
import { isUnstructured } from '../../kube/unstructured';
import { cloneJson } from '../../kube/json';

export interface FromYamlOptions extends GenerateOptions {
  /** CustomResourceDefinitions whose schema defaults apply to custom resources. */
  crds?: readonly object[];
}

function parse(source: string | object): JsonObject {
  if (typeof source !== 'string') return cloneJson(source) as JsonObject;
  const documents = yaml()
    .parseAllDocuments(source)
    .filter((document) => document.contents !== null);
  const failed = documents.find((document) => document.errors.length > 0);
  if (failed) throw new HarnessError('REVIEW_INVALID', `objects.fromYaml: ${failed.errors[0]?.message ?? 'unreadable YAML'}`);
  if (documents.length !== 1) {
    throw new HarnessError(
      'REVIEW_INVALID',
      `objects.fromYaml: expected one document, found ${documents.length}`,
      'split the documents and call objects.fromYaml once per object',
    );
  }
  return documents[0]?.toJS() as JsonObject;
}

/**
 * The user's own manifest (YAML or JSON text, or an object) as kube-apiserver decodes it: the same
 * API defaults the generated objects get (schema defaults for custom resources whose CRD is given),
 * and stored when asked for.
 */
export function fromYaml(source: string | object, options: FromYamlOptions = {}): KubeObject {
  const manifest = parse(source);
  const apiVersion = isObject(manifest) ? manifest.apiVersion : undefined;
  if (!isObject(manifest) || typeof apiVersion !== 'string' || typeof manifest.kind !== 'string') {
    throw new HarnessError(
      'REVIEW_INVALID',
      'objects.fromYaml: the manifest has no apiVersion and kind',
      'give a whole Kubernetes object, e.g. apiVersion: v1, kind: ConfigMap, metadata: {name: settings}',
    );
  }
  const unstructured = isUnstructured(apiVersion);
  let object: JsonObject;
  if (unstructured) {
    const crd = options.crds?.find((candidate) => definesKind(candidate, manifest));
    object = crd ? customDefaults(manifest, customVersion(crd, splitApiVersion(apiVersion)[1]).schema) : (sortedDeep(manifest) as JsonObject);
  } else {
    object = asAdmitted(manifest, options.plugins);
  }
  if (!options.stored) return object as KubeObject;
  return withSeed(seedOf(options), (gen) => persist(object, gen, unstructured)) as KubeObject;
}
