import type { KubeObject } from '../kube/admission';
import { jsonEqual } from '../kube/json';
import type { ConversionError } from './convert-object';
import type { ConversionResult } from './result';

/** Anything that converts as `h.convert` does. */
export interface Converter {
  convert(objects: KubeObject | readonly KubeObject[], toVersion: string): Promise<ConversionResult>;
}

/** An object sent to another version and back again. */
export interface RoundTrip {
  /** The object at the other version, when the first conversion succeeded. */
  there?: KubeObject;
  /** The object back at its own version, when both conversions succeeded. */
  back?: KubeObject;
  /** The failure of either conversion, with kube-apiserver's text. */
  error?: ConversionError;
  /** Which leg failed. */
  failedLeg?: 'there' | 'back';
  /** True when both conversions succeeded and the object came back as it was sent. */
  equal: boolean;
}

/**
 * Converts `object` to `via` and the result back to the object's own version, as kube-apiserver does when a
 * client writes at one version what is stored at another and reads it back: a lossless conversion gives the
 * object back as it was (metadata included, since only labels and annotations can change).
 */
export async function roundTrip(converter: Converter, object: KubeObject, via: string): Promise<RoundTrip> {
  const out = await converter.convert(object, via);
  if (out.error) return { error: out.error, failedLeg: 'there', equal: false };
  const there = out.objects[0] as KubeObject;
  const home = await converter.convert(there, object.apiVersion as string);
  if (home.error) return { there, error: home.error, failedLeg: 'back', equal: false };
  const back = home.objects[0] as KubeObject;
  return { there, back, equal: jsonEqual(back, object) };
}
