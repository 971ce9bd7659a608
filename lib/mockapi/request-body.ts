import { compareBytes } from '../go/json-marshal';
import { badRequest, type ApiStatus } from '../kube/status';
import { mediaTypeOf, PROTOBUF } from './negotiation';
import { decodeProtobufObject, ProtobufError } from './protobuf';
import { parseYamlBody, YamlBodyError } from './yaml-body';

/** A request body as the REST handlers read it: text, with the Content-Type it is now in. */
export interface RequestBody {
  text: string;
  contentType: string | null;
  /** Why the body could not be read; the request is answered with it. */
  error?: ApiStatus;
  /** A YAML body's repeated keys, in go-yaml's strict words (`line 5: key "name" already set in map`). */
  yamlRepeatedKeys?: readonly string[];
}

/** JSON as encoding/json marshals a decoded map: keys sorted bytewise at every level. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member) ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => compareBytes(a, b))) : member,
  );
}

/**
 * A YAML body as the YAML serializer reads it (apimachinery `runtime/serializer/json` with Yaml set:
 * sigs.k8s.io/yaml `YAMLToJSON`, through a Go map, so the JSON's keys are sorted), with its repeated keys.
 */
function readYaml(text: string, contentType: string | null): RequestBody {
  try {
    const { value, repeatedKeys } = parseYamlBody(text);
    return { text: sortedJson(value ?? null), contentType: 'application/json', yamlRepeatedKeys: repeatedKeys };
  } catch (error) {
    if (!(error instanceof YamlBodyError)) throw error;
    return { text, contentType, error: badRequest(`error converting YAML to JSON: yaml: ${error.message}`) };
  }
}

/**
 * Reads a request body: protobuf bodies are decoded to the JSON they encode (served, as kube-apiserver serves
 * them, rather than refused, since client-go never falls back to JSON), YAML ones (`application/yaml`) to the
 * JSON they convert to, everything else is UTF-8 text.
 */
export function readRequestBody(bytes: Uint8Array, contentType: string | null): RequestBody {
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === 'application/yaml') return readYaml(new TextDecoder().decode(bytes), contentType);
  if (mediaType !== PROTOBUF) return { text: new TextDecoder().decode(bytes), contentType };
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
