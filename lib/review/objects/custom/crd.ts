import { HarnessError } from '../../../errors';
import type { KubeObject } from '../../../kube/admission';
import { customResourceDefinitionResources } from '../../../kube/catalog/crd';
import { withSeed, type Gen } from '../faker';
import { seedOf, type GenerateOptions, type Shortcuts } from '../generate';
import { isObject, listAt, objectAt, stringAt, type JsonObject } from '../json';
import { deepMerge } from '../merge';
import { dnsLabel, withSuffix } from '../names';
import { persist } from '../../../registry/strategy/create';
import { sortedDeep } from '../../../registry/shape';
import { applySchemaDefaults, asSchema, valueFor, type Schema } from './schema';

export interface CustomResourceOptions extends GenerateOptions {
  /** The version to generate; the CRD's storage version by default. */
  version?: string;
}

/** What a CRD says about one served version: its identity, schema and the scale subresource's replicas path. */
export interface CustomVersion {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  schema: Schema;
  specReplicasPath?: string;
}

/** The served `version` of `crd` (validated like the catalog validates it), or its storage version. */
export function customVersion(crd: unknown, version?: string): CustomVersion {
  const { resources } = customResourceDefinitionResources(crd);
  const versions = isObject(crd) ? listAt(objectAt(crd, 'spec'), 'versions') : [];
  const chosen = version ?? stringAt(versions.find((v) => v.storage === true) ?? {}, 'name');
  const served = resources.find((r) => r.version === chosen);
  const entry = versions.find((v) => v.name === chosen);
  if (!served || !entry) {
    throw new HarnessError(
      'REVIEW_INVALID',
      `the CustomResourceDefinition serves no version ${JSON.stringify(chosen)}`,
      `served versions: ${resources.map((r) => r.version).join(', ')}`,
    );
  }
  const scale = objectAt(objectAt(entry, 'subresources'), 'scale');
  const specReplicasPath = stringAt(scale, 'specReplicasPath');
  return {
    group: served.group,
    version: served.version,
    kind: served.kind,
    namespaced: served.namespaced,
    schema: asSchema(objectAt(entry, 'schema').openAPIV3Schema),
    ...(specReplicasPath ? { specReplicasPath } : {}),
  };
}

/** Sets a `.a.b` path (the form scale subresource paths take) unless something is already there. */
function ensurePath(object: JsonObject, path: string, value: unknown): JsonObject {
  const [head, ...rest] = path.replace(/^\./, '').split('.');
  if (!head) return object;
  if (rest.length === 0) return head in object ? object : { ...object, [head]: value };
  return { ...object, [head]: ensurePath(objectAt(object, head), rest.join('.'), value) };
}

/** The members of a custom resource the schema describes, status excluded (clients do not write it). */
function body(gen: Gen, version: CustomVersion): JsonObject {
  const result: JsonObject = {};
  const properties = version.schema.properties ?? {};
  for (const [key, property] of Object.entries(properties)) {
    if (['apiVersion', 'kind', 'metadata', 'status'].includes(key)) continue;
    const value = valueFor(gen, property, key);
    if (value !== undefined) result[key] = value;
  }
  if (!('spec' in properties) && version.schema['x-kubernetes-preserve-unknown-fields']) result.spec = {};
  return version.specReplicasPath ? ensurePath(result, version.specReplicasPath, gen.int(1, 5)) : result;
}

/** A custom resource as the apiserver decodes it: schema defaults applied, members sorted (it is unstructured). */
export function customDefaults(object: JsonObject, schema: Schema): JsonObject {
  return sortedDeep(applySchemaDefaults(object, schema)) as JsonObject;
}

/**
 * A custom resource of `crd` (an apiextensions.k8s.io/v1 CustomResourceDefinition): required members
 * filled by type, enum, format and bounds, optional ones at random, defaults applied.
 */
export function customResource(crd: object, input: Shortcuts & JsonObject = {}, options: CustomResourceOptions = {}): KubeObject {
  const version = customVersion(crd, options.version);
  const { name, namespace, labels, annotations, ...overrides } = input;
  return withSeed(seedOf(options), (gen) => {
    const metadata: JsonObject = {
      name: name ?? withSuffix(dnsLabel(gen.faker.word.noun(), 30), gen.suffix(5)),
      ...(version.namespaced ? { namespace: namespace ?? 'default' } : {}),
      ...(labels ? { labels } : {}),
      ...(annotations ? { annotations } : {}),
    };
    const manifest = { apiVersion: `${version.group}/${version.version}`, kind: version.kind, metadata, ...body(gen, version) };
    const object = customDefaults(deepMerge(manifest, overrides), version.schema);
    return (options.stored ? persist(object, gen, true) : object) as KubeObject;
  });
}

/** Whether `crd` defines the kind of `object`. */
export function definesKind(crd: unknown, object: JsonObject): boolean {
  if (!isObject(crd)) return false;
  const spec = objectAt(crd, 'spec');
  const [group] = String(object.apiVersion).split('/');
  return spec.group === group && objectAt(spec, 'names').kind === object.kind;
}
