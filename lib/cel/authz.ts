import type { Environment } from '@marcbachmann/cel-js';
import type { UserInfo } from '../kube/admission';
import { isDns1123Label, isDns1123Subdomain } from '../kube/names';
import { authorize, type AuthorizationAttributes, type AuthorizationResult, type Authorizer } from '../authz/authorizer';
import { CelFunctionError } from './errors';

// The CEL values of k8s.io/apiserver/pkg/cel/library/authz.go. Each builder call returns a new value,
// as the Go values are copied, so a check stored in a comprehension is never changed under it.

export class AuthorizerValue {
  constructor(
    readonly user: UserInfo,
    readonly authorize: Authorizer,
    /** `authorizer.requestResource`: only the request's own authorizer has it. */
    readonly requestResource?: ResourceCheckValue,
  ) {}
}

class PathCheckValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {}
}

class GroupCheckValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {}
}

export class ResourceCheckValue {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
    readonly fieldSelector = '',
    readonly labelSelector = '',
  ) {}

  with(change: Partial<Pick<ResourceCheckValue, 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector'>>): ResourceCheckValue {
    const next = {
      subresource: this.subresource,
      namespace: this.namespace,
      name: this.name,
      fieldSelector: this.fieldSelector,
      labelSelector: this.labelSelector,
      ...change,
    };
    return new ResourceCheckValue(
      this.authorizer,
      this.group,
      this.resource,
      next.subresource,
      next.namespace,
      next.name,
      next.fieldSelector,
      next.labelSelector,
    );
  }
}

class DecisionValue {
  constructor(
    readonly result: AuthorizationResult,
    readonly error?: string,
  ) {}
}

/** The authorizer a request's matchConditions see, with `requestResource` describing the request itself. */
export function requestAuthorizer(
  user: UserInfo,
  authorize: Authorizer,
  target: { group: string; resource: string; subresource: string; namespace: string; name: string },
): AuthorizerValue {
  const base = new AuthorizerValue(user, authorize);
  const requestResource = new ResourceCheckValue(base, target.group, target.resource, target.subresource, target.namespace, target.name);
  return new AuthorizerValue(user, authorize, requestResource);
}

const AUTHORIZER = 'kubernetes.authorization.Authorizer';
const PATH_CHECK = 'kubernetes.authorization.PathCheck';
const GROUP_CHECK = 'kubernetes.authorization.GroupCheck';
const RESOURCE_CHECK = 'kubernetes.authorization.ResourceCheck';
const DECISION = 'kubernetes.authorization.Decision';

