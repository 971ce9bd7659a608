import { validateConfiguration } from '../config/validate';
import { HarnessError } from '../errors';
import type { RuleWithOperations, ServiceReference, ValidatingWebhook, ValidatingWebhookConfiguration } from '../kube/webhook-config';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

export const DEFAULT_CONFIGURATION_NAME = 'admission-harness-recorder';
export const DEFAULT_WEBHOOK_NAME = 'recorder.admission-harness.io';

/** Every operation on every resource and subresource of every group and version, in both scopes. */
export const EVERYTHING: readonly RuleWithOperations[] = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: '*' }];

/**
 * A ValidatingWebhookConfiguration that is also a plain JSON object: `createHarness({ manifests })` and
 * YAML writers take it as is.
 */
export type RecorderConfiguration = ValidatingWebhookConfiguration & Record<string, unknown>;

export interface RecorderConfigurationOptions {
  /** metadata.name; `admission-harness-recorder` by default. */
  name?: string;
  /** The webhook's name (a domain of three segments or more); `recorder.admission-harness.io` by default. */
  webhookName?: string;
  /** Where kube-apiserver calls it: a URL (https)… */
  url?: string;
  /** …or a service, for a recorder running in the cluster. Exactly one of the two. */
  service?: ServiceReference;
  /** Base64 of the PEM CA the recorder's serving certificate chains to, as kube reads `caBundle`. */
  caBundle?: string;
  /** The requests to record; every operation on `*` `/` `*` by default. */
  rules?: RuleWithOperations[];
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
  /** 5 by default: the recorder answers at once, and a request should not wait long on it if it cannot. */
  timeoutSeconds?: number;
}

/**
 * The ValidatingWebhookConfiguration that sends kube-apiserver's requests to a recorder, ready to
 * apply. Validating, so the recorder can change nothing; `failurePolicy: Ignore`, so a recorder
 * stopped or unreachable never fails a request; `sideEffects: None` (it only writes files on its own
 * side), so dryRun requests are recorded too; both review versions, v1 first, as kube-apiserver picks
 * the first it knows. Throws when the result would not pass the API's validation.
 */
export function recorderConfiguration(options: RecorderConfigurationOptions = {}): RecorderConfiguration {
  if ((options.url === undefined) === (options.service === undefined)) {
    throw new HarnessError(
      'USAGE',
      'recorderConfiguration needs exactly one of url and service',
      "the recorder's `url` (startRecorder gives it) or the service it runs behind",
    );
  }
  const webhook: ValidatingWebhook = {
    name: options.webhookName ?? DEFAULT_WEBHOOK_NAME,
    clientConfig: {
      ...(options.url !== undefined ? { url: options.url } : { service: { ...(options.service as ServiceReference) } }),
      ...(options.caBundle ? { caBundle: options.caBundle } : {}),
    },
    rules: (options.rules ?? EVERYTHING).map((rule) => structuredClone(rule)),
    failurePolicy: 'Ignore',
    ...(options.namespaceSelector ? { namespaceSelector: structuredClone(options.namespaceSelector) } : {}),
    ...(options.objectSelector ? { objectSelector: structuredClone(options.objectSelector) } : {}),
    sideEffects: 'None',
    timeoutSeconds: options.timeoutSeconds ?? 5,
    admissionReviewVersions: ['v1', 'v1beta1'],
  };
  const configuration: RecorderConfiguration = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: options.name ?? DEFAULT_CONFIGURATION_NAME },
    webhooks: [webhook],
  };
  const errors = validateConfiguration(configuration, false);
  if (errors.length > 0) {
    throw new HarnessError('USAGE', `the recorder's configuration would be refused by the API:\n${errors.map((e) => `  ${e.path}: ${e.message}`).join('\n')}`);
  }
  return configuration;
}
