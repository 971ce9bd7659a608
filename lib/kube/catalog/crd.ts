import { HarnessError } from '../../errors';
import type { CustomResourceConversion, PrinterColumn, ResourceInfo, SubresourceSpec } from './types';
import type { WebhookClientConfig } from '../webhook-config';
import { isRecord as isObject } from '../json';

const SCALE: SubresourceSpec = { name: 'scale', kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, operations: ['UPDATE'] };
// No kind: a custom resource's status subresource carries the custom resource itself.
const STATUS: SubresourceSpec = { name: 'status', operations: ['UPDATE'] };

type Json = Record<string, unknown>;

/** An additionalPrinterColumns entry with what a column needs (the API server's validation refuses the others). */
function isPrinterColumn(value: unknown): value is PrinterColumn {
  return isObject(value) && typeof value.name === 'string' && typeof value.type === 'string' && typeof value.jsonPath === 'string';
}

function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/**
 * The resources an apiextensions.k8s.io/v1 CustomResourceDefinition serves: one per served version, in
 * `spec.versions` order (the order kube-apiserver's CRD handler registers them in), all sharing one storage key.
 * Throws a MANIFEST_INVALID HarnessError naming the first missing or invalid field.
 */
export function customResourceDefinitionResources(crd: unknown): { storageKey: string; resources: ResourceInfo[] } {
  const name = isObject(crd) && isObject(crd.metadata) && typeof crd.metadata.name === 'string' ? crd.metadata.name : '';
  function fail(field: string, problem: string): never {
    throw new HarnessError(
      'MANIFEST_INVALID',
      `CustomResourceDefinition${name ? ` "${name}"` : ''}: ${field}: ${problem}`,
      'pass the CustomResourceDefinition manifest as applied to the cluster (apiVersion apiextensions.k8s.io/v1)',
    );
  }
  const object = (value: unknown, field: string): Json => (isObject(value) ? value : fail(field, value === undefined ? 'Required value' : 'must be an object'));
  const text = (value: unknown, field: string): string => {
    if (value === undefined || value === '') fail(field, 'Required value');
    return typeof value === 'string' ? value : fail(field, `must be a string, not ${JSON.stringify(value)}`);
  };

  if (!isObject(crd)) return fail('(root)', 'must be an object');
  const apiVersion = text(crd.apiVersion, 'apiVersion');
  // v1beta1 kept the names but moved versions and subresources around; reading it as v1 would register the wrong thing.
  if (apiVersion !== 'apiextensions.k8s.io/v1') fail('apiVersion', `Unsupported value: "${apiVersion}": supported values: "apiextensions.k8s.io/v1"`);
  const kind = text(crd.kind, 'kind');
  if (kind !== 'CustomResourceDefinition') fail('kind', `Unsupported value: "${kind}": supported values: "CustomResourceDefinition"`);

  const spec = object(crd.spec, 'spec');
  const group = text(spec.group, 'spec.group');
  const names = object(spec.names, 'spec.names');
  const plural = text(names.plural, 'spec.names.plural');
  const crKind = text(names.kind, 'spec.names.kind');
  // The API defaults the singular name to the lower-cased kind.
  const singular = names.singular === undefined || names.singular === '' ? crKind.toLowerCase() : text(names.singular, 'spec.names.singular');
  const scope = text(spec.scope, 'spec.scope');
  if (scope !== 'Namespaced' && scope !== 'Cluster') fail('spec.scope', `Unsupported value: "${scope}": supported values: "Cluster", "Namespaced"`);
  const versions: unknown = spec.versions;
  if (!isList(versions)) return fail('spec.versions', versions === undefined ? 'Required value' : 'must be a list');
  if (versions.length === 0) fail('spec.versions', 'Required value: must have at least one version');

  const storageKey = `${plural}.${group}`;
  const resources: ResourceInfo[] = [];
  let storageVersions = 0;
  let storageVersion = '';
  const nameList = (field: string): readonly string[] | undefined => {
    const value = names[field];
    if (value === undefined) return undefined;
    if (!isList(value) || !value.every((item) => typeof item === 'string')) return fail(`spec.names.${field}`, 'must be a list of strings');
    return value as string[];
  };
  const shortNames = nameList('shortNames');
  const categories = nameList('categories');
  versions.forEach((entry, index) => {
    const at = `spec.versions[${index}]`;
    const version = object(entry, at);
    const versionName = text(version.name, `${at}.name`);
    if (typeof version.served !== 'boolean') fail(`${at}.served`, version.served === undefined ? 'Required value' : 'must be a boolean');
    if (typeof version.storage !== 'boolean') fail(`${at}.storage`, version.storage === undefined ? 'Required value' : 'must be a boolean');
    if (version.storage === true) {
      storageVersions++;
      storageVersion = versionName;
    }
    const subresources = version.subresources === undefined ? {} : object(version.subresources, `${at}.subresources`);
    if (version.served !== true) return;
    resources.push({
      group,
      version: versionName,
      kind: crKind,
      resource: plural,
      singular,
      namespaced: scope === 'Namespaced',
      // `status: null` decodes to an absent subresource, as `status: {}` decodes to a present one.
      subresources: [...(subresources.status != null ? [STATUS] : []), ...(subresources.scale != null ? [SCALE] : [])],
      storageKey,
      ...(shortNames ? { shortNames } : {}),
      ...(categories ? { categories } : {}),
      ...(isObject(version.schema) && version.schema.openAPIV3Schema !== undefined ? { schema: version.schema.openAPIV3Schema } : {}),
      ...(isList(version.additionalPrinterColumns) ? { printerColumns: version.additionalPrinterColumns.filter(isPrinterColumn) } : {}),
    });
  });
  if (storageVersions !== 1) fail('spec.versions', `Invalid value: must have exactly one version marked as storage version, found ${storageVersions}`);
  const declared = versions.map((entry) => (entry as Json).name as string);
  const conversion = conversionOf(spec.conversion, name, declared, { object, text, fail });
  return { storageKey, resources: resources.map((info) => ({ ...info, storageVersion, conversion })) };
}

