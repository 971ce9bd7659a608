import type { Environment } from '@marcbachmann/cel-js';
import { registerCidr } from './cidr';
import { registerComprehensions } from './comprehensions';
import { registerFormat } from './format';
import { registerIp } from './ip';
import { registerLists } from './lists';
import { registerOptionals } from './optionals';
import { registerQuantity } from './quantity';
import { registerRegex } from './regex';
import { registerSemver } from './semver';
import { registerSets } from './sets';
import { registerStrings } from './strings';
import { registerUrls } from './urls';

export { literalRegexErrors } from './regex';
export { goRegexpError } from './go-regexp';
export { CelQuantity, QUANTITY_TYPE } from './quantity';
export { CelUrl, URL_TYPE } from './urls';

/**
 * Registers the Kubernetes CEL libraries (k8s.io/apiserver/pkg/cel/library: regex, urls, quantity, sets,
 * ip, cidr, semver, format) and the cel-go extensions kube-apiserver enables (pkg/cel/environment/base.go:
 * strings v2, lists v3, two-variable comprehensions) that cel-js lacks; nothing base.go does not enable (no ext.Math,
 * ext.Encoders or ext.Bindings). `jsonpatch.escapeKey` is the mutating policies' own (lib/policy/mutating). Needs the CEL library loaded
 * (`await loadCel()`), and an environment built with `enableOptionalTypes` as kube's is.
 */
export function registerKubernetesLibraries(env: Environment): void {
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  registerSets(env);
  registerStrings(env);
  // cidr's functions take and return net.IP: ip first.
  registerIp(env);
  registerCidr(env);
  registerSemver(env);
  registerFormat(env);
  registerLists(env);
  registerOptionals(env);
  registerComprehensions(env);
}
