import type { KubeObject } from '../kube/admission';
import {
  conversionError,
  exchangeReview,
  type ConversionCallContext,
  type ConversionError,
  type ConversionWebhook,
  type ReviewExchange,
} from './convert-object';
import { gvkText } from './verify';
import { verifyListConversion } from './verify-list';

/** A list's objects converted in one ConversionReview: what was sent and answered, the objects kept or the error. */
export interface ListConversionOutcome extends Omit<ReviewExchange, 'decoded' | 'failure' | 'version'> {
  crd: string;
  objects: readonly KubeObject[];
  desiredAPIVersion: string;
  converted?: KubeObject[];
  error?: ConversionError;
  durationMs: number;
}

/**
 * Converts a list's objects in one ConversionReview, as webhook_converter.go's `Convert` does for an
 * UnstructuredList (kube-apiserver v1.36.2's storage sends one review per object, but the ConversionReview
 * API carries a list, and a webhook must answer every object of it, in order). `list` is the list's own
 * apiVersion and kind, which kube's texts name.
 */
export async function convertList(
  webhook: ConversionWebhook,
  list: { apiVersion: string; kind: string },
  objects: readonly KubeObject[],
  desiredAPIVersion: string,
  uid: string,
  context: ConversionCallContext,
): Promise<ListConversionOutcome> {
  const started = performance.now();
  const exchange = await exchangeReview(webhook, objects, desiredAPIVersion, uid, context, `conversion webhook for ${gvkText(list)}`);
  const { decoded, failure, version, ...sent } = exchange;
  const outcome: ListConversionOutcome = { ...sent, crd: webhook.crd, objects, desiredAPIVersion, durationMs: 0 };
  const verified = failure ?? (decoded && version ? verifyListConversion(decoded, { uid, version, list, objects, desiredAPIVersion }) : undefined);
  if (verified && 'message' in verified) outcome.error = conversionError(verified.check, verified.message);
  else if (verified?.ok) outcome.converted = verified.objects;
  outcome.durationMs = performance.now() - started;
  return outcome;
}
