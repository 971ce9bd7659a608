import type { GroupVersionKind } from '../kube/admission';
import { joinApiVersion } from '../kube/api-version';
import type { JsonObject } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { decodeTyped } from './decode';
import { structForKind } from './schema/table';

/** A patched object decoded as kube-apiserver decodes it into its kind, or the decoder's error. */
export type DecodedObject = { ok: true; object: JsonRecord; dropped: string[] } | { ok: false; message: string };

/**
 * `jsonSerializer.Decode(patchedJS, nil, newVersionedObject)` in callAttrMutatingHook: a built-in kind
 * into its Go type and written back as Go writes it (lib/registry/decode: a type error fails with
 * Go's text; unknown fields, nulls and empty lists and maps are dropped). A custom resource, or a kind
 * the published schemas lack (the CONNECT options kinds), stays an unstructured map.
 */
export function decodeObject(kind: GroupVersionKind, json: JsonRecord, schema: unknown): DecodedObject {
  const apiVersion = joinApiVersion(kind);
  if (schema !== undefined || !structForKind(apiVersion, kind.kind)) return { ok: true, object: json, dropped: [] };
  const decoded = decodeTyped(apiVersion, kind.kind, json as JsonObject);
  if (!decoded.ok) return decoded;
  return { ok: true, object: decoded.object as JsonRecord, dropped: decoded.dropped };
}
