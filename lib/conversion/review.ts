import { goMap, goMarshal } from '../go/json-marshal';
import type { KubeObject } from '../kube/admission';
import { isRecord } from '../kube/json';

/** The ConversionReview versions kube-apiserver speaks, in the order it looks for them. */
export type ConversionReviewVersion = 'v1' | 'v1beta1';

/** A ConversionReview as sent to a webhook (apiextensions.k8s.io/v1 and v1beta1 have the same shape). */
export interface ConversionReview {
  kind: 'ConversionReview';
  apiVersion: `apiextensions.k8s.io/${ConversionReviewVersion}`;
  request: { uid: string; desiredAPIVersion: string; objects: KubeObject[] };
  /** kube-apiserver sends an empty response member too: `{uid: "", convertedObjects: null, result: {metadata: {}}}`. */
  response: { uid: string; convertedObjects: null; result: { metadata: Record<string, never> } };
}

/**
 * The first version of `conversionReviewVersions` kube-apiserver knows, as webhook_converter.go's
 * `createConversionReviewObjects` picks it: the list's order decides, not kube's preference.
 */
export function negotiateReviewVersion(conversionReviewVersions: readonly string[]): ConversionReviewVersion | undefined {
  return conversionReviewVersions.find((v): v is ConversionReviewVersion => v === 'v1' || v === 'v1beta1');
}

/** The review for one object (kube-apiserver sends one per object, whatever the request), or for a list's objects. */
export function conversionReview(
  version: ConversionReviewVersion,
  uid: string,
  desiredAPIVersion: string,
  objects: KubeObject | readonly KubeObject[],
): ConversionReview {
  return {
    kind: 'ConversionReview',
    apiVersion: `apiextensions.k8s.io/${version}`,
    request: { uid, desiredAPIVersion, objects: Array.isArray(objects) ? [...(objects as readonly KubeObject[])] : [objects as KubeObject] },
    response: { uid: '', convertedObjects: null, result: { metadata: {} } },
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A decoded object as Go's unstructured encoder writes it: every map's keys sorted. */
function sorted(value: Json): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (isRecord(value)) return goMap(Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sorted(item as Json)])));
  return value;
}

/**
 * The body kube-apiserver POSTs, byte for byte: the review's struct fields in declaration order, the
 * objects as unstructured maps (keys sorted), Go's HTML-safe escaping, and the newline json.Encoder ends with.
 */
export function conversionReviewBody(review: ConversionReview): string {
  const { request } = review;
  const body = {
    kind: review.kind,
    apiVersion: review.apiVersion,
    request: { uid: request.uid, desiredAPIVersion: request.desiredAPIVersion, objects: request.objects.map((object) => sorted(object as unknown as Json)) },
    response: review.response,
  };
  return `${goMarshal(body as unknown as Json)}\n`;
}
