import { dns1123SubdomainErrors, isDns1123Subdomain } from '../kube/names';
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
  const errors: FieldError[] = [];
  const add = (path: string, message: string): void => void errors.push({ path, message });
  const v1 = config.apiVersion === 'admissionregistration.k8s.io/v1';
  const metadata = config.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') add('metadata.name', 'Required value: name or generateName is required');
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
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: host must be specified`);
    }
    if (parsed.protocol !== 'https:') add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: 'https' is the only allowed URL scheme`);
    if (parsed.hostname === '') add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: host must be specified`);
    if (parsed.username || parsed.password) add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: user information is not permitted in the URL`);
    if (url.includes('#')) add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: fragments are not permitted in the URL`);
    if (url.includes('?')) add(`${at}.url`, `Invalid value: ${JSON.stringify(url)}: query parameters are not permitted in the URL`);
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
      else if (path.includes('//')) add(`${at}.service.path`, `Invalid value: ${JSON.stringify(path)}: segment[${path.split('/').indexOf('', 1) - 1}] may not be empty`);
      else {
        const trimmed = path.replace(/^\/|\/$/g, '');
        trimmed.split('/').forEach((segment, i) => {
          for (const message of dns1123SubdomainErrors(segment)) add(`${at}.service.path`, `Invalid value: ${JSON.stringify(path)}: segment[${i}]: ${message}`);
        });
      }
    }
  }
}
