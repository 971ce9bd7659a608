import type { KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { convertToKind } from '../match/should-call';
import { patchObject } from '../patch/patch-object';
import { SeededRandom } from '../random';
import { preparedForValidation, type Registry, storageRandom } from '../registry';
import type { HarnessCallOutcome, PatchedOutcome } from './types';

/** The patched object at the request's version: converted (or relabelled), or the Status of a failed conversion. */
export type BackToRequest = (patched: KubeObject) => Promise<{ object: KubeObject | null } | { rejection: Status }>;

/**
 * What kube-apiserver would make of one call's patch, for h.call outcomes: the patched object decoded
 * and defaulted, and the API's validation of it (after BeforeCreate for a create), as the chain would
 * judge it if this webhook were the only one. Undefined when there is nothing to judge.
 */
export async function patchedOutcome(
  registry: Registry,
  outcome: HarnessCallOutcome,
  attributes: AdmissionAttributes,
  random: SeededRandom,
  toRequestVersion: BackToRequest = async (patched) => ({ object: convertToKind(patched, attributes.kind) }),
): Promise<PatchedOutcome | undefined> {
  if (outcome.error || outcome.denial || !outcome.patch || outcome.patch.length === 0) return undefined;
  const request = outcome.review.request;
  if (!request) return undefined;
  const result = patchObject(outcome.webhook, { object: request.object, kind: request.kind, registry }, outcome.patch);
  if (!result.ok) return result;
  const before = request.object && registry.default(request.kind, request.object);
  if (!result.object) return { ...result, before };
  // A webhook sent another version (h.call's `matched`) patched that version: the API converts it back to the
  // request's, as the dispatchers do (a failed conversion is the request's 500), then validates it.
  const sent = request.kind;
  const atRequest = sent.group === attributes.kind.group && sent.version === attributes.kind.version && sent.kind === attributes.kind.kind;
  const back = atRequest ? { object: result.object } : await toRequestVersion(result.object);
  if ('rejection' in back) return { ...result, before, invalid: back.rejection };
  const object = back.object;
  const prepared = preparedForValidation({ ...attributes, object }, storageRandom(new SeededRandom(random.int(2 ** 31))));
  const invalid = registry.validate(prepared);
  return invalid ? { ...result, before, invalid } : { ...result, before };
}
