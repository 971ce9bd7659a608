import { isObject, type JsonObject } from '../../kube/json';

/*
 * The embedded encoder of a watch asked for in another representation (apiserver pkg/endpoints/handlers/
 * response.go, watchEmbeddedEncoder.doEncode): every event's object goes through the transform, one event after
 * the other, and the event keeps its type. A Status (an ERROR event) is written as it is (doTransformObject
 * returns it untouched), yet it still takes its turn in the sequence.
 */

/**
 * Turns a watch's JSON-lines stream into the same events with each object transformed, in order. `transform`
 * is called once per event, with undefined for a Status; what it returns undefined for is written as it was.
 */
export function embeddedObjectsStream(transform: (object: JsonObject | undefined) => JsonObject | undefined): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const convert = (line: string): string => {
    const event = JSON.parse(line) as { type?: string; object?: unknown };
    const object = isObject(event.object) && event.object.kind !== 'Status' ? (event.object as JsonObject) : undefined;
    const converted = transform(object);
    return converted ? JSON.stringify({ type: event.type, object: converted }) : line;
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
