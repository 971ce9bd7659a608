/**
 * A recorded call whose `kind`/`resource` (what the webhook's rules matched) are another version than its
 * `requestKind`/`requestResource` (what the client asked for): kube-apiserver matched the webhook through an
 * equivalent resource (matchPolicy Equivalent) and sent it the object converted to that version
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook.go `ShouldCallHook`, request/admissionreview.go
 * `CreateAdmissionObjects`). Replay sends it the same way, through h.call's `matched`.
 */
import type { MatchedVersion } from '../dispatch/versioned';
import type { AdmissionRequest } from '../kube/admission';
import { isRecord } from '../kube/json';

const TRIPLES = [
  ['kind', 'requestKind', 'kind'],
  ['resource', 'requestResource', 'resource'],
] as const;

/**
 * What is wrong with the recorded `kind` and `resource` when the request also records what the client asked
 * for (reviewFromRequest reads only the latter then): each must be a {group, version, kind|resource} too.
 */
export function matchedProblems(request: Record<string, unknown>): { member: string; message: string }[] {
  return TRIPLES.flatMap(([member, requested, name]) => {
    const value = request[member];
    if (request[requested] === undefined || value === undefined) return [];
    const valid =
      isRecord(value) && typeof value.version === 'string' && typeof value[name] === 'string' && ['string', 'undefined'].includes(typeof value.group);
    return valid ? [] : [{ member, message: `Required value: {group, version, ${name}}` }];
  });
}

/** The kind and resource the recorded webhook was sent, when the request records the client's too; else undefined (they are one). */
export function matchedOf(request: AdmissionRequest): MatchedVersion | undefined {
  if (!request.requestKind && !request.requestResource) return undefined;
  // reviewFromRequest has read the client's request from the requested member, or else from this one.
  const kind = request.kind ?? request.requestKind;
  const resource = request.resource ?? request.requestResource;
  if (!kind || !resource) return undefined;
  return {
    kind: { group: kind.group ?? '', version: kind.version, kind: kind.kind },
    resource: { group: resource.group ?? '', version: resource.version, resource: resource.resource },
  };
}
