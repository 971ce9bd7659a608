import type { KubeObject } from '../kube/admission';
import { isRecord } from '../kube/json';
import type { DecodedConversionReview } from './decode';
import type { ConversionReviewVersion } from './review';
import { type ConversionCheck, groupVersionText, gvkText, identityChange, jsonKind, responseObjects, restoreObjectMeta } from './verify';

/** The objects of a list, as sent in one ConversionReview, and the list they came in. */
export interface SentList {
  uid: string;
  version: ConversionReviewVersion;
  /** The list's own apiVersion and kind (`WidgetList`): kube-apiserver's texts name the list's GVK. */
  list: { apiVersion: string; kind: string };
  objects: readonly KubeObject[];
  desiredAPIVersion: string;
}

export type VerifiedList = { ok: true; objects: KubeObject[] } | { ok: false; check: ConversionCheck; message: string };

/**
 * The checks webhook_converter.go's `Convert` makes of the answer for a list (its `isList` branch): the
 * response as for one object, then as many converted objects as were sent, and each one's groupVersion,
 * kind, name/namespace/UID and metadata. Kube's texts number the object by a counter it has already
 * moved past the object for every check but the decode (so a bad first object is "at index 1").
 */
export function verifyListConversion(review: DecodedConversionReview, sent: SentList): VerifiedList {
  const prefix = `conversion webhook for ${gvkText(sent.list)}`;
  const answered = responseObjects(review, sent, prefix);
  if (!answered.ok) return answered;
  const converted = answered.objects;
  if (converted.length !== sent.objects.length)
    return { ok: false, check: 'count', message: `${prefix} returned ${converted.length} objects, expected ${sent.objects.length}` };
  const objects: KubeObject[] = [];
  for (const [index, original] of sent.objects.entries()) {
    const item = converted[index];
    const at = (n: number) => `${prefix} returned invalid converted object at index ${n}`;
    if (!isRecord(item))
      return {
        ok: false,
        check: 'object-decode',
        message: `${at(index)}: json: cannot unmarshal ${jsonKind(item)} into Go value of type map[string]interface {}`,
      };
    if (typeof item.kind !== 'string' || item.kind === '')
      return { ok: false, check: 'object-decode', message: `${at(index)}: Object 'Kind' is missing in '${JSON.stringify(item)}'` };
    const counted = at(index + 1);
    if (groupVersionText(item.apiVersion) !== sent.desiredAPIVersion) {
      const message = `${counted}: invalid groupVersion (expected ${sent.desiredAPIVersion}, received ${groupVersionText(item.apiVersion)})`;
      return { ok: false, check: 'api-version', message };
    }
    if (item.kind !== original.kind)
      return { ok: false, check: 'kind', message: `${counted}: invalid kind (expected ${original.kind}, received ${item.kind})` };
    const identity = identityChange(original, item);
    if (identity) return { ok: false, check: 'identity', message: `${counted}: ${identity}` };
    const restored = restoreObjectMeta(original, item);
    if (typeof restored === 'string')
      return { ok: false, check: 'metadata', message: `${prefix} returned invalid metadata in object at index ${index + 1}: ${restored}` };
    objects.push(restored);
  }
  return { ok: true, objects };
}
