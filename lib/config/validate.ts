import { dns1123SubdomainErrors, isDns1123Subdomain, labelValueErrors, qualifiedNameErrors } from '../kube/names';
import { configurationShape, unknownFields } from './fields';
import { isRecord as isObject } from '../kube/json';

/** One validation failure: a field path inside the configuration and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

const KNOWN_REVIEW_VERSIONS = ['v1', 'v1beta1'];

type Json = Record<string, unknown>;

/**
 * The create-time validation of admissionregistration.k8s.io webhook configurations
 * (k8s.io/kubernetes pkg/apis/admissionregistration/validation, apiserver pkg/util/webhook/validation.go)
 * for the fields the harness relies on.
 */
export function validateConfiguration(config: Json, mutating: boolean): FieldError[] {
  const errors: FieldError[] = [...unknownFields(config, configurationShape(mutating))];
  const add = (path: string, message: string): void => void errors.push({ path, message });
  const v1 = config.apiVersion === 'admissionregistration.k8s.io/v1';
  const metadata = config.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '')
    add('metadata.name', 'Required value: name or generateName is required');
  const webhooks = config.webhooks;
  if (webhooks === undefined || webhooks === null) return errors;
  if (!Array.isArray(webhooks)) return [{ path: 'webhooks', message: 'must be a list' }];

  const seen = new Set<string>();
  webhooks.forEach((webhook: unknown, i) => {
    const at = `webhooks[${i}]`;
    if (!isObject(webhook)) return add(at, 'must be an object');
    if (typeof webhook.name !== 'string' || webhook.name === '') add(`${at}.name`, 'Required value');
    else {
      if (seen.has(webhook.name)) add(`${at}.name`, `Duplicate value: ${JSON.stringify(webhook.name)}`);
      seen.add(webhook.name);
      // IsFullyQualifiedName lowercases first: `removeLabel.example.com` is a valid webhook name.
      if (webhook.name.split('.').length < 3 || !isDns1123Subdomain(webhook.name.toLowerCase())) {
        add(`${at}.name`, `Invalid value: ${JSON.stringify(webhook.name)}: should be a domain with at least three segments separated by dots`);
      }
    }
    validateClientConfig(webhook.clientConfig, `${at}.clientConfig`, add);
    if (webhook.rules !== undefined) {
      if (!Array.isArray(webhook.rules)) add(`${at}.rules`, 'must be a list');
      else webhook.rules.forEach((rule: unknown, r) => validateRule(rule, `${at}.rules[${r}]`, add));
    }
    const matchPolicy = webhook.matchPolicy;
    if (matchPolicy !== undefined && matchPolicy !== 'Exact' && matchPolicy !== 'Equivalent') {
      add(`${at}.matchPolicy`, `Unsupported value: ${JSON.stringify(matchPolicy)}: supported values: "Equivalent", "Exact"`);
    }
    for (const selector of ['namespaceSelector', 'objectSelector'] as const) {
      if (webhook[selector] !== undefined && webhook[selector] !== null) validateLabelSelector(webhook[selector], `${at}.${selector}`, add);
    }
    const timeout = webhook.timeoutSeconds;
    if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > 30)) {
      add(`${at}.timeoutSeconds`, `Invalid value: ${JSON.stringify(timeout)}: the timeout value must be between 1 and 30 seconds`);
    }
    const sideEffects = webhook.sideEffects;
    if (v1 && sideEffects === undefined) add(`${at}.sideEffects`, 'Required value: must specify one of None, NoneOnDryRun');
    else if (v1 && sideEffects !== 'None' && sideEffects !== 'NoneOnDryRun') {
      add(`${at}.sideEffects`, `Unsupported value: ${JSON.stringify(sideEffects)}: supported values: "None", "NoneOnDryRun"`);
    }
    const versions = webhook.admissionReviewVersions;
    if (v1 && (versions === undefined || (Array.isArray(versions) && versions.length === 0))) {
      add(`${at}.admissionReviewVersions`, 'Required value: must specify one of v1, v1beta1');
    } else if (Array.isArray(versions)) {
      if (!versions.some((v) => KNOWN_REVIEW_VERSIONS.includes(v as string))) {
        add(`${at}.admissionReviewVersions`, `Invalid value: ${JSON.stringify(versions)}: must include at least one of v1, v1beta1`);
      }
    } else if (versions !== undefined) add(`${at}.admissionReviewVersions`, 'must be a list of strings');
    const failurePolicy = webhook.failurePolicy;
    if (failurePolicy !== undefined && failurePolicy !== 'Fail' && failurePolicy !== 'Ignore') {
      add(`${at}.failurePolicy`, `Unsupported value: ${JSON.stringify(failurePolicy)}: supported values: "Fail", "Ignore"`);
    }
    if (mutating) {
      const policy = webhook.reinvocationPolicy;
      if (policy !== undefined && policy !== 'Never' && policy !== 'IfNeeded') {
        add(`${at}.reinvocationPolicy`, `Unsupported value: ${JSON.stringify(policy)}: supported values: "IfNeeded", "Never"`);
      }
    }
  });
  return errors;
}

