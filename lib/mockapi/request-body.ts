import type { ApiStatus } from '../kube/status';
import { mediaTypeOf, PROTOBUF } from './negotiation';
import { decodeProtobufObject, ProtobufError } from './protobuf';

/** A request body as the REST handlers read it: text, with the Content-Type it is now in. */
export interface RequestBody {
  text: string;
  contentType: string | null;
  /** Why the body could not be read; the request is answered with it. */
  error?: ApiStatus;
}

/**
 * Reads a request body: protobuf bodies are decoded to the JSON they encode (served, as kube-apiserver serves
 * them, rather than refused, since client-go never falls back to JSON), everything else is UTF-8 text.
 */
export function readRequestBody(bytes: Uint8Array, contentType: string | null): RequestBody {
  if (mediaTypeOf(contentType) !== PROTOBUF) return { text: new TextDecoder().decode(bytes), contentType };
  try {
    return { text: JSON.stringify(decodeProtobufObject(bytes)), contentType: 'application/json' };
  } catch (error) {
    if (!(error instanceof ProtobufError)) throw error;
    const status: ApiStatus = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: error.message,
      reason: 'UnsupportedMediaType',
      code: 415,
    };
    return { text: '', contentType, error: status };
  }
}
