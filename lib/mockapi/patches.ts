import { cannotUnmarshal } from '../go/json-errors';
import { goJsonSyntaxError } from '../go/json-scanner';
import { applyJsonPatch, decodeJsonPatch } from '../patch';
import { isObject, type Json, type JsonObject } from '../kube/json';
import { mergePatch } from '../patch';
import { ApiError, badRequest, internalError, patchRejected, unsupportedMediaType } from '../kube/status';
import { strategicMerge, StrategicMergeError } from '../patch';
import { routeUnsupportedMediaType } from './negotiation';

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

const CONTENT_TYPES: Readonly<Record<string, PatchType>> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
};

/**
 * The patch type a PATCH's Content-Type asks for, or the 415 kube-apiserver answers. Custom resources have no
 * Go struct tags to merge by, so they do not accept strategic merge patches.
 */
export function patchTypeOf(contentType: string | null, strategicAllowed: boolean): PatchType {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const accepted = Object.keys(CONTENT_TYPES).filter((type) => strategicAllowed || CONTENT_TYPES[type] !== 'strategic');
  const type = accepted.includes(mediaType) ? CONTENT_TYPES[mediaType] : undefined;
  // Built-in resources are go-restful routes, whose Consumes list refuses the type before the patch handler
  // runs; custom resources reach the handler, which lists the types it takes (handlers/patch.go).
  if (!type) throw new ApiError(strategicAllowed ? routeUnsupportedMediaType() : unsupportedMediaType(accepted));
  return type;
}

function parseJson(body: string, invalid: (syntaxError: string) => never): Json {
  const syntaxError = goJsonSyntaxError(new TextEncoder().encode(body));
  if (syntaxError !== undefined) invalid(syntaxError);
  return JSON.parse(body) as Json;
}

/**
 * Applies a JSON, merge or strategic merge patch to `current` as kube-apiserver's patch handler does,
 * throwing the ApiError it would answer with. (Apply patches are merged by the caller, which may create.)
 */
export function applyPatch(type: Exclude<PatchType, 'apply'>, current: JsonObject, body: string, kind: { group: string; kind: string }): Json {
  switch (type) {
    case 'json': {
      const decoded = decodeJsonPatch(body);
      if (!decoded.ok) throw new ApiError(badRequest(decoded.error));
      const applied = applyJsonPatch(current, decoded.ops);
      if (!applied.ok) throw new ApiError(patchRejected());
      return applied.document as Json;
    }
    case 'merge': {
      // evanphx/json-patch reports every undecodable merge patch as ErrBadJSONPatch.
      const patch = parseJson(body, () => {
        throw new ApiError(badRequest('Invalid JSON Patch'));
      });
      return mergePatch(current, patch);
    }
    case 'strategic': {
      const patch = parseJson(body, (syntaxError) => {
        throw new ApiError(badRequest(syntaxError));
      });
      // json.Unmarshal leaves a map nil for `null`, an empty patch; any other non-object fails to decode.
      if (patch === null) return current;
      if (!isObject(patch)) throw new ApiError(badRequest(cannotUnmarshal(patch, 'map[string]interface {}')));
      try {
        return strategicMerge(current, patch, kind);
      } catch (error) {
        if (error instanceof StrategicMergeError) throw new ApiError(internalError(error.message));
        throw error;
      }
    }
  }
}
