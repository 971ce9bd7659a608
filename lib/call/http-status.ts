import { goQuote } from '../go/strconv';
import type { HttpReply } from './transport';

/**
 * The error client-go's REST client returns for a non-2xx reply (`transformResponse` →
 * `newUnstructuredResponseError` → `NewGenericServerResponse`), as kube-apiserver prints it after
 * `failed to call webhook: `.
 */
export function httpStatusError(reply: HttpReply): string {
  const statusBody = asFailureStatus(reply.body);
  if (statusBody !== undefined) return statusBody;
  const contentType = String(reply.headers['content-type'] ?? '');
  // Only a text body (no Content-Type, or text/*) becomes the message, cut to 2048 bytes.
  const isText = contentType === '' || /^\s*text\//i.test(contentType);
  const message = isText ? reply.body.subarray(0, 2048).toString('utf8').trim() : 'unknown';
  return genericServerResponse(reply.status, message);
}

/**
 * A body that decodes to a meta/v1 Status with status Failure replaces the generic text with its own
 * message, whatever the code and Content-Type (`Result.Error()`).
 */
function asFailureStatus(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { kind?: unknown; status?: unknown; message?: unknown };
    if (parsed && parsed.kind === 'Status' && parsed.status === 'Failure') {
      return typeof parsed.message === 'string' ? parsed.message : '';
    }
  } catch {
    // not JSON: fall through to the generic texts
  }
  return undefined;
}

function genericServerResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
      return serverMessage;
    case 404:
      return 'the server could not find the requested resource';
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 406:
      return serverMessage === '' || serverMessage === 'unknown'
        ? 'the server was unable to respond with a content type that the client supports'
        : serverMessage;
    case 409:
      return 'the server reported a conflict';
    case 415:
      return serverMessage;
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return code >= 500
        ? `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}
