import type { JsonRecord } from '../kube/record';
import type { KubeObject } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import type { PluginConfigurations } from './optional/admission-configuration';

/** What the plugins read of the cluster: its objects (LimitRanges, ResourceQuotas, Namespaces…). */
export interface PluginCluster {
  /** The objects of a kind in `namespace`, in the store's order. */
  list(apiVersion: string, kind: string, namespace: string): KubeObject[];
  /** One object by name (`namespace` '' for a cluster-scoped kind), or undefined. */
  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined;
}

/**
 * What a mutating admission plugin is told about a request (kube-apiserver's admission.Attributes as
 * the plugin sees them) and what it may use: the object to change and a source for generated names.
 */
export interface MutationRequest {
  attributes: PluginAttributes;
  /** The object as the plugin receives it (never changed in place). */
  object: JsonRecord;
  /** `length` characters of kube's generated-name alphabet (utilrand.String). */
  randomSuffix(length: number): string;
  /** The cluster's objects; plugins that read none work without it. */
  cluster?: PluginCluster;
  /** The plugins' admission configuration (`--admission-control-config-file`); kube's defaults when omitted. */
  configuration?: PluginConfigurations;
}

/**
 * One of kube-apiserver's built-in mutating admission plugins (plugin/pkg/admission/*). `admit`
 * answers the changed object, or undefined when the plugin leaves the request alone.
 */
export interface MutationPlugin {
  /** The plugin's name as `--enable-admission-plugins` spells it. */
  readonly name: string;
  admit(request: MutationRequest): JsonRecord | undefined;
}

/**
 * An object a plugin looked up and the cluster does not have, when that is why it refused: the
 * harness's hints (declare the namespace, seed the account) read it rather than the refusal's text.
 */
export interface MissingObject {
  kind: 'Namespace' | 'ServiceAccount';
  /** '' for a cluster-scoped kind. */
  namespace: string;
  name: string;
}

/** The parts of a request's attributes the plugins read. */
export type PluginAttributes = Pick<AdmissionAttributes, 'operation' | 'subResource' | 'resource'> &
  Partial<Pick<AdmissionAttributes, 'kind' | 'namespace' | 'oldObject'>>;

/** A pod create, the request most plugins act on (no subresource). */
export function isPodCreate(attributes: PluginAttributes): boolean {
  return attributes.operation === 'CREATE' && attributes.subResource === '' && attributes.resource.group === '' && attributes.resource.resource === 'pods';
}

/** A create or update of the core `resource` itself (no subresource), the request most optional plugins act on. */
export function isCoreCreateOrUpdate(attributes: PluginAttributes, resource: string): boolean {
  return (
    (attributes.operation === 'CREATE' || attributes.operation === 'UPDATE') &&
    attributes.subResource === '' &&
    attributes.resource.group === '' &&
    attributes.resource.resource === resource
  );
}
