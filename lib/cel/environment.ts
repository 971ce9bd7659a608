import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthorizer } from './authz';
import { registerLibrary } from './library';
import { celGoFunctionNames } from './libraries/namespace';
import { celModule } from './runtime';

export interface MatchConditionsEnvironment {
  env: Environment;
  /** Every function and macro name, to tell an unknown function from a known one called wrongly. */
  functions: ReadonlySet<string>;
}

let cached: MatchConditionsEnvironment | undefined;
const policyCache = new Map<string, MatchConditionsEnvironment>();

/** Which optional variables a policy expression may read (plugin/cel `OptionalVariableDeclarations`). */
export interface PolicyVariables {
  /** `params`: the policy has a paramKind. */
  params: boolean;
  /** `authorizer`: every policy expression but messageExpression. */
  authorizer: boolean;
}

/**
 * The environment kube-apiserver compiles webhook matchConditions in: the variables of
 * k8s.io/apiserver/pkg/admission/plugin/cel/compile.go with HasAuthorizer and without params
 * (WH/accessors.go), on the base environment's options (pkg/cel/environment/base.go): homogeneous
 * aggregate literals, optional types, cross-type numeric comparisons (cel-js's defaults or options).
 */
export function matchConditionsEnvironment(): MatchConditionsEnvironment {
  if (cached) return cached;
  const { Environment } = celModule();
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerRequestType(env);
  registerAuthorizer(env);
  registerLibrary(env);
  env.registerVariable('object', 'dyn').registerVariable('oldObject', 'dyn').registerVariable('request', 'kubernetes.AdmissionRequest');
  cached = { env, functions: celGoFunctionNames(env) };
  return cached;
}

/**
 * The environment ValidatingAdmissionPolicy expressions compile in (apiserver
 * pkg/admission/plugin/cel/compile.go `createEnvForOpts`, composition.go): the matchConditions
 * variables plus `namespaceObject`, `variables`, and `params` and `authorizer` when declared. kube
 * types `object`, `params`, `namespaceObject` and `variables` from the schemas; here they are `dyn`, so
 * a misspelt field fails when the expression runs rather than when the policy is created.
 */
export function policyEnvironment(declared: PolicyVariables): MatchConditionsEnvironment {
  const key = `${declared.params}/${declared.authorizer}`;
  const known = policyCache.get(key);
  if (known) return known;
  const { Environment } = celModule();
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true });
  registerRequestType(env);
  if (declared.authorizer) registerAuthorizer(env);
  registerLibrary(env);
  env.registerVariable('object', 'dyn').registerVariable('oldObject', 'dyn').registerVariable('request', 'kubernetes.AdmissionRequest');
  env.registerVariable('namespaceObject', 'dyn').registerVariable('variables', 'dyn');
  if (declared.params) env.registerVariable('params', 'dyn');
  const built = { env, functions: celGoFunctionNames(env) };
  policyCache.set(key, built);
  return built;
}

/** compile.go `BuildRequestType`: a declared type, so a misspelt field fails when the expression is compiled. */
export function registerRequestType(env: Environment): void {
  env
    .registerType('kubernetes.GroupVersionKind', { fields: { group: 'string', version: 'string', kind: 'string' } })
    .registerType('kubernetes.GroupVersionResource', { fields: { group: 'string', version: 'string', resource: 'string' } })
    .registerType('kubernetes.UserInfo', { fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' } })
    .registerType('kubernetes.AdmissionRequest', {
      fields: {
        kind: 'kubernetes.GroupVersionKind',
        resource: 'kubernetes.GroupVersionResource',
        subResource: 'string',
        requestKind: 'kubernetes.GroupVersionKind',
        requestResource: 'kubernetes.GroupVersionResource',
        requestSubResource: 'string',
        name: 'string',
        namespace: 'string',
        operation: 'string',
        userInfo: 'kubernetes.UserInfo',
        dryRun: 'bool',
        options: 'dyn',
      },
    });
}
