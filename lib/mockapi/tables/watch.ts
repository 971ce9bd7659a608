import { isObject, type JsonObject } from '../../kube/json';
import { type TableRequest, tableOf } from './table';

/*
 * A watch asked for as Tables (apiserver pkg/endpoints/handlers/response.go, watchEmbeddedEncoder): each event's
 * object becomes a Table of one row; the first event carries the column definitions and every later one leaves
 * them out. A Status (an ERROR event) is sent as it is, and still takes the first event's turn.
 */

/** Turns a watch's JSON-lines stream into the same events with Table objects. `now` reads the clock per event. */
export function tableWatchStream(request: TableRequest, now: () => number): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  let headers = true;
  const convert = (line: string): string => {
    const event = JSON.parse(line) as { type?: string; object?: unknown };
    const object = event.object;
    const first = headers;
    headers = false;
    if (!isObject(object) || object.kind === 'Status') return line;
    return JSON.stringify({ type: event.type, object: tableOf(object as JsonObject, request, now(), first) });
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      // The empty first chunk sends the response headers: pass it on as it is.
      if (chunk.length === 0) {
        controller.enqueue(chunk);
        return;
      }
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim()) controller.enqueue(encoder.encode(`${convert(line)}\n`));
        end = pending.indexOf('\n');
      }
    },
  });
}
