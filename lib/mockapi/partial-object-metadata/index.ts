import { isObject, type JsonObject } from '../../kube/json';
import type { ApiStatus } from '../../kube/status';
import { transformNotAcceptable } from '../negotiation';
import type { Route } from '../paths';
import { embeddedObjectsStream } from '../watch/embedded-objects';
import { goTypeNameOf } from './go-type-name';
import { isListBody, type MetaVersion, partialObjectMetadata, partialObjectMetadataList } from './partial';

/*
 * Metadata-only answers (`Accept: application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1`, what client-go's
 * metadata client and controller-runtime's metadata-only caches ask for) as kube-apiserver makes them (apiserver
 * pkg/endpoints/handlers/response.go, doTransformObject): for every resource endpoint, subresources included, once
 * the answer is a success — get, list and watch, and the object a write answers with. A Status passes as it is.
 */

export type { MetaVersion } from './partial';
export { partialObjectMetadata, listMetaOf, isListBody } from './partial';

/** The representation asked for: one object's PartialObjectMetadata, or a list's PartialObjectMetadataList. */
export interface PartialMetadataTarget {
  kind: 'PartialObjectMetadata' | 'PartialObjectMetadataList';
  version: MetaVersion;
}

type Served = { code: number; json: unknown; warnings?: readonly string[] } | { code: number; stream: ReadableStream<Uint8Array> };

/**
 * asPartialObjectMetadata and asPartialObjectMetadataList: the body made into `target`, or kube's 406 when the
 * kind asked for does not fit it (negotiation takes either kind at every endpoint, so the mismatch shows here).
 */
function converted(body: JsonObject, route: Route, target: PartialMetadataTarget): { object: JsonObject } | { refused: ApiStatus } {
  const list = isListBody(body, route.entry);
  const refused = (message: string) => ({ refused: transformNotAcceptable(`${message} (${goTypeNameOf(body, route.entry, list)})`) });
  if (target.kind === 'PartialObjectMetadata') {
    return list ? refused('you requested PartialObjectMetadata, but the requested object is a list') : { object: partialObjectMetadata(body, target.version) };
  }
  if (!list) return refused('you requested PartialObjectMetadataList, but the requested object is not a list');
  return { object: partialObjectMetadataList(body, target.version) };
}

/**
 * A successful answer as metadata. A watch's events each carry their object's PartialObjectMetadata; asked for a
 * PartialObjectMetadataList instead, every event's conversion fails and kube's watch encoder, logging it, writes
 * the object as it is (watchEmbeddedEncoder.doEncode).
 */
export function servedAsPartialObjectMetadata(served: Served, route: Route, target: PartialMetadataTarget): Served {
  if ('stream' in served) {
    const events = embeddedObjectsStream((object) => {
      const made = object && converted(object, route, target);
      return made && 'object' in made ? made.object : undefined;
    });
    return { code: served.code, stream: served.stream.pipeThrough(events) };
  }
  const body = served.json;
  if (!isObject(body) || body.kind === 'Status') return served;
  const made = converted(body, route, target);
  // Warnings (admission's, on a write) go out in headers whatever the body becomes.
  return 'refused' in made ? { code: made.refused.code, json: made.refused } : { ...served, json: made.object };
}
