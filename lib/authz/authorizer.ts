import type { UserInfo } from '../kube/admission';

// The cluster's authorizer as the harness models it, shared by the CEL library (matchConditions'
// `authorizer`) and the mock API (request authorization, SubjectAccessReviews): neither owns it.

/**
 * What an authorization check asks, as kube-apiserver's authorizer.AttributesRecord: a resource check
 * fills group…name and leaves `path` empty; a non-resource check (`authorizer.path(…)`) fills only
 * `path` and `verb`.
 */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
  /**
   * The CEL authorizer's `fieldSelector(…)` and `labelSelector(…)` (apiserver pkg/cel/library/authz.go,
   * GA since 1.34), present only when the check names a non-empty one. kube-apiserver hands its
   * authorizer the requirements the text parses to, or the parsing error; here the authorizer gets the text.
   */
  fieldSelector?: string;
  labelSelector?: string;
}

export interface AuthorizationResult {
  decision: 'allow' | 'deny' | 'noOpinion';
  reason?: string;
}

/** Stands in for the cluster's authorizer (matchConditions, the mock API); throwing makes the Decision `errored()`. */
export type Authorizer = (attributes: AuthorizationAttributes) => AuthorizationResult;

export const allowEverything: Authorizer = () => ({ decision: 'allow' });

/** Runs `authorizer`, turning a throw into kube's evaluation error: a decision of no opinion, with the error's text. */
export function authorize(authorizer: Authorizer, attributes: AuthorizationAttributes): AuthorizationResult & { error?: string } {
  try {
    return authorizer(attributes);
  } catch (error) {
    return { decision: 'noOpinion', error: error instanceof Error ? error.message : String(error) };
  }
}
