/**
 * The numbers and names both cost models read (runtime: call-cost.ts, node-cost.ts; static: estimate*.ts):
 * cel-go common/cost.go's factors and k8s.io/apiserver pkg/cel/library/cost.go's fixed costs.
 */

/** `StringTraversalCostFactor`: a character read costs 0.1. */
export const STRING_TRAVERSAL = 0.1;

/** `RegexStringLengthCostFactor`: a regex pattern costs 0.25 a character. */
export const REGEX_LENGTH = 0.25;

/** An authorization check (`check()`): set so that two fit in one expression's limit. */
export const AUTHZ_CHECK_COST = 350_000;

/** The authorizer's builder and accessor functions: 1 each. */
export const AUTHZ_ACCESSORS: ReadonlySet<string> = new Set([
  'serviceAccount',
  'path',
  'group',
  'resource',
  'subresource',
  'namespace',
  'name',
  'allowed',
  'reason',
  'error',
  'errored',
]);

/** Kubernetes library functions of nominal cost (1): accessors of IPs, CIDRs, URLs and quantities. */
export const NOMINAL_COST: ReadonlySet<string> = new Set([
  'format.named',
  'sign',
  'asInteger',
  'isInteger',
  'asApproximateFloat',
  'isGreaterThan',
  'isLessThan',
  'compareTo',
  'add',
  'sub',
  'getScheme',
  'getHostname',
  'getHost',
  'getPort',
  'getEscapedPath',
  'getQuery',
  'masked',
  'prefixLength',
  'family',
  'isUnspecified',
  'isLoopback',
  'isLinkLocalMulticast',
  'isLinkLocalUnicast',
  'isGlobalUnicast',
]);

/** cel-js's operator nodes by cel-go's function names. */
export const OPERATOR_FUNCTIONS: Readonly<Record<string, string>> = {
  '==': '_==_',
  '!=': '_!=_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  in: '@in',
  '!_': '!_',
  '-_': '-_',
};