function validateClientConfig(clientConfig: unknown, at: string, add: (path: string, message: string) => void): void {
  if (!isObject(clientConfig)) return add(at, 'Required value: exactly one of url or service is required');
  const { url, service } = clientConfig;
  if ((url === undefined) === (service === undefined)) return add(at, 'Required value: exactly one of url or service is required');
  if (url !== undefined) {
    if (typeof url !== 'string') return add(`${at}.url`, 'must be a string');
    // apiserver pkg/util/webhook ValidateWebhookURL: the value each error shows is the part at fault.
    const form = '; desired format: https://host[/path]';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (error) {
      return add(`${at}.url`, `Required value: url must be a valid URL: parse ${JSON.stringify(url)}: ${(error as Error).message}${form}`);
    }
    const scheme = parsed.protocol.replace(/:$/, '');
    if (scheme !== 'https') add(`${at}.url`, `Invalid value: ${JSON.stringify(scheme)}: 'https' is the only allowed URL scheme${form}`);
    if (parsed.host === '') add(`${at}.url`, `Invalid value: "": host must be provided${form}`);
    if (parsed.username || parsed.password)
      add(
        `${at}.url`,
        `Invalid value: ${JSON.stringify(parsed.password ? `${parsed.username}:${parsed.password}` : parsed.username)}: user information is not permitted in the URL`,
      );
    const fragment = url.includes('#') ? url.slice(url.indexOf('#') + 1) : '';
    if (fragment) add(`${at}.url`, `Invalid value: ${JSON.stringify(fragment)}: fragments are not permitted in the URL`);
    const query = url.includes('?') ? (url.slice(url.indexOf('?') + 1).split('#')[0] ?? '') : '';
    if (query) add(`${at}.url`, `Invalid value: ${JSON.stringify(query)}: query parameters are not permitted in the URL`);
  }
  if (service !== undefined) {
    if (!isObject(service)) return add(`${at}.service`, 'must be an object');
    if (typeof service.name !== 'string' || service.name === '') add(`${at}.service.name`, 'Required value: service name is required');
    if (typeof service.namespace !== 'string' || service.namespace === '') add(`${at}.service.namespace`, 'Required value: service namespace is required');
    const port = service.port;
    if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)) {
      add(`${at}.service.port`, `Invalid value: ${JSON.stringify(port)}: port is not valid: must be between 1 and 65535, inclusive`);
    }
    const path = service.path;
    if (path !== undefined && path !== '/' && typeof path === 'string') {
      if (!path.startsWith('/')) add(`${at}.service.path`, `Invalid value: ${JSON.stringify(path)}: must start with a '/'`);
      else if (path.includes('//'))
        add(`${at}.service.path`, `Invalid value: ${JSON.stringify(path)}: segment[${path.split('/').indexOf('', 1) - 1}] may not be empty`);
      else {
        const trimmed = path.replace(/^\/|\/$/g, '');
        trimmed.split('/').forEach((segment, i) => {
          for (const message of dns1123SubdomainErrors(segment)) add(`${at}.service.path`, `Invalid value: ${JSON.stringify(path)}: segment[${i}]: ${message}`);
        });
      }
    }
  }
}

/** Go's `%#v` of a string slice, as field.Invalid prints a list value. */
function goStrings(values: unknown[], type = '[]string'): string {
  return `${type}{${values.map((v) => JSON.stringify(String(v))).join(', ')}}`;
}

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const supported = (values: string[]) => values.map((v) => JSON.stringify(v)).join(', ');

