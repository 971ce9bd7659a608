/**
 * What one function call is estimated to cost before it runs: k8s.io/apiserver pkg/cel/library/cost.go
 * `EstimateCallCost` for the Kubernetes libraries, else cel-go checker/cost.go `functionCost`'s rules for
 * the standard ones (the runtime counterparts are in call-cost.ts). Sizes are ranges: a string of at
 * most N characters costs up to N × 0.1 to traverse. The arguments' own costs are added by the caller.
 */
import { add, byFactor, fixed, multiply, type Range, UNKNOWN } from './estimate-range';
import { AUTHZ_ACCESSORS, AUTHZ_CHECK_COST, NOMINAL_COST, REGEX_LENGTH, STRING_TRAVERSAL } from './kube-costs';

/** A call's operand as the estimator sees it: its size range (unknown when nothing bounds it) and kind. */
export interface Operand {
  readonly size: Range | undefined;
  /** 'string', 'bytes', 'list', 'map', or undefined when not known. */
  readonly kind: string | undefined;
  /** A list's element size, when known (for join and the list library). */
  readonly elemSize?: Range | undefined;
  readonly elemKind?: string | undefined;
  /** The operand's literal value, when it is one (split's limit). */
  readonly literal?: unknown;
}

export interface CallEstimate {
  readonly cost: Range;
  readonly resultSize?: Range;
}

const sizeOf = (operand: Operand | undefined): Range => operand?.size ?? UNKNOWN;
const ONE = fixed(1);

/** `matches`, `find`, `findAll`: (length + 1) × 0.1 times the pattern's length × 0.25. */
const regexCost = (text: Operand | undefined, pattern: Operand | undefined): Range =>
  multiply(byFactor(add(sizeOf(text), ONE), STRING_TRAVERSAL), byFactor(sizeOf(pattern), REGEX_LENGTH));

const traverse = (operand: Operand | undefined, factor = STRING_TRAVERSAL): Range => byFactor(sizeOf(operand), factor);

/** library/cost.go: undefined where it gives no estimate (cel-go's rule then applies). Member calls only where kube requires a target. */
function kubernetesEstimate(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate | undefined {
  if (name === 'check') return { cost: fixed(AUTHZ_CHECK_COST) };
  if (AUTHZ_ACCESSORS.has(name) || NOMINAL_COST.has(name)) return { cost: ONE };
  const [first, second] = args;
  switch (name) {
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target) return undefined;
      if (target.kind !== 'list') return { cost: traverse(target) };
      // One per element compared, plus a traversal of each when the elements are strings or bytes.
      const textual = target.elemKind === 'string' || target.elemKind === 'bytes';
      const perElement = textual ? add(ONE, byFactor(target.elemSize ?? UNKNOWN, STRING_TRAVERSAL)) : ONE;
      return { cost: multiply(sizeOf(target), perElement) };
    }
    case 'url':
      return args.length === 1 ? { cost: traverse(first), resultSize: sizeOf(first) } : undefined;
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return target ? { cost: traverse(target), resultSize: sizeOf(target) } : undefined;
    case 'replace':
      return target && args.length >= 2 ? { cost: traverse(target, 2 * STRING_TRAVERSAL), resultSize: UNKNOWN } : undefined;
    case 'split': {
      if (!target) return undefined;
      const limit = typeof second?.literal === 'bigint' ? Number(second.literal) : sizeOf(target).max;
      return { cost: traverse(target, 2 * STRING_TRAVERSAL), resultSize: { min: 0, max: limit } };
    }
    case 'join':
      return target ? joinEstimate(target, first) : undefined;
    case 'find':
    case 'findAll':
      return target && args.length >= 1 ? { cost: regexCost(target, first), resultSize: { min: 0, max: sizeOf(target).max } } : undefined;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
      // kube's estimate reads the argument of a member call only; the global forms fall to cel-go's 1.
      return target ? { cost: traverse(first) } : undefined;
    case 'ip':
      return target ? { cost: args.length >= 1 ? traverse(first) : ONE } : undefined;
    case 'ip.isCanonical':
      return target && args.length >= 1 ? { cost: traverse(first, 2 * STRING_TRAVERSAL) } : undefined;
    default:
      return undefined;
  }
}

