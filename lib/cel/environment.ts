import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthorizer } from './authz';
import { registerLibrary } from './library';
import { celModule } from './runtime';

export interface MatchConditionsEnvironment {
  env: Environment;
  /** Every function and macro name, to tell an unknown function from a known one called wrongly. */
  functions: ReadonlySet<string>;
}

let cached: MatchConditionsEnvironment | undefined;

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
  cached = { env, functions: new Set(env.getDefinitions().functions.map((fn) => fn.name)) };
  return cached;
}

/** compile.go `BuildRequestType`: a declared type, so a misspelt field fails when the expression is compiled. */
function registerRequestType(env: Environment): void {
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
