/**
 * The mock API's writes through an admission chain, as kube-apiserver's REST handlers run admission
 * (k8s.io/apiserver/pkg/endpoints/handlers/create.go `createHandler`, update.go `UpdateResource`,
 * patch.go `patchResource`, delete.go `DeleteResource`): the request's attributes are built from the write
 * (lib/mockapi/writes/admission-attributes.ts, admission-subresources.ts; a deletecollection admits each
 * item, admission-collection.ts), the chain's mutated object is what storage keeps, and a refusal is
 * answered with the chain's Status.
 */
import type { KubeObject, Status } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { ApiError, internalError } from '../../kube/status';
import { requestLine } from '../../review/review';
import type { RestAnswer, RestCall } from '../rest';
import { objectWriteAttributes, requestFieldValidation, type ServeCall } from './admission-attributes';
import type { FieldValidation } from './field-validation';
import { serveAdmittedCollectionDelete } from './admission-collection';
import { isAdmittedSubresourceWrite, subresourceWriteAttributes } from './admission-subresources';

export type { ServeCall } from './admission-attributes';

/** Admits one write's attributes: the object storage is to keep, or the refusal the client gets. */
export type WriteAdmitter = (
  attributes: AdmissionAttributes,
) => Promise<{ object: KubeObject | null; rejection?: Status /** `Warning` header values, as the client receives them. */; warnings?: readonly string[] }>;

/**
 * How many admissions of one object may be in flight at once before the mock API refuses the next: a webhook
 * that writes the object it is admitting is admitted again, which writes it again, without end. kube-apiserver
 * runs the same recursion until the outermost webhook call times out (its `timeoutSeconds`); the mock API
 * stops it at this depth, deterministically, instead of waiting on the clock.
 */
export const ADMISSION_NESTING_LIMIT = 8;

/** The objects whose writes are being admitted, counted by key, to stop a webhook's write loop. */
export class AdmissionsInFlight {
  readonly #counts = new Map<string, number>();

  async run<T>(attributes: AdmissionAttributes, fn: () => Promise<T>): Promise<T> {
    const { resource, namespace, name } = attributes;
    const key = JSON.stringify([resource.group, resource.resource, namespace, name]);
    const count = this.#counts.get(key) ?? 0;
    if (count >= ADMISSION_NESTING_LIMIT) {
      throw new ApiError(
        internalError(
          `admission of ${requestLine(attributes)} is nested ${count} deep: a webhook that writes the object it is admitting is admitted again without end (kube-apiserver would wait for the webhook's timeoutSeconds)`,
        ),
      );
    }
    this.#counts.set(key, count + 1);
    try {
      return await fn();
    } finally {
      if (count === 0) this.#counts.delete(key);
      else this.#counts.set(key, count);
    }
  }
}

const OBJECT_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/**
 * Whether this call is one admission sees here: a write of an object at its main resource (not a review), of
 * its status, of a workload's scale, or a pod's binding or eviction. Other subresources the mock API does
 * not serve: kube-apiserver answers a path it does not serve before admission.
 */
export function isAdmittedWrite(call: RestCall): boolean {
  const { subresource, entry } = call.route;
  if (subresource === 'status') return call.verb === 'update' || call.verb === 'patch';
  if (subresource) return isAdmittedSubresourceWrite(call);
  return OBJECT_VERBS.has(call.verb) && !entry.resource.endsWith('reviews');
}

/** The attributes of a write, or undefined when it fails before admission (the downstream answers it). */
function attributesOf(call: RestCall, serve: ServeCall, validation: FieldValidation | undefined): Promise<AdmissionAttributes | undefined> {
  const { subresource } = call.route;
  return subresource && subresource !== 'status' ? subresourceWriteAttributes(call, serve) : objectWriteAttributes(call, serve, validation);
}

/**
 * Serves a write through admission: refused, the client gets the chain's Status with its code; admitted
 * unchanged, the request is served as it came; mutated, the mutated object is what is written: a CREATE
 * (a create, an apply that creates, a binding or eviction) is served as a create of it, an UPDATE (an
 * update or patch, of the object, its status or its scale) as an update of it. `serve` is the downstream:
 * the REST semantics, or the conversion layer for a version a CRD's webhook converts.
 */
export async function serveAdmitted(call: RestCall, serve: ServeCall, admit: WriteAdmitter, inFlight: AdmissionsInFlight): Promise<RestAnswer> {
  const admitOne = async (attributes: AdmissionAttributes): Promise<{ object: KubeObject | null; rejection?: RestAnswer; warnings: readonly string[] }> => {
    const { object, rejection, warnings = [] } = await inFlight.run(attributes, () => admit(attributes));
    return { object, warnings, ...(rejection ? { rejection: { code: rejection.code ?? 500, body: rejection } } : {}) };
  };
  if (call.verb === 'deletecollection') return serveAdmittedCollectionDelete(call, serve, admitOne);
  const validation = requestFieldValidation(call);
  const attributes = await attributesOf(call, serve, validation);
  if (!attributes) return serve(call);
  const result = await admitOne(attributes);
  // The chain's warnings reach the client whatever the outcome (k8s.io/apiserver/pkg/endpoints/filters/warning.go),
  // after those the request's decode gave (unknown fields under fieldValidation=Warn), which come first in kube.
  const warned = (answer: RestAnswer, decoded = answer.warnings ?? []): RestAnswer => {
    const warnings = [...new Set([...decoded, ...result.warnings])];
    return warnings.length ? { ...answer, warnings } : answer;
  };
  if (result.rejection) return warned(result.rejection, validation?.warnings.headers ?? []);
  const mutated = result.object;
  if (attributes.operation === 'DELETE' || !mutated || JSON.stringify(mutated) === JSON.stringify(attributes.object)) return warned(await serve(call));
  const verb = attributes.operation === 'CREATE' ? 'create' : 'update';
  // The mutated object was decoded already: the warnings about the request's own unknown fields are its body's.
  // (A patch's, which come from the patched object, are not repeated here.)
  const { yamlRepeatedKeys: _sentKeys, ...sent } = call;
  return warned(await serve({ ...sent, verb, body: JSON.stringify(mutated), contentType: 'application/json' }), validation?.warnings.headers ?? []);
}