/** `validateRuleWithOperations` (pkg/apis/admissionregistration/validation), with the API's texts. */
export function validateRule(rule: unknown, at: string, add: (path: string, message: string) => void): void {
  if (!isObject(rule)) return add(at, 'must be an object');
  const strings = (key: string): string[] | undefined => {
    const value = rule[key];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      add(`${at}.${key}`, 'must be a list of strings');
      return undefined;
    }
    return value as string[];
  };
  const operations = strings('operations');
  if (operations) {
    if (operations.length === 0) add(`${at}.operations`, 'Required value');
    if (operations.length > 1 && operations.includes('*'))
      add(
        `${at}.operations`,
        `Invalid value: ${goStrings(operations, '[]admissionregistration.OperationType')}: if '*' is present, must not specify other operations`,
      );
    operations.forEach((op, i) => {
      if (!OPERATIONS.includes(op)) add(`${at}.operations[${i}]`, `Unsupported value: ${JSON.stringify(op)}: supported values: ${supported(OPERATIONS)}`);
    });
  }
  const groups = strings('apiGroups');
  if (groups) {
    if (groups.length === 0) add(`${at}.apiGroups`, 'Required value');
    if (groups.length > 1 && groups.includes('*'))
      add(`${at}.apiGroups`, `Invalid value: ${goStrings(groups)}: if '*' is present, must not specify other API groups`);
  }
  const versions = strings('apiVersions');
  if (versions) {
    if (versions.length === 0) add(`${at}.apiVersions`, 'Required value');
    if (versions.length > 1 && versions.includes('*'))
      add(`${at}.apiVersions`, `Invalid value: ${goStrings(versions)}: if '*' is present, must not specify other API versions`);
    versions.forEach((version, i) => {
      if (version === '') add(`${at}.apiVersions[${i}]`, 'Required value');
    });
  }
  const resources = strings('resources');
  if (resources) validateResources(resources, `${at}.resources`, add);
  const scope = rule.scope;
  if (scope !== undefined && !SCOPES.includes(scope as string))
    add(`${at}.scope`, `Unsupported value: ${JSON.stringify(scope)}: supported values: ${supported(SCOPES)}`);
}

/** `validateResources`: wildcards and the subresource forms they forbid beside them. */
function validateResources(resources: string[], at: string, add: (path: string, message: string) => void): void {
  if (resources.length === 0) add(at, 'Required value');
  const withWildcardSub = new Set<string>();
  const subWithWildcardResource = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') return add(`${at}[${i}]`, 'Required value');
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res)) add(`${at}[${i}]`, `Invalid value: ${JSON.stringify(resSub)}: if '${res}/*' is present, must not specify ${resSub}`);
    if (subWithWildcardResource.has(sub)) add(`${at}[${i}]`, `Invalid value: ${JSON.stringify(resSub)}: if '*/${sub}' is present, must not specify ${resSub}`);
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) add(at, `Invalid value: ${goStrings(resources)}: if '*/*' is present, must not specify other resources`);
  if (singleWildcard && withoutSubresource)
    add(at, `Invalid value: ${goStrings(resources)}: if '*' is present, must not specify other resources without subresources`);
}

/** apimachinery `ValidateLabelSelector`: operators, values as the operator wants them, keys and values of labels. */
export function validateLabelSelector(selector: unknown, at: string, add: (path: string, message: string) => void): void {
  if (!isObject(selector)) return add(at, 'must be an object');
  const expressions = selector.matchExpressions;
  if (Array.isArray(expressions)) {
    expressions.forEach((expression: unknown, i) => {
      const here = `${at}.matchExpressions[${i}]`;
      if (!isObject(expression)) return add(here, 'must be an object');
      const values = Array.isArray(expression.values) ? expression.values : [];
      switch (expression.operator) {
        case 'In':
        case 'NotIn':
          if (values.length === 0) add(`${here}.values`, "Required value: must be specified when `operator` is 'In' or 'NotIn'");
          break;
        case 'Exists':
        case 'DoesNotExist':
          if (values.length > 0) add(`${here}.values`, "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
          break;
        default:
          add(`${here}.operator`, `Invalid value: ${JSON.stringify(expression.operator ?? '')}: not a valid selector operator`);
      }
      for (const message of qualifiedNameErrors(String(expression.key ?? '')))
        add(`${here}.key`, `Invalid value: ${JSON.stringify(expression.key ?? '')}: ${message}`);
      values.forEach((value: unknown, v) => {
        for (const message of labelValueErrors(String(value))) add(`${here}.values[${v}]`, `Invalid value: ${JSON.stringify(value)}: ${message}`);
      });
    });
  } else if (expressions !== undefined && expressions !== null) add(`${at}.matchExpressions`, 'must be a list');
  const labels = selector.matchLabels;
  if (isObject(labels)) {
    for (const [key, value] of Object.entries(labels)) {
      for (const message of qualifiedNameErrors(key)) add(`${at}.matchLabels`, `Invalid value: ${JSON.stringify(key)}: ${message}`);
      for (const message of labelValueErrors(String(value))) add(`${at}.matchLabels`, `Invalid value: ${JSON.stringify(value)}: ${message}`);
    }
  } else if (labels !== undefined && labels !== null) add(`${at}.matchLabels`, 'must be a map of label keys to values');
}
