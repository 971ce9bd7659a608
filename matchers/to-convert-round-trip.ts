import type { KubeObject } from '../lib/kube/admission';
import { roundTrip, type Converter } from '../lib/conversion/round-trip';
import type { MatcherContext, MatcherResult } from './context';
import { inconclusive } from './context';
import { changesSection, report } from '../lib/outcome/describe';
import { diffJson } from '../lib/diff/json-diff';

function asConverter(received: unknown): Converter {
  if (typeof (received as Partial<Converter> | null)?.convert !== 'function') {
    throw new TypeError('toConvertRoundTrip expects a harness (createHarness({ manifests: [crd], target })) as the received value');
  }
  return received as Converter;
}

/**
 * Converts `object` to `via` through the CRD's conversion webhook and back to its own version, and passes
 * when it comes back as it was sent (v1→v2→v1 gives back the object). Async:
 * `await expect(h).toConvertRoundTrip(widget, 'v2')`.
 */
export async function toConvertRoundTrip(this: MatcherContext, received: unknown, object: KubeObject, via: string): Promise<MatcherResult> {
  const converter = asConverter(received);
  if (typeof object?.apiVersion !== 'string')
    throw new TypeError('toConvertRoundTrip expects a custom resource with apiVersion and kind as its first argument');
  const hint = this.utils.matcherHint('toConvertRoundTrip', 'harness', 'object, via', { isNot: this.isNot });
  const trip = await roundTrip(converter, object, via);
  const legs = `${object.apiVersion} → ${via} → ${object.apiVersion}`;
  if (trip.error) {
    const leg = trip.failedLeg === 'there' ? `to ${via}` : `back to ${object.apiVersion}`;
    return inconclusive(this, () => report(hint, `the conversion ${leg} failed (${legs}):\n  ${trip.error?.message}`, `Hint: ${trip.error?.hint}`));
  }
  const pass = trip.equal;
  return {
    pass,
    message: () =>
      pass
        ? report(hint, `expected the round trip ${legs} to change the object, but it came back as sent`)
        : report(
            hint,
            `expected the round trip ${legs} to give back the object, but:`,
            changesSection('Changes (sent → back)', diffJson(object, trip.back)),
            `At ${via}:\n  ${JSON.stringify(trip.there)}`,
          ),
  };
}