function joinEstimate(list: Operand, separator: Operand | undefined): CallEstimate {
  const count = sizeOf(list);
  let size: Range = list.elemSize ? multiply(count, list.elemSize) : fixed(0);
  if (separator) size = add(size, multiply(sizeOf(separator), { min: Math.max(0, count.min - 1), max: Math.max(0, count.max - 1) }));
  return { cost: byFactor(size, STRING_TRAVERSAL), resultSize: size };
}

const isText = (operand: Operand | undefined): boolean => operand?.kind === 'string' || operand?.kind === 'bytes';

/** checker/cost.go `functionCost`'s size-dependent standard overloads; everything else costs 1. */
function standardEstimate(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate {
  const [first, second] = args;
  switch (name) {
    case 'matches':
      return { cost: target ? regexCost(target, first) : regexCost(first, second) };
    case 'contains':
      return target && isText(target) ? { cost: multiply(traverse(target), traverse(first)) } : { cost: ONE };
    case 'startsWith':
    case 'endsWith':
      // cel-go charges the prefix's length here (and the receiver's at run time).
      return { cost: traverse(first) };
    case 'format':
      return target ? { cost: traverse(target), resultSize: add(sizeOf(target), sizeOf(first)) } : { cost: ONE };
    case 'bytes':
    case 'string':
      if (!target && first?.kind === (name === 'bytes' ? 'string' : 'bytes')) {
        const size = sizeOf(first);
        return {
          cost: traverse(first),
          resultSize: name === 'bytes' ? { min: size.min, max: size.max * 4 } : { min: Math.floor(size.min / 4), max: size.max },
        };
      }
      return { cost: ONE };
    case '@in':
      return second?.kind === 'list' ? { cost: sizeOf(second) } : { cost: ONE };
    case '_==_':
    case '_!=_':
      return { cost: comparisonCost(first, second) };
    case '_<_':
    case '_<=_':
    case '_>_':
    case '_>=_':
      return isText(first) || isText(second) ? { cost: comparisonCost(first, second) } : { cost: ONE };
    case '_+_': {
      if (first?.kind === 'list' || second?.kind === 'list') return { cost: ONE, resultSize: add(sizeOf(first), sizeOf(second)) };
      if (!isText(first) && !isText(second)) return { cost: ONE };
      const size = add(sizeOf(first), sizeOf(second));
      return { cost: byFactor(size, STRING_TRAVERSAL), resultSize: size };
    }
    default:
      return { cost: ONE };
  }
}

/** Equality and string ordering: a traversal of the shorter operand, at least 1 unless both are empty. */
function comparisonCost(first: Operand | undefined, second: Operand | undefined): Range {
  const smallestMax = Math.min(sizeOf(first).max, sizeOf(second).max);
  return byFactor({ min: smallestMax > 0 ? 1 : 0, max: smallestMax }, STRING_TRAVERSAL);
}

/** The estimate of calling `name` (cel-go's function name) on `target` (a member call) with `args`. */
export function estimateCall(name: string, target: Operand | undefined, args: readonly Operand[]): CallEstimate {
  return kubernetesEstimate(name, target, args) ?? standardEstimate(name, target, args);
}

/** Functions whose result has a size (string, bytes, list or map) kube's estimate does not know unless a rule above gives one. */
export const SIZED_RESULTS = new Set([
  'string',
  'bytes',
  'lowerAscii',
  'upperAscii',
  'trim',
  'substring',
  'replace',
  'split',
  'join',
  'find',
  'findAll',
  'format',
  'url',
  'keys',
  'values',
  'quote',
  'reverse',
  'charAt',
]);
