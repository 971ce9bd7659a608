import { AUTHZ_ACCESSORS, AUTHZ_CHECK_COST, NOMINAL_COST, REGEX_LENGTH, STRING_TRAVERSAL } from './kube-costs';
import { actualSize, traversalCost } from './value-size';

/**
 * What one function call costs at run time: k8s.io/apiserver pkg/cel/library/cost.go `CallCost` for the
 * Kubernetes libraries, else cel-go interpreter/runtimecost.go `costCall` for the standard ones (a
 * traversal of strings at 0.1 per character, a regex at 0.25 per character of its pattern, 1 for the
 * rest). Hand-written: the numbers are kube's, and no package carries them for JavaScript.
 */

const ceilSize = (value: unknown, factor = STRING_TRAVERSAL): number => Math.ceil(actualSize(value) * factor);

/** `matches` and the regex library's `find`: the string (plus one, so an empty one still costs) times the pattern. */
const regexCost = (text: unknown, pattern: unknown): number =>
  Math.ceil((1 + actualSize(text)) * STRING_TRAVERSAL) * Math.ceil(actualSize(pattern) * REGEX_LENGTH);

/** library/cost.go `CallCost`: undefined where it has no estimate and cel-go's default applies. */
function kubernetesCallCost(name: string, args: readonly unknown[], result: unknown): number | undefined {
  if (name === 'check') return AUTHZ_CHECK_COST;
  if (AUTHZ_ACCESSORS.has(name) || NOMINAL_COST.has(name)) return 1;
  const [first, second] = args;
  switch (name) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf':
      return args.length > 0 ? traversalCost(first) : 0;
    case 'url':
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
      return args.length > 0 ? ceilSize(first) : undefined;
    case 'replace':
    case 'split':
      return args.length > 0 ? ceilSize(first, 2 * STRING_TRAVERSAL) : undefined;
    case 'join':
      return args.length > 0 ? ceilSize(result, 2 * STRING_TRAVERSAL) : undefined;
    case 'find':
    case 'findAll':
      return args.length >= 2 ? regexCost(first, second) : undefined;
    case 'ip':
      // The IP of a CIDR is a field read; parsing a string is a traversal.
      return typeof first === 'string' ? ceilSize(first) : 1;
    case 'ip.isCanonical':
      return args.length > 0 ? ceilSize(first, 2 * STRING_TRAVERSAL) : undefined;
    case 'containsIP':
    case 'containsCIDR': {
      // A CIDR has no size (1); a string argument is parsed first.
      const compare = Math.ceil(actualSize(first) * 2 * STRING_TRAVERSAL) + (name === 'containsCIDR' ? ceilSize(first) + 1 : 0);
      return compare + (typeof second === 'string' ? ceilSize(second) : 0);
    }
    default:
      return undefined;
  }
}

const isText = (value: unknown): boolean => typeof value === 'string' || value instanceof Uint8Array;

/** runtimecost.go `costCall`'s defaults for the standard library's overloads. */
function standardCallCost(name: string, args: readonly unknown[]): number {
  const [first, second] = args;
  switch (name) {
    case 'startsWith':
    case 'endsWith':
      return ceilSize(first);
    case 'bytes':
    case 'string':
      // Only string↔bytes conversions traverse; the others are O(1).
      return (name === 'bytes' && typeof first === 'string') || (name === 'string' && first instanceof Uint8Array) ? ceilSize(first) : 1;
    case '@in':
      return Array.isArray(second) ? actualSize(second) : 1;
    case '_==_':
    case '_!=_':
      return Math.ceil(Math.min(actualSize(first), actualSize(second)) * STRING_TRAVERSAL);
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return isText(first) && isText(second) ? Math.ceil(Math.min(actualSize(first), actualSize(second)) * STRING_TRAVERSAL) : 1;
    case '_+_':
      return isText(first) && isText(second) ? Math.ceil((actualSize(first) + actualSize(second)) * STRING_TRAVERSAL) : 1;
    case 'matches':
      return regexCost(first, second);
    case 'contains':
      return isText(first) ? ceilSize(first) * ceilSize(second) : 1;
    default:
      return 1;
  }
}

/**
 * The cost of calling `name` (cel-go's function name: `_==_`, `@in`, `matches`…) with these argument
 * values, the receiver first for a method call.
 */
export function callCost(name: string, args: readonly unknown[], result: unknown): number {
  return kubernetesCallCost(name, args, result) ?? standardCallCost(name, args);
}
