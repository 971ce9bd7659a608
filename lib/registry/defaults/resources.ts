import { isRecord as isObject } from '../../kube/json';
import type { JsonRecord } from '../../kube/record';
import { canonicalQuantity, quantityFromJson, type Quantity } from '../../kube/quantity';
import { at, shape, sortedMap } from '../shape';

const MILLI = -3;

/** `m / 10^digits`, rounded away from zero. */
function divideAwayFromZero(mantissa: bigint, digits: number): bigint {
  const divisor = 10n ** BigInt(digits);
  const quotient = mantissa / divisor; // truncates toward zero
  if (quotient * divisor === mantissa) return quotient;
  return mantissa < 0n ? quotient - 1n : quotient + 1n;
}

/**
 * Quantity.RoundUp(-3), as SetDefaults_ResourceList calls it: a value with digits below milli is
 * rounded away from zero to a whole number of milli units and forgets the text it was parsed from;
 * a value already at milli precision or coarser is left alone (text included).
 */
function roundUpToMilli(q: Quantity): Quantity {
  if (q.exponent >= MILLI) return q;
  return { mantissa: divideAwayFromZero(q.mantissa, MILLI - q.exponent), exponent: MILLI, format: q.format };
}

/**
 * A Quantity field as kube-apiserver writes it back: parsed (resource.Quantity.UnmarshalJSON) and
 * re-serialised in canonical form (Quantity.MarshalJSON → String): `"0.5"` → `"500m"`, `"1024Mi"` →
 * `"1Gi"`. A value that does not parse is left as it is (decoding would have refused it).
 */
export function quantityValue(value: unknown, roundToMilli = false): unknown {
  // null is the zero Quantity (UnmarshalJSON is called with it for a non-pointer Quantity).
  const parsed = quantityFromJson(value);
  if (parsed === undefined) return value;
  return canonicalQuantity(roundToMilli ? roundUpToMilli(parsed) : parsed);
}

/** A ResourceList (a Go map of Quantities): sorted keys, each value rounded up to milli and canonical (SetDefaults_ResourceList). */
export function resourceList(list: JsonRecord): JsonRecord {
  let changed = false;
  const entries = Object.entries(list).map(([key, value]) => {
    const canonical = quantityValue(value, true);
    if (canonical !== value) changed = true;
    return [key, canonical] as const;
  });
  return sortedMap(changed ? Object.fromEntries(entries) : list);
}

/** A ResourceRequirements whose limits and requests get SetDefaults_ResourceList, in field order. */
export function resourceRequirements(requirements: JsonRecord): JsonRecord {
  const withLists = at(at(requirements, 'limits', resourceList), 'requests', resourceList);
  return shape(withLists, ['limits', 'requests', 'claims']);
}

/** `object[key]`, a single Quantity, in canonical form when present (no rounding: not a ResourceList). */
export function quantityAt(object: JsonRecord, key: string): JsonRecord {
  if (!(key in object) || object[key] === null || isObject(object[key])) return object;
  const canonical = quantityValue(object[key]);
  return canonical === object[key] ? object : { ...object, [key]: canonical };
}
