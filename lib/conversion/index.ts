import type { AgentPool } from '../call/agents';
import type { Route } from '../call/endpoint';
import { HarnessError } from '../errors';
import type { KubeObject } from '../kube/admission';
import { splitApiVersion } from '../kube/api-version';
import type { CustomResourceConversion, ResourceCatalog } from '../kube/catalog';
import type { WebhookClientConfig } from '../kube/webhook-config';
import { convertObject, type ConversionWebhook } from './convert-object';
import type { ConversionResult } from './result';

export { ConversionError, CONVERSION_TIMEOUT_SECONDS } from './convert-object';
export type { ConversionOutcome, ConversionWebhook, ConversionCallContext } from './convert-object';
export type { ConversionCheck } from './verify';
export type { ConversionReview, ConversionReviewVersion } from './review';
export type { ConversionResult } from './result';

/** What the harness lends the capability for calls: its targets, its transport, its clock and its uids. */
export interface ConversionCallDeps {
  connection(webhook: { name: string; clientConfig: WebhookClientConfig }): Promise<{ route: Route; ca: string }>;
  agents: AgentPool;
  timeScale: number;
  uuid(): string;
}

/** CRD conversion for one harness: the manifests' CRDs as its catalog holds them. */
export interface ConversionCapability {
  /** The CRDs whose strategy is Webhook, with their clientConfig as written. */
  readonly webhooks: readonly ConversionWebhook[];
  /** Their clientConfigs: the serving certificate of the target must carry their hosts too. */
  readonly clientConfigs: readonly WebhookClientConfig[];
  convert(objects: KubeObject | readonly KubeObject[], toVersion: string, deps: ConversionCallDeps): Promise<ConversionResult>;
}

function conversionsOf(catalog: ResourceCatalog): Map<string, CustomResourceConversion> {
  const byCrd = new Map<string, CustomResourceConversion>();
  for (const entry of catalog.resources()) if (entry.conversion) byCrd.set(entry.conversion.crd, entry.conversion);
  return byCrd;
}

/**
 * The conversion capability of a harness: reads `spec.conversion` of the CRDs its catalog holds (those of
 * the manifests) and converts custom resources as kube-apiserver's CRD handler does on a read or write at
 * another version: one ConversionReview per object to a Webhook strategy's webhook (re-pointed at the
 * harness's target as admission webhooks are), the apiVersion alone rewritten for strategy None.
 */
export function conversionCapability(catalog: ResourceCatalog): ConversionCapability {
  const webhooks: ConversionWebhook[] = [];
  for (const conversion of conversionsOf(catalog).values()) {
    if (conversion.strategy === 'Webhook' && conversion.webhook) webhooks.push({ crd: conversion.crd, ...conversion.webhook });
  }
  return {
    webhooks,
    clientConfigs: webhooks.map((w) => w.clientConfig),
    async convert(given, toVersion, deps) {
      const objects = Array.isArray(given) ? (given as readonly KubeObject[]) : [given as KubeObject];
      // Every object is checked before any review is sent: a typo is the test's error, not the webhook's.
      const plans = objects.map((object, index) => planConversion(catalog, object, index, toVersion));
      const result: ConversionResult = { ok: true, objects: [], outcomes: [] };
      for (const plan of plans) {
        if (!plan.webhook) {
          result.objects.push(plan.object.apiVersion === plan.desired ? plan.object : { ...plan.object, apiVersion: plan.desired });
          continue;
        }
        const { route, ca } = await deps.connection({ name: `conversion_webhook_for_${plan.webhook.crd}`, clientConfig: plan.webhook.clientConfig });
        const outcome = await convertObject(plan.webhook, plan.object, plan.desired, deps.uuid(), {
          route,
          ca,
          agents: deps.agents,
          timeScale: deps.timeScale,
        });
        result.outcomes.push(outcome);
        if (outcome.error) return { ...result, ok: false, error: outcome.error };
        result.objects.push(outcome.converted as KubeObject);
      }
      return result;
    },
  };
}

interface Plan {
  object: KubeObject;
  desired: string;
  /** Absent when no review is sent: the object is at the version already, or is empty, or its CRD converts with None. */
  webhook?: ConversionWebhook;
}

/** What kube-apiserver's converter does with one object (converter.go `ConvertToVersion`, webhook_converter.go `Convert`). */
function planConversion(catalog: ResourceCatalog, object: KubeObject, index: number, toVersion: string): Plan {
  const where = `h.convert: objects[${index}]`;
  if (!object || typeof object !== 'object' || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
    throw new HarnessError('USAGE', `${where}: an object needs apiVersion and kind`, 'pass custom resources as the API serves them');
  }
  const [group, version] = splitApiVersion(object.apiVersion);
  const entry = catalog.resourceForKind({ group, version, kind: object.kind });
  const conversion = entry?.conversion;
  if (!conversion) {
    const why = entry ? 'is no custom resource' : 'is served by no CustomResourceDefinition of the manifests';
    throw new HarnessError(
      'USAGE',
      `${where}: ${object.apiVersion} ${object.kind} ${why}`,
      'pass the CustomResourceDefinition in createHarness({ manifests })',
    );
  }
  const [toGroup, target] = toVersion.includes('/') ? splitApiVersion(toVersion) : [group, toVersion];
  const valid = conversion.versions.join(', ');
  if (toGroup !== group || !conversion.versions.includes(target)) {
    throw new HarnessError(
      'USAGE',
      `${where}: request to convert CR to an invalid group/version: ${toGroup}/${target}`,
      `${conversion.crd} declares the versions ${valid}`,
    );
  }
  if (!conversion.versions.includes(version)) {
    throw new HarnessError(
      'USAGE',
      `${where}: request to convert CR from an invalid group/version: ${object.apiVersion}`,
      `${conversion.crd} declares the versions ${valid}`,
    );
  }
  const desired = `${group}/${target}`;
  // An object with nothing but apiVersion and kind is never sent (webhook_converter.go isEmptyUnstructuredObject).
  const empty = Object.keys(object).length === 2;
  if (object.apiVersion === desired || empty || conversion.strategy !== 'Webhook' || !conversion.webhook) return { object, desired };
  return { object, desired, webhook: { crd: conversion.crd, ...conversion.webhook } };
}

export { roundTrip } from './round-trip';
export type { Converter, RoundTrip } from './round-trip';
export { convertList } from './convert-list';
export type { ListConversionOutcome } from './convert-list';