/** Registers the authorizer types and the kubernetes.authz library functions (authz.go) and declares `authorizer`. */
export function registerAuthorizer(env: Environment): void {
  env
    .registerType(DECISION, { ctor: DecisionValue, fields: {} })
    .registerType(PATH_CHECK, { ctor: PathCheckValue, fields: {} })
    .registerType(GROUP_CHECK, { ctor: GroupCheckValue, fields: {} })
    .registerType(RESOURCE_CHECK, { ctor: ResourceCheckValue, fields: {} })
    // In cel-go `authorizer.requestResource` is a variable of its own; a field reads the same.
    .registerType(AUTHORIZER, { ctor: AuthorizerValue, fields: { requestResource: RESOURCE_CHECK } })
    .registerVariable('authorizer', AUTHORIZER);

  const sync = { async: false };
  env
    .registerFunction(
      `${AUTHORIZER}.path(string): ${PATH_CHECK}`,
      (authorizer: AuthorizerValue, path: string) => {
        if (path.trim() === '') throw new CelFunctionError('path must not be empty');
        return new PathCheckValue(authorizer, path);
      },
      sync,
    )
    .registerFunction(
      `${AUTHORIZER}.group(string): ${GROUP_CHECK}`,
      (authorizer: AuthorizerValue, group: string) => new GroupCheckValue(authorizer, group),
      sync,
    )
    .registerFunction(`${AUTHORIZER}.serviceAccount(string, string): ${AUTHORIZER}`, serviceAccount, sync)
    .registerFunction(
      `${GROUP_CHECK}.resource(string): ${RESOURCE_CHECK}`,
      (check: GroupCheckValue, resource: string) => {
        if (resource.trim() === '') throw new CelFunctionError('resource must not be empty');
        return new ResourceCheckValue(check.authorizer, check.group, resource);
      },
      sync,
    )
    .registerFunction(
      `${RESOURCE_CHECK}.subresource(string): ${RESOURCE_CHECK}`,
      (check: ResourceCheckValue, subresource: string) => check.with({ subresource }),
      sync,
    )
    .registerFunction(
      `${RESOURCE_CHECK}.namespace(string): ${RESOURCE_CHECK}`,
      (check: ResourceCheckValue, namespace: string) => check.with({ namespace }),
      sync,
    )
    .registerFunction(`${RESOURCE_CHECK}.name(string): ${RESOURCE_CHECK}`, (check: ResourceCheckValue, name: string) => check.with({ name }), sync)
    // The authz selectors library (authz.go `AuthzSelectors`, AuthorizeWithSelectors GA in 1.34).
    .registerFunction(
      `${RESOURCE_CHECK}.fieldSelector(string): ${RESOURCE_CHECK}`,
      (check: ResourceCheckValue, fieldSelector: string) => check.with({ fieldSelector }),
      sync,
    )
    .registerFunction(
      `${RESOURCE_CHECK}.labelSelector(string): ${RESOURCE_CHECK}`,
      (check: ResourceCheckValue, labelSelector: string) => check.with({ labelSelector }),
      sync,
    )
    .registerFunction(
      `${PATH_CHECK}.check(string): ${DECISION}`,
      (check: PathCheckValue, verb: string) =>
        decide(check.authorizer, { verb, path: check.path, group: '', resource: '', subresource: '', namespace: '', name: '' }),
      sync,
    )
    .registerFunction(
      `${RESOURCE_CHECK}.check(string): ${DECISION}`,
      (check: ResourceCheckValue, verb: string) =>
        decide(check.authorizer, {
          verb,
          path: '',
          group: check.group,
          resource: check.resource,
          subresource: check.subresource,
          namespace: check.namespace,
          name: check.name,
          // resourceCheckVal.Authorize passes a selector only when it is not empty.
          ...(check.fieldSelector ? { fieldSelector: check.fieldSelector } : {}),
          ...(check.labelSelector ? { labelSelector: check.labelSelector } : {}),
        }),
      sync,
    )
    .registerFunction(`${DECISION}.allowed(): bool`, (decision: DecisionValue) => decision.result.decision === 'allow', sync)
    .registerFunction(`${DECISION}.reason(): string`, (decision: DecisionValue) => decision.result.reason ?? '', sync)
    .registerFunction(`${DECISION}.errored(): bool`, (decision: DecisionValue) => decision.error !== undefined, sync)
    .registerFunction(`${DECISION}.error(): string`, (decision: DecisionValue) => decision.error ?? '', sync);
}

// An authorizer error is data for the expression (`errored()`), not an evaluation error.
function decide(authorizer: AuthorizerValue, attributes: Omit<AuthorizationAttributes, 'user'>): DecisionValue {
  const { error, ...result } = authorize(authorizer.authorize, { user: authorizer.user, ...attributes });
  return new DecisionValue(result, error);
}

// authz.go checks the name (ValidateServiceAccountName: a DNS subdomain) before the namespace
// (ValidateNamespaceName: a DNS label); the user is serviceaccount.UserInfo's.
function serviceAccount(authorizer: AuthorizerValue, namespace: string, name: string): AuthorizerValue {
  if (!isDns1123Subdomain(name)) throw new CelFunctionError('Invalid service account name');
  if (!isDns1123Label(namespace)) throw new CelFunctionError('Invalid service account namespace');
  const user: UserInfo = { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
  return new AuthorizerValue(user, authorizer.authorize);
}
