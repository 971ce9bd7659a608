// The webhook the recordings in test/fixtures/apiserver-outcomes and apiserver-policies were made with: one HTTPS server whose
// behaviour is the URL path `/b/<behaviour>`, each behaviour answering exactly as recorded (the
// fixtures' `webhookCalls[].patchOpsDecoded`). It records every review it receives, by behaviour.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdmissionReview, JsonPatchOperation, KubeObject } from '../../lib/kube/admission';
import { answer, base64Patch, scriptedWebhook } from './handlers';

const SIDECAR = { name: 'foo-sidecar', image: 'registry.example.com/sidecar:1.0' };

function hasLabel(object: KubeObject | null | undefined, key: string): boolean {
  return object?.metadata?.labels?.[key] !== undefined;
}

function hasSidecar(object: KubeObject | null | undefined): boolean {
  const containers = (object as { spec?: { containers?: { name?: string }[] } } | null | undefined)?.spec?.containers ?? [];
  return containers.some((c) => c.name === SIDECAR.name);
}

/** Each behaviour's patch for the object it is sent; undefined answers without one. */
export const BEHAVIOURS: Record<string, (object: KubeObject | null | undefined) => JsonPatchOperation[] | undefined> = {
  allow: () => undefined,
  'log-allow': () => undefined,
  'label-blind': () => [{ op: 'add', path: '/metadata/labels/b-added', value: 'true' }],
  'label-idempotent': (object) => (hasLabel(object, 'b-added') ? undefined : [{ op: 'add', path: '/metadata/labels/b-added', value: 'true' }]),
  'label-wh-if-absent': (object) => (hasLabel(object, 'wh-added') ? undefined : [{ op: 'add', path: '/metadata/labels/wh-added', value: 'true' }]),
  'empty-list': () => [{ op: 'add', path: '/spec/readinessGates', value: [] }],
  'noop-replace': () => [{ op: 'replace', path: '/metadata/labels/app', value: 't' }],
  'unknown-field': () => [{ op: 'add', path: '/spec/bogusField', value: 1 }],
  'wrong-type-labels': () => [{ op: 'replace', path: '/metadata/labels', value: 'oops' }],
  'wrong-type-replicas': () => [{ op: 'replace', path: '/spec/replicas', value: 'three' }],
  'remove-name': () => [{ op: 'remove', path: '/metadata/name' }],
  'replace-missing-labels': () => [{ op: 'replace', path: '/metadata/labels', value: { replaced: 'yes' } }],
  'sidecar-privileged': () => [
    {
      op: 'add',
      path: '/spec/containers/-',
      value: { name: 'priv-sidecar', image: 'registry.example.com/sidecar:1.0', securityContext: { privileged: true } },
    },
  ],
  'sidecar-nonrestricted': () => [{ op: 'add', path: '/spec/containers/-', value: { name: 'plain-sidecar', image: 'registry.example.com/sidecar:1.0' } }],
  'sidecar-noresources': () => [{ op: 'add', path: '/spec/containers/-', value: { name: 'sidecar', image: 'registry.example.com/sidecar:1.0' } }],
  'sidecar-blind': () => [{ op: 'add', path: '/spec/containers/-', value: SIDECAR }],
  'sidecar-if-absent': (object) => (hasSidecar(object) ? undefined : [{ op: 'add', path: '/spec/containers/-', value: SIDECAR }]),
};

export interface BehaviourCall {
  behaviour: string;
  review: AdmissionReview;
}

/** The recording webhook: answers by behaviour and keeps every review it was sent, in order. */
export function behaviourWebhook(): { handler: (req: IncomingMessage, res: ServerResponse) => void; calls: BehaviourCall[] } {
  const calls: BehaviourCall[] = [];
  const { handler } = scriptedWebhook((review, url) => {
    const behaviour = /^\/b\/([^?]+)/.exec(url)?.[1] ?? '';
    calls.push({ behaviour, review });
    const patchFor = BEHAVIOURS[behaviour];
    if (!patchFor) return { raw: '', status: 404 };
    const patch = patchFor(review.request?.object);
    return answer(review, patch ? { patchType: 'JSONPatch', patch: base64Patch(patch) } : {});
  });
  return { handler, calls };
}
