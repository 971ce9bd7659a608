/**
 * Mutating webhooks for pods, broken the ways the Kubernetes documentation warns about
 * (Dynamic Admission Control › Idempotence), and one that is not.
 */
import type { RequestListener } from 'node:http';
import type { AdmissionReview, JsonPatchOperation } from '../../lib/kube/admission';
import { answer, base64Patch, scriptedWebhook, type Answer } from './handlers';

interface PodShape {
  metadata?: { labels?: Record<string, string> };
  spec?: { containers?: { name: string }[] };
}

type Decision = JsonPatchOperation[] | { deny: string };

export const SIDECAR = { name: 'foo-sidecar', image: 'registry.example.com/foo-sidecar:1.0' };
export const MESH_PROXY = { name: 'mesh-proxy', image: 'registry.example.com/mesh-proxy:2.1' };

/** A webhook answering each review with the decision `decide` takes on its pod. */
function podWebhook(decide: (pod: PodShape) => Decision): (review: AdmissionReview) => Answer {
  return (review) => {
    const decision = decide((review.request?.object ?? {}) as PodShape);
    if ('deny' in decision) return answer(review, { allowed: false, status: { code: 403, reason: 'Forbidden', message: decision.deny } });
    return decision.length === 0 ? answer(review) : answer(review, { patch: base64Patch(decision), patchType: 'JSONPatch' });
  };
}

const containersOf = (pod: PodShape): { name: string }[] => pod.spec?.containers ?? [];
const appendSidecar = (value: object = SIDECAR): JsonPatchOperation[] => [{ op: 'add', path: '/spec/containers/-', value }];

/** Docs example (c): appends foo-sidecar without looking for an existing one. */
export const appendsSidecarBlindly = podWebhook(() => appendSidecar());

/**
 * Docs example (a): a sidecar named with a timestamp suffix. It does look for its sidecar, but under
 * this call's name, which never matches. A counter stands in for the clock, for determinism.
 */
export function suffixesSidecarName(): (review: AdmissionReview) => Answer {
  let calls = 0;
  return podWebhook((pod) => {
    const name = `foo-sidecar-${++calls}`;
    return containersOf(pod).some((c) => c.name === name) ? [] : appendSidecar({ ...SIDECAR, name });
  });
}

/** A label derived from its current value: every call appends the suffix once more. */
export const appendsToLabel = podWebhook((pod) => [
  { op: 'replace', path: '/metadata/labels/track', value: `${pod.metadata?.labels?.track ?? 'stable'}-canary` },
]);

/** Docs example (b): rejects pods labelled `env` and labels the others `env: prod`, so it rejects its own output. */
export const rejectsItsOwnLabel = podWebhook((pod) =>
  pod.metadata?.labels?.env !== undefined ? { deny: 'pods may not set the env label' } : [{ op: 'add', path: '/metadata/labels/env', value: 'prod' }],
);

/** Looks for its sidecar in the last position only: right when alone, fooled by a peer that appends after it. */
export const checksLastContainerOnly = podWebhook((pod) => (containersOf(pod).at(-1)?.name === SIDECAR.name ? [] : appendSidecar()));

/** Keeps its sidecar at index 1 by overwriting whatever is there, a peer's container included. */
export const ownsIndexOne = podWebhook((pod) => {
  const containers = containersOf(pod);
  if (containers[1]?.name === SIDECAR.name) return [];
  return [{ op: containers.length > 1 ? 'replace' : 'add', path: '/spec/containers/1', value: SIDECAR }];
});

/** Adds its sidecar and its label only when they are missing. */
export const addsWhatIsMissing = podWebhook((pod) => {
  const ops: JsonPatchOperation[] = [];
  if (!containersOf(pod).some((c) => c.name === SIDECAR.name)) ops.push(...appendSidecar());
  if (pod.metadata?.labels?.env === undefined) ops.push({ op: 'add', path: '/metadata/labels/env', value: 'prod' });
  return ops;
});

/** One in-process target serving each webhook at its own path, as one deployment often serves several. */
export function serve(routes: Record<string, (review: AdmissionReview) => Answer>): RequestListener {
  const handlers = new Map(Object.entries(routes).map(([path, reply]) => [path, scriptedWebhook(reply).handler]));
  return (req, res) => {
    const handler = handlers.get(new URL(req.url ?? '/', 'https://webhook.local').pathname);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  };
}
