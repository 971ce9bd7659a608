import type { KubeObject } from '../../kube/admission';
import { joinApiVersion } from '../../kube/api-version';
import type { CatalogEntry } from '../../kube/catalog';
import { ApiError, internalError } from '../../kube/status';
import { encodeEvent, type WatchEvent } from '../watch/events';

/** An object of a watch event at the served version; undefined to leave the event out. Throws ApiError on a failed conversion. */
export type EventDecoder = (object: KubeObject) => Promise<KubeObject | undefined>;

/**
 * A watch at the storage version, re-served at `served`'s: each object event decoded one at a time in order
 * (one ConversionReview each without the watch cache), bookmarks relabelled. A conversion that fails ends the
 * watch with an ERROR event carrying an internal error, as etcd3's watcher reports an event it cannot decode
 * (apiserver `pkg/storage/etcd3/watcher.go`, transform errors sent with `sendError`).
 */
export function convertedWatch(source: ReadableStream<Uint8Array>, served: CatalogEntry, decode: EventDecoder): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder();
  let buffered = '';
  let ended = false;
  const apiVersion = joinApiVersion(served);
  const convertEvent = async (event: WatchEvent): Promise<WatchEvent | undefined> => {
    if (event.type === 'ERROR') return event;
    if (event.type === 'BOOKMARK') return { type: 'BOOKMARK', object: { ...(event.object as KubeObject), apiVersion } };
    const object = await decode(event.object as KubeObject);
    return object && { type: event.type, object };
  };
  return source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      async transform(chunk, controller) {
        // The empty first chunk sends the headers: it goes on as it is.
        if (chunk.length === 0) return controller.enqueue(chunk);
        buffered += decoder.decode(chunk, { stream: true });
        for (let newline = buffered.indexOf('\n'); newline >= 0 && !ended; newline = buffered.indexOf('\n')) {
          const line = buffered.slice(0, newline);
          buffered = buffered.slice(newline + 1);
          try {
            const shown = await convertEvent(JSON.parse(line) as WatchEvent);
            if (shown) controller.enqueue(encodeEvent(shown));
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            ended = true;
            controller.enqueue(encodeEvent({ type: 'ERROR', object: internalError(error.status.message ?? '') }));
            controller.terminate();
          }
        }
      },
    }),
  );
}
