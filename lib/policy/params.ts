import type { KubeObject } from '../kube/admission';
import type { ParamKind, ParamRef } from '../kube/admission-policy';
import { compileSelector } from '../kube/label-selector';

/** Where a binding's params are read from: the cluster's objects (the mock API's store). */
export interface ParamSource {
  /** Whether the cluster serves `apiVersion`/`kind`, and its scope; undefined when it does not. */
  scope(apiVersion: string, kind: string): { namespaced: boolean } | undefined;
  get(apiVersion: string, kind: string, namespace: string, name: string): KubeObject | undefined;
  /** The objects of `namespace` ('' for all, or cluster-scoped ones), in the store's order. */
  list(apiVersion: string, kind: string, namespace: string): KubeObject[];
}

/** The params one binding evaluates its policy with: `null` stands for "no params" (kube's nil). */
export type ParamsResult = { params: (KubeObject | null)[] } | { error: string };

/** `failed to find resource referenced by paramKind: 'v1, Kind=Foo'`: a policy whose paramKind the cluster does not serve. */
export function unknownParamKind(paramKind: ParamKind, source: ParamSource): string | undefined {
  if (source.scope(paramKind.apiVersion ?? '', paramKind.kind ?? '')) return undefined;
  return `failed to find resource referenced by paramKind: '${paramKind.apiVersion ?? ''}, Kind=${paramKind.kind ?? ''}'`;
}

/**
 * apiserver plugin/policy/generic `CollectParams`: no paramKind or no paramRef evaluate once without
 * params; a name reads one object, a selector lists them (in the request's namespace unless the
 * paramRef names one); none found is an error only with parameterNotFoundAction Deny, and otherwise
 * means the binding is not evaluated at all.
 */
export function collectParams(paramKind: ParamKind | undefined, paramRef: ParamRef | undefined, requestNamespace: string, source: ParamSource): ParamsResult {
  if (!paramKind || !paramRef) return { params: [null] };
  const apiVersion = paramKind.apiVersion ?? '';
  const kind = paramKind.kind ?? '';
  const scope = source.scope(apiVersion, kind);
  if (!scope) return { error: `paramKind kind \`&ParamKind{APIVersion:${apiVersion},Kind:${kind},}\` not known` };
  let namespace = '';
  if (scope.namespaced) {
    namespace = paramRef.namespace || requestNamespace;
    // A cluster-scoped request has no namespace to look in.
    if (namespace === '') return { error: 'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources' };
  } else if (paramRef.namespace) return { error: 'paramRef.namespace must not be provided for a cluster-scoped `paramKind`' };

  let params: KubeObject[];
  if (paramRef.name) {
    const found = source.get(apiVersion, kind, namespace, paramRef.name);
    params = found ? [found] : [];
  } else if (paramRef.selector) {
    const selector = compileSelector(paramRef.selector);
    params = source.list(apiVersion, kind, namespace).filter((object) => selector.matches(object.metadata?.labels ?? {}));
  } else return { error: 'one of name or selector must be set' };

  if (params.length === 0 && paramRef.parameterNotFoundAction === 'Deny')
    return { error: 'no params found for policy binding with `Deny` parameterNotFoundAction' };
  return { params };
}

/** A cluster without objects, for compiling policies where no request is admitted (lint, explain): every paramKind counts as served. */
export const NO_PARAMS: ParamSource = { scope: () => ({ namespaced: true }), get: () => undefined, list: () => [] };
