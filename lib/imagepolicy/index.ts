import type { AdmissionAttributes } from '../kube/attributes';
import type { KubeObject } from '../kube/admission';
import type { ConfiguredValidationPlugin } from '../dispatch/context';
import { HarnessError } from '../errors';
import { SeededRandom } from '../random';
import { Review } from '../review/review';
import type { InProcessApp } from '../target/adapt';
import type { UrlTarget } from '../target/targets';
import type { CertificateAuthority } from '../tls';
import type { ImagePolicyClock } from './clock';
import type { ImagePolicySettings } from './config';
import { connectImagePolicyBackend } from './connect';
import { ImagePolicyPlugin, type ImageReviewOutcome } from './plugin';

export { manualClock, realClock } from './clock';
export type { ImagePolicyClock, ManualClock } from './clock';
export type { ImageReviewOutcome } from './plugin';
export type { ImageReview, ImageReviewSpec, ImageReviewStatus } from './image-review';
export { AUDIT_KEY_PREFIX, FAILED_OPEN_ANNOTATION } from './plugin';

/**
 * `createHarness({ imagePolicy })`: run kube-apiserver's ImagePolicyWebhook plugin against a backend.
 */
export interface ImagePolicyOptions {
  /**
   * The AdmissionConfiguration given to kube-apiserver (`--admission-control-config-file`), as a file
   * path or an object, with its ImagePolicyWebhook entry; or the plugin's own configuration
   * (`ImagePolicyWebhookConfiguration`, `{ imagePolicy: {…} }`).
   */
  admissionConfig: string | object;
  /**
   * The backend: an in-process handler or Express/Koa/Fastify app (served over TLS with a certificate
   * for the kubeconfig server's host), or `{ url, ca }` of a running one. The server of the kubeconfig
   * is re-pointed here: its host, path and `?timeout=` stay as written.
   */
  target: InProcessApp | UrlTarget;
  /** The backend's kubeconfig (path or object), instead of the file `imagePolicy.kubeConfigFile` names. */
  kubeconfig?: string | object;
  /** Time for the waits between retries and the cache's TTLs: `manualClock()` steps through them without waiting. */
  clock?: ImagePolicyClock;
}

/** The capability as the harness holds it: absent options give one that explains how to turn it on. */
export interface ImagePolicyCapability {
  readonly settings?: ImagePolicySettings;
  /** The backend's server as its kubeconfig writes it (before the harness re-points it), when configured. */
  readonly server?: string;
  /** The plugins it adds to the validation phase (none when not configured). */
  readonly plugins: readonly ConfiguredValidationPlugin[];
  /** `h.imageReview(pod | review)`: the plugin alone on one pod (a CREATE) or request. */
  review(input: KubeObject | Review): Promise<ImageReviewOutcome>;
  close(): Promise<void>;
}

const NOT_CONFIGURED: ImagePolicyCapability = {
  plugins: [],
  review: async () => {
    throw new HarnessError(
      'USAGE',
      'h.imageReview needs the ImagePolicyWebhook plugin configured',
      "pass createHarness({ imagePolicy: { admissionConfig: 'admission.yaml', target: backend } })",
    );
  },
  close: async () => undefined,
};

function attributesOf(input: KubeObject | Review): AdmissionAttributes {
  if (input instanceof Review) return input.attributes;
  if (!input || typeof input !== 'object' || input.kind !== 'Pod') {
    throw new HarnessError(
      'USAGE',
      `h.imageReview takes a Pod or a Review, got ${JSON.stringify((input as KubeObject | undefined)?.kind ?? input)}`,
      'pass objects.pod(…) or review.update(old, pod, { subResource: "ephemeralcontainers" })',
    );
  }
  const name = input.metadata?.name ?? '';
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: '',
    name,
    namespace: input.metadata?.namespace ?? 'default',
    userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
    object: input,
    oldObject: null,
    dryRun: false,
    options: null,
  };
}

/**
 * Starts ImagePolicyWebhook for a harness when `options` configure it: reads the configuration and the
 * backend's kubeconfig, serves an in-process backend on loopback TLS, and builds the plugin.
 */
export async function imagePolicyCapability(
  options: ImagePolicyOptions | undefined,
  shared: {
    authority: CertificateAuthority;
    seed: number;
    timeScale: number;
    /** Told what the plugin made of each request, in h.admit or h.imageReview (the harness's coverage). */
    observe?: (attributes: AdmissionAttributes, outcome: ImageReviewOutcome) => void;
  },
): Promise<ImagePolicyCapability> {
  if (!options) return NOT_CONFIGURED;
  const backend = await connectImagePolicyBackend(options, shared);
  const { settings } = backend;
  const plugin = new ImagePolicyPlugin(settings, backend.context, new SeededRandom(shared.seed));
  const validate = async (attributes: AdmissionAttributes): Promise<ImageReviewOutcome> => {
    const outcome = await plugin.validate(attributes);
    shared.observe?.(attributes, outcome);
    return outcome;
  };
  return {
    settings,
    server: backend.context.server,
    plugins: [
      {
        name: 'ImagePolicyWebhook',
        validate: async (attributes) => {
          const outcome = await validate(attributes);
          return { ...(outcome.status ? { status: outcome.status } : {}), auditAnnotations: outcome.auditAnnotations };
        },
      },
    ],
    review: (input) => validate(attributesOf(input)),
    close: () => backend.close(),
  };
}
