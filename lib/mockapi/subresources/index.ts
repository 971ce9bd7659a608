/**
 * The `status` and `scale` subresources of the mock API: each is a view of its parent object, read with
 * GET and written with PUT or PATCH (a patch applied to the view, as kube-apiserver's patcher applies it
 * to what the subresource's Get answers). Other subresources answer 404, as paths nothing serves.
 */
import type { KubeObject } from '../../kube/admission';
import type { CatalogEntry } from '../../kube/catalog';
import { isObject, type JsonObject } from '../../kube/json';
import { ApiError, badRequest, methodNotAllowed, pathNotFound } from '../../kube/status';
import { parseYamlBody } from '../yaml-body';
import { mergePatch } from '../../patch';
import type { Verb } from '../faults';
import { applyPatch, patchTypeOf } from '../patches';
import { isBuiltin } from '../store';
import type { WriteStage } from '../writes';
import { bindPod, evictPod } from './pod-actions';
import { readScale, writeScale } from './scale';
import { readStatus, writeStatus } from './status';

/** A subresource as a view of its parent: what GET answers and what a PUT of that view stores. */
interface SubresourceView {
  /** The kind strategic merge patches of the view merge as. */
  kind(entry: CatalogEntry): { group: string; kind: string };
  read(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string): KubeObject;
  write(stage: WriteStage, entry: CatalogEntry, namespace: string, name: string, body: KubeObject, dryRun: boolean): KubeObject;
}

const VIEWS: Readonly<Record<string, SubresourceView>> = {
  status: { kind: (entry) => entry, read: readStatus, write: writeStatus },
  scale: { kind: () => ({ group: 'autoscaling', kind: 'Scale' }), read: readScale, write: writeScale },
};

const POD_ACTIONS: Readonly<Record<string, typeof bindPod>> = { binding: bindPod, eviction: evictPod };

/** One request to `<resource>/<name>/<subresource>`. */
export interface SubresourceCall {
  entry: CatalogEntry;
  namespace: string;
  name: string;
  subresource: string;
  verb: Verb;
  contentType: string | null;
  /** The body, already parsed as JSON for a PUT. */
  body: string;
  decoded: () => KubeObject;
  dryRun: boolean;
}

/** Serves a subresource request; the answer's code and body. */
export function serveSubresource(stage: WriteStage, call: SubresourceCall): { code: number; body: KubeObject } {
  const { entry, namespace, name } = call;
  const action = entry.group === '' && entry.resource === 'pods' ? POD_ACTIONS[call.subresource] : undefined;
  if (action) {
    if (call.verb !== 'create') throw new ApiError(methodNotAllowed());
    return { code: 201, body: action(stage, entry, namespace, name, call.decoded(), call.dryRun) };
  }
  const view = entry.subresources.some((sub) => sub.name === call.subresource) ? VIEWS[call.subresource] : undefined;
  // Scale views of custom resources follow paths their CRD names, which the catalog does not carry.
  if (!view || (call.subresource === 'scale' && entry.schema !== undefined)) throw new ApiError(pathNotFound());
  switch (call.verb) {
    case 'create':
      throw new ApiError(methodNotAllowed());
    case 'get':
      return { code: 200, body: view.read(stage, entry, namespace, name) };
    case 'update':
      return { code: 200, body: view.write(stage, entry, namespace, name, call.decoded(), call.dryRun) };
    case 'patch': {
      const current = view.read(stage, entry, namespace, name) as JsonObject;
      const patched = patchedView(call, current, view.kind(entry), isBuiltin(entry));
      return { code: 200, body: view.write(stage, entry, namespace, name, patched, call.dryRun) };
    }
    default:
      throw new ApiError(methodNotAllowed());
  }
}

function patchedView(call: SubresourceCall, current: JsonObject, kind: { group: string; kind: string }, strategicAllowed: boolean): KubeObject {
  const type = patchTypeOf(call.contentType, strategicAllowed);
  if (type !== 'apply') {
    const patched = applyPatch(type, current, call.body, kind);
    if (!isObject(patched)) throw new ApiError(badRequest('Invalid JSON Patch'));
    return patched as KubeObject;
  }
  // Server-side apply of a subresource, approximated as a merge of the applied configuration.
  let applied: unknown;
  try {
    applied = parseYamlBody(call.body).value;
  } catch (error) {
    throw new ApiError(badRequest((error as Error).message));
  }
  if (!isObject(applied)) throw new ApiError(badRequest('the applied configuration is not an object'));
  return mergePatch(current, applied) as KubeObject;
}
