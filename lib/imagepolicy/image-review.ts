import { goMap, goMarshal } from '../go/json-marshal';
import type { AdmissionAttributes } from '../kube/attributes';

/** imagepolicy.k8s.io/v1alpha1 ImageReviewSpec, members in the Go struct's order. */
export interface ImageReviewSpec {
  containers?: { image?: string }[];
  annotations?: Record<string, string>;
  namespace?: string;
}

/** imagepolicy.k8s.io/v1alpha1 ImageReviewStatus. */
export interface ImageReviewStatus {
  allowed: boolean;
  reason?: string;
  auditAnnotations?: Record<string, string>;
}

/** imagepolicy.k8s.io/v1alpha1 ImageReview, as sent to the backend. */
export interface ImageReview {
  kind: 'ImageReview';
  apiVersion: 'imagepolicy.k8s.io/v1alpha1';
  metadata: Record<string, never>;
  spec: ImageReviewSpec;
  status: ImageReviewStatus;
}

/** Why the plugin leaves a request alone (plugin/pkg/admission/imagepolicy admission.go `Validate`), or undefined when it reviews it. */
export function ignoredBecause(attributes: Pick<AdmissionAttributes, 'operation' | 'resource' | 'subResource'>): string | undefined {
  if (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE') return `the plugin handles CREATE and UPDATE, not ${attributes.operation}`;
  if (attributes.resource.group !== '' || attributes.resource.resource !== 'pods') return 'the plugin reviews pods only';
  if (attributes.subResource !== '' && attributes.subResource !== 'ephemeralcontainers') return `the plugin ignores pods/${attributes.subResource}`;
  return undefined;
}

interface PodShape {
  metadata?: { annotations?: Record<string, string> };
  spec?: { containers?: { image?: string }[]; initContainers?: { image?: string }[]; ephemeralContainers?: { image?: string }[] };
}

/** Only keys of the form `*.image-policy.k8s.io/*` reach the backend (`filterAnnotations`: a substring test). */
export function filterAnnotations(annotations: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(annotations ?? {}).filter(([key]) => key.includes('.image-policy.k8s.io/')));
}

/**
 * The ImageReview the plugin builds for a pod: containers then initContainers, or for
 * pods/ephemeralcontainers the ephemeral containers alone; the filtered annotations; the request's
 * namespace. Empty members are left out as Go's `omitempty` leaves them; a zero status is always there.
 */
export function buildImageReview(pod: PodShape, subResource: string, namespace: string): ImageReview {
  const spec = pod.spec ?? {};
  const listed = subResource === 'ephemeralcontainers' ? (spec.ephemeralContainers ?? []) : [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
  const containers = listed.map((c) => (c.image ? { image: c.image } : {}));
  const annotations = goMap(filterAnnotations(pod.metadata?.annotations));
  const reviewSpec: ImageReviewSpec = {
    ...(containers.length > 0 ? { containers } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    ...(namespace ? { namespace } : {}),
  };
  return { kind: 'ImageReview', apiVersion: 'imagepolicy.k8s.io/v1alpha1', metadata: {}, spec: reviewSpec, status: { allowed: false } };
}

/** The cache's key: `json.Marshal(review.Spec)`, so two pods with the same images, filtered annotations and namespace share an answer. */
export function cacheKey(review: ImageReview): string {
  return goMarshal(review.spec as Parameters<typeof goMarshal>[0]);
}

/** The request body as the generic webhook's JSON encoder writes it: compact, map keys sorted, a trailing newline. */
export function encodeImageReview(review: ImageReview): string {
  return `${goMarshal(review as unknown as Parameters<typeof goMarshal>[0])}\n`;
}
