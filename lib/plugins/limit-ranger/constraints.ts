/**
 * The three checks a LimitRange item makes of one set of requests and limits, with kube's messages.
 *
 * Upstream: `plugin/pkg/admission/limitranger/admission.go` (requestLimitEnforcedValues, minConstraint,
 * maxRequestConstraint, maxConstraint, limitRequestRatioConstraint). Values are compared as Go does:
 * rounded up to whole milli-units (whole units when one of them is too large for that), and the ratio
 * in float64, printed with `%f`.
 */
import { goFormatFixed } from '../../cel/libraries/go-format';
import { canonicalQuantity, type Quantity } from '../../kube/quantity';
import { MAX_MILLI_VALUE, scaledValue } from '../resource-quota/quantity-arithmetic';
import type { ResourceList } from '../resource-quota/resource-list';

const ZERO: Quantity = { mantissa: 0n, exponent: 0, format: 'DecimalSI' };

/** requestLimitEnforcedValues: the three at a common precision (an absent one is zero). */
function comparable(request: Quantity | undefined, limit: Quantity | undefined, enforced: Quantity): [bigint, bigint, bigint] {
  const values = [request ?? ZERO, limit ?? ZERO, enforced];
  const units = values.map((q) => scaledValue(q, 0));
  if (units.every((v) => v <= MAX_MILLI_VALUE)) return values.map((q) => scaledValue(q, -3)) as [bigint, bigint, bigint];
  return units as [bigint, bigint, bigint];
}

const show = canonicalQuantity;

/** minConstraint: a request is required, and neither it nor a limit may be below the minimum. */
export function minConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const [observedRequest, observedLimit, minimum] = comparable(request, limit, enforced);
  if (request === undefined) return `minimum ${name} usage per ${limitType} is ${show(enforced)}.  No request is specified`;
  if (observedRequest < minimum) return `minimum ${name} usage per ${limitType} is ${show(enforced)}, but request is ${show(request)}`;
  if (limit !== undefined && observedLimit < minimum) return `minimum ${name} usage per ${limitType} is ${show(enforced)}, but limit is ${show(limit)}`;
  return undefined;
}

/** maxRequestConstraint: for claims, whose limits are not user input, the request is held to the maximum. */
export function maxRequestConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList): string | undefined {
  const request = requests.get(name);
  const [observedRequest, , maximum] = comparable(request, undefined, enforced);
  if (request === undefined) return `maximum ${name} usage per ${limitType} is ${show(enforced)}.  No request is specified`;
  if (observedRequest > maximum) return `maximum ${name} usage per ${limitType} is ${show(enforced)}, but request is ${show(request)}`;
  return undefined;
}

/** maxConstraint: a limit is required, and neither it nor a request may exceed the maximum. */
export function maxConstraint(limitType: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const [observedRequest, observedLimit, maximum] = comparable(request, limit, enforced);
  if (limit === undefined) return `maximum ${name} usage per ${limitType} is ${show(enforced)}.  No limit is specified`;
  if (observedLimit > maximum) return `maximum ${name} usage per ${limitType} is ${show(enforced)}, but limit is ${show(limit)}`;
  if (request !== undefined && observedRequest > maximum) return `maximum ${name} usage per ${limitType} is ${show(enforced)}, but request is ${show(request)}`;
  return undefined;
}

/** limitRequestRatioConstraint: limit ÷ request may not exceed the ratio; both must be there and non-zero. */
export function limitRequestRatioConstraint(
  limitType: string,
  name: string,
  enforced: Quantity,
  requests: ResourceList,
  limits: ResourceList,
): string | undefined {
  const request = requests.get(name);
  const limit = limits.get(name);
  const [observedRequest, observedLimit] = comparable(request, limit, enforced);
  const prefix = `${name} max limit to request ratio per ${limitType} is ${show(enforced)}`;
  if (request === undefined || observedRequest === 0n) return `${prefix}, but no request is specified or request is 0`;
  if (limit === undefined || observedLimit === 0n) return `${prefix}, but no limit is specified or limit is 0`;
  // float64 arithmetic, as upstream: int64 → float64 rounds to nearest, as Number(bigint) does.
  const ratio = Number(observedLimit) / Number(observedRequest);
  let observed = ratio;
  let maximum = Number(scaledValue(enforced, 0));
  if (scaledValue(enforced, 0) <= MAX_MILLI_VALUE) {
    observed = ratio * 1000;
    maximum = Number(scaledValue(enforced, -3));
  }
  if (observed > maximum) return `${prefix}, but provided ratio is ${goFormatFixed(ratio, 6)}`;
  return undefined;
}
