import { goJsonKind } from '../go/json-errors';
import { goQuote } from '../go/strconv';
import { splitApiVersion } from '../kube/api-version';
import { goJsonSyntaxError } from '../go/json-scanner';
import { yaml } from '../yaml';

/** kube-apiserver's scheme name for the webhook client (k8s.io/apiserver/pkg/util/webhook/client.go), as it appears in decode errors. */
export const WEBHOOK_CLIENT_SCHEME = 'pkg/util/webhook/client.go:71';

const KIND_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
const JSON_OBJECT_START = /^\s*\{/;

/** A reply body as the webhook REST client's decoder first reads it: an object, nothing, or Go's error text. */
export type ReplyBody = { ok: true; object: Record<string, unknown> | undefined } | { ok: false; text: string };

/**
 * The first step of every webhook reply's decoding (`r.Into(…)` of the webhook REST client, shared by
 * admission and conversion webhooks): whatever its Content-Type, a body starting with `{` is JSON and
 * anything else goes through the YAML decoder (so an HTML page is one YAML string); an empty body, a
 * syntax error or a value that is no object fails with the Go decoder's text. `text` is `body` as UTF-8;
 * the bytes are kept for Go's byte offsets in syntax errors.
 */
export function decodeReplyBody(body: Buffer, text: string, contentType: string): ReplyBody {
  if (body.length === 0) return { ok: false, text: `0-length response with status code: 200 and content type: ${contentType || 'application/json'}` };
  let parsed: unknown;
  if (JSON_OBJECT_START.test(text)) {
    try {
      parsed = JSON.parse(text);
    } catch {
      // Only a body JSON.parse refuses needs Go's scanner, for Go's wording of the syntax error.
      return { ok: false, text: `couldn't get version/kind; json parse error: ${goJsonSyntaxError(body) ?? 'unexpected end of JSON input'}` };
    }
  } else {
    try {
      parsed = yaml().parse(text, { version: '1.1' });
    } catch (error) {
      return { ok: false, text: `yaml: ${(error as Error).message.split('\n')[0]}` };
    }
  }
  if (parsed === null || parsed === undefined) return { ok: true, object: undefined };
  if (typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      ok: false,
      text: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonKind(parsed)} into Go value of type ${KIND_STRUCT}`,
    };
  }
  return { ok: true, object: parsed as Record<string, unknown> };
}

/**
 * The decoder's check of a reply's type against the review sent (`<group>/<sentVersion>`, `kind`):
 * missing apiVersion/kind are defaulted from the target type for decoding (the response checks then
 * report them); a present but unknown group, version or kind fails the decode with the scheme's text,
 * and the other registered version with the converter's. Undefined when the reply decodes as sent.
 */
export function reviewTypeError(review: Record<string, unknown>, group: string, kind: string, sentVersion: 'v1' | 'v1beta1'): string | undefined {
  const apiVersion = typeof review.apiVersion === 'string' ? review.apiVersion : '';
  const given = typeof review.kind === 'string' ? review.kind : '';
  // The reply of every well-behaved webhook: nothing to split or compare.
  if (given === kind && apiVersion === `${group}/${sentVersion}`) return undefined;
  const [replyGroup, version] = splitApiVersion(apiVersion || `${group}/${sentVersion}`);
  const effectiveKind = given || kind;
  const known = replyGroup === group && (version === 'v1' || version === 'v1beta1');
  if (!known || effectiveKind !== kind)
    return `no kind ${goQuote(effectiveKind)} is registered for version ${goQuote(`${replyGroup}/${version}`)} in scheme ${goQuote(WEBHOOK_CLIENT_SCHEME)}`;
  if (version !== sentVersion) return `converting (${version}.${kind}) to (${sentVersion}.${kind}): unknown conversion`;
  return undefined;
}
