import type { Status } from '../kube/admission';
import type { JsonRecord } from '../kube/record';
import { admissionForbidden } from '../kube/status';
import type { MissingObject, MutationPlugin, MutationRequest, PluginAttributes } from './plugin';

/**
 * What a mutating plugin that may refuse decides: the changed object (absent when it leaves the
 * request alone), or kube's refusal (the Status its `Admit` error becomes).
 */
export interface MutationDecision {
  object?: JsonRecord;
  refusal?: Status;
  /** With a refusal: the object the plugin looked up and the cluster lacks, when that is the cause. */
  missing?: MissingObject;
}

/**
 * A built-in mutating plugin whose `Admit` can return an error (Priority, RuntimeClass:
 * `admission.NewForbidden(a, err)`). `MutationPlugin.admit` can only answer an object, so the refusal
 * comes from `decide`; `admit` answers the change alone (undefined when refused), so the plugin still
 * fits MUTATION_PLUGINS where a runner that knows no refusals is used.
 */
export interface RefusingMutationPlugin extends MutationPlugin {
  decide(request: MutationRequest): MutationDecision;
}

export function refusingPlugin(name: string, decide: (request: MutationRequest) => MutationDecision): RefusingMutationPlugin {
  return {
    name,
    decide,
    admit(request) {
      const decision = decide(request);
      return decision.refusal ? undefined : decision.object;
    },
  };
}

/** Whether `plugin` can refuse (has `decide`). */
export function isRefusingPlugin(plugin: MutationPlugin): plugin is RefusingMutationPlugin {
  return typeof (plugin as Partial<RefusingMutationPlugin>).decide === 'function';
}

/**
 * admission.NewForbidden(a, err) from a plugin: the request's name when the attributes carry one (the
 * dispatcher passes kube's full attributes), else the object's name or generateName.
 */
export function pluginForbidden(attributes: PluginAttributes, object: JsonRecord | null, cause: string): Status {
  const name = (attributes as { name?: unknown }).name;
  return admissionForbidden(
    {
      name: typeof name === 'string' ? name : '',
      resource: attributes.resource,
      object: object as { metadata?: { name?: string; generateName?: string } } | null,
    },
    cause,
  );
}

/** Whether the request is `operation` on the main resource (no subresource) `group`/`resource`. */
export function isRequestFor(attributes: PluginAttributes, operation: string, group: string, resource: string): boolean {
  return (
    attributes.operation === operation && attributes.subResource === '' && attributes.resource.group === group && attributes.resource.resource === resource
  );
}
