/**
 * A webhook whose rules matched another version of a custom resource (matchPolicy Equivalent) is sent the
 * object converted to that version by the CRD's converter, as kube-apiserver's dispatchers do
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/conversion.go `ConvertToGVK`, called through
 * `VersionedAttributes` in mutating/dispatcher.go and validating/dispatcher.go): for a CRD converting through
 * a webhook that is one ConversionReview per object, and a failed conversion ends the request with a 500
 * whatever the failurePolicy. A patched object goes back to the request's version the same way. Without a
 * converter (`DispatchContext.convertObject`), or for kinds it does not convert, the matching step's
 * relabelled objects stand (lib/match/should-call.ts `convertToKind`).
 */
import type { GroupVersionKind, GroupVersionResource, KubeObject, Status } from '../kube/admission';
import type { AdmissionAttributes } from '../kube/attributes';
import { internalError } from '../kube/status';
import { convertToKind, type Invocation } from '../match/should-call';

/** What a converter answers: the object at the version asked for, a failure, or undefined when it does not convert that kind. */
export type ObjectConversionResult = { object: KubeObject } | { error: string } | undefined;

export type ObjectVersionConverter = (object: KubeObject, kind: GroupVersionKind) => Promise<ObjectConversionResult>;

/** What of the dispatch context conversion reads (DispatchContext has it). */
interface ConvertingContext {
  convertObject?: ObjectVersionConverter;
}

const sameVersion = (a: GroupVersionKind, b: GroupVersionKind): boolean => a.group === b.group && a.version === b.version && a.kind === b.kind;

type Converted = { object: KubeObject | null } | { rejection: Status };

async function converted(
  convert: ObjectVersionConverter,
  object: KubeObject | null,
  kind: GroupVersionKind,
  relabelled: KubeObject | null,
): Promise<Converted> {
  if (!object) return { object: null };
  const result = await convert(object, kind);
  if (!result) return { object: relabelled };
  // ConvertToGVK's error, returned as apierrors.NewInternalError by the dispatcher.
  if ('error' in result) return { rejection: internalError(result.error) };
  return { object: result.object };
}

/** The invocation with its object and oldObject at the matched version, or the refusal a failed conversion is. */
export async function versionedInvocation(
  invocation: Invocation,
  attributes: AdmissionAttributes,
  context: ConvertingContext,
): Promise<{ invocation: Invocation } | { rejection: Status }> {
  const convert = context.convertObject;
  if (!convert || sameVersion(invocation.kind, attributes.kind)) return { invocation };
  const object = await converted(convert, attributes.object, invocation.kind, invocation.object);
  if ('rejection' in object) return object;
  const oldObject = await converted(convert, attributes.oldObject, invocation.kind, invocation.oldObject);
  if ('rejection' in oldObject) return oldObject;
  return { invocation: { ...invocation, object: object.object, oldObject: oldObject.object } };
}

/** The kind and resource a webhook's rules matched: the request's own, or an equivalent of it (matchPolicy Equivalent). */
export interface MatchedVersion {
  kind: GroupVersionKind;
  resource: GroupVersionResource;
}

/**
 * The request as a webhook that matched `matched` is sent it, outside the dispatcher (h.call, replay of a
 * recorded call): the matching step's relabelling, then the same conversion as the dispatchers'. An object
 * already at the matched version is sent as it is.
 */
export function matchedInvocation(
  matched: MatchedVersion,
  attributes: AdmissionAttributes,
  context: ConvertingContext,
): Promise<{ invocation: Invocation } | { rejection: Status }> {
  const invocation: Invocation = {
    kind: matched.kind,
    resource: matched.resource,
    subResource: attributes.subResource,
    object: convertToKind(attributes.object, matched.kind),
    oldObject: convertToKind(attributes.oldObject, matched.kind),
  };
  return versionedInvocation(invocation, attributes, context);
}

/** A patched object back at the request's version: converted, or relabelled when the converter does not convert it. */
export async function atRequestVersion(
  patched: KubeObject,
  relabelled: KubeObject,
  invocation: Invocation,
  attributes: AdmissionAttributes,
  context: ConvertingContext,
): Promise<Converted> {
  const convert = context.convertObject;
  if (!convert || sameVersion(invocation.kind, attributes.kind)) return { object: relabelled };
  return converted(convert, patched, attributes.kind, relabelled);
}
