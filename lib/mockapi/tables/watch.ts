import { embeddedObjectsStream } from '../watch/embedded-objects';
import { type TableRequest, tableOf } from './table';

/*
 * A watch asked for as Tables (apiserver pkg/endpoints/handlers/response.go, watchEmbeddedEncoder): each event's
 * object becomes a Table of one row; the first event carries the column definitions and every later one leaves
 * them out. A Status (an ERROR event) is sent as it is, and still takes the first event's turn.
 */

/** Turns a watch's JSON-lines stream into the same events with Table objects. `now` reads the clock per event. */
export function tableWatchStream(request: TableRequest, now: () => number): TransformStream<Uint8Array, Uint8Array> {
  let headers = true;
  return embeddedObjectsStream((object) => {
    const first = headers;
    headers = false;
    return object && tableOf(object, request, now(), first);
  });
}