interface FieldReaders {
  object(value: unknown, field: string): Json;
  text(value: unknown, field: string): string;
  fail(field: string, problem: string): never;
}

/**
 * `spec.conversion` as the v1 API defaults and validates it (apiextensions validation.go
 * `validateCustomResourceConversion`): strategy None when absent; a Webhook strategy needs a clientConfig
 * with a url or a service (port defaulted to 443) and the ConversionReview versions the webhook accepts.
 */
function conversionOf(value: unknown, crd: string, versions: readonly string[], read: FieldReaders): CustomResourceConversion {
  const conversion = value === undefined || value === null ? {} : read.object(value, 'spec.conversion');
  const strategy = conversion.strategy === undefined ? 'None' : read.text(conversion.strategy, 'spec.conversion.strategy');
  if (strategy === 'None') {
    if (conversion.webhook != null) read.fail('spec.conversion.webhook', 'Forbidden: should be empty if conversion strategy is other than Webhook');
    return { crd, strategy, versions };
  }
  if (strategy !== 'Webhook') read.fail('spec.conversion.strategy', `Unsupported value: "${strategy}": supported values: "None", "Webhook"`);
  const webhook = read.object(conversion.webhook, 'spec.conversion.webhook');
  const config = read.object(webhook.clientConfig, 'spec.conversion.webhook.clientConfig');
  const reviewVersions: unknown = webhook.conversionReviewVersions;
  if (!isList(reviewVersions) || reviewVersions.length === 0 || !reviewVersions.every((v) => typeof v === 'string')) {
    read.fail('spec.conversion.webhook.conversionReviewVersions', reviewVersions === undefined ? 'Required value' : 'must be a non-empty list of strings');
  }
  const clientConfig: WebhookClientConfig = {};
  if (config.url !== undefined) clientConfig.url = read.text(config.url, 'spec.conversion.webhook.clientConfig.url');
  if (config.service !== undefined && config.service !== null) {
    const service = read.object(config.service, 'spec.conversion.webhook.clientConfig.service');
    const port = service.port === undefined ? 443 : service.port;
    if (typeof port !== 'number') read.fail('spec.conversion.webhook.clientConfig.service.port', 'must be an integer');
    clientConfig.service = {
      name: read.text(service.name, 'spec.conversion.webhook.clientConfig.service.name'),
      namespace: read.text(service.namespace, 'spec.conversion.webhook.clientConfig.service.namespace'),
      port,
      ...(typeof service.path === 'string' ? { path: service.path } : {}),
    };
  }
  if (clientConfig.url === undefined && !clientConfig.service)
    read.fail('spec.conversion.webhook.clientConfig', 'Required value: exactly one of url or service is required');
  if (clientConfig.url !== undefined && clientConfig.service)
    read.fail('spec.conversion.webhook.clientConfig', 'Required value: exactly one of url or service is required');
  if (typeof config.caBundle === 'string' && config.caBundle !== '') clientConfig.caBundle = config.caBundle;
  return { crd, strategy, versions, webhook: { clientConfig, conversionReviewVersions: reviewVersions as string[] } };
}
