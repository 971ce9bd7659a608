import { HarnessError } from '../errors';
import type { AdmissionRequest, AdmissionResponse, KubeObject } from '../kube/admission';
import { isRecord } from '../kube/json';
import { formatPointer, parsePointer, replaceAt } from './json-pointer';

/** What redacted values are replaced by. Valid base64, so a redacted Secret still decodes as one on replay. */
export const REDACTED = 'REDACTED';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * userInfo.extra keys whose values identify or carry a credential: the bound token's
 * `authentication.kubernetes.io/credential-id` (a JTI, or an X.509 fingerprint), and any
 * authenticator's key that says token, secret or password. Pod, node and scope keys stay.
 */
const CREDENTIAL_KEY = /credential|token|secret|password/i;

/** Members that name the request and its fixture file: a redacted one would leave a fixture nobody can replay or find. */
const NAMING_MEMBERS = new Set(['uid', 'kind', 'resource', 'subResource', 'requestKind', 'requestResource', 'requestSubResource', 'operation']);

/** The parts of a fixture document redaction works on, changed in place. */
export interface Redactable {
  request: AdmissionRequest;
  response?: AdmissionResponse;
}

export interface RedactionRules {
  /** The built-in redactions (Secret values and their last-applied annotation, credential-like userInfo.extra). */
  defaults: boolean;
  /** Further members to replace, as parsed pointers into the fixture document (`request`… or `response`…). */
  paths: readonly string[][];
}

/**
 * Checks and parses `redactPaths`: JSON pointers into the fixture document, under `/request/` or
 * `/response/`. Refused up front, rather than ignored per request, when they could never apply or would
 * erase what names the fixture.
 */
export function redactionRules(defaults: boolean, paths: readonly string[] = []): RedactionRules {
  return {
    defaults,
    paths: paths.map((pointer) => {
      const segments = parsePointer(pointer);
      const [root, member] = segments;
      if ((root !== 'request' && root !== 'response') || member === undefined) {
        throw new HarnessError(
          'USAGE',
          `redact path ${JSON.stringify(pointer)} does not point inside the fixture's request or response`,
          'paths are JSON pointers into the RecordedReview document, e.g. /request/object/spec/token or /request/userInfo/username',
        );
      }
      if (root === 'request' && NAMING_MEMBERS.has(member)) {
        throw new HarnessError('USAGE', `redact path ${JSON.stringify(pointer)} would redact request.${member}, which names the request and its fixture file`);
      }
      return segments;
    }),
  };
}

/**
 * Redacts `document` in place and returns the fixture `limits` saying what was redacted, one sentence
 * per kind of redaction with the pointers it touched (none when nothing was).
 */
export function redact(document: Redactable, rules: RedactionRules): string[] {
  const limits: string[] = [];
  if (rules.defaults) {
    const values: string[] = [];
    const annotations: string[] = [];
    const { request } = document;
    const secretRequest = request.kind?.group === '' && request.kind.kind === 'Secret';
    for (const member of ['object', 'oldObject'] as const) {
      const object = request[member];
      if (isRecord(object) && (secretRequest || isSecret(object))) redactSecret(object, ['request', member], values, annotations);
    }
    if (values.length > 0) limits.push(`redacted: Secret values replaced by "${REDACTED}", keys kept: ${values.join(', ')}`);
    if (annotations.length > 0) limits.push(`redacted: the Secret's ${LAST_APPLIED} annotation (it holds the values) removed: ${annotations.join(', ')}`);

    const extra = request.userInfo?.extra;
    const credentials: string[] = [];
    if (isRecord(extra)) {
      for (const [key, value] of Object.entries(extra)) {
        if (!CREDENTIAL_KEY.test(key)) continue;
        extra[key] = Array.isArray(value) ? value.map(() => REDACTED) : [REDACTED];
        credentials.push(formatPointer(['request', 'userInfo', 'extra', key]));
      }
    }
    if (credentials.length > 0) limits.push(`redacted: credential values of userInfo.extra replaced by "${REDACTED}": ${credentials.join(', ')}`);

    if (document.response && secretRequest && redactPatch(document.response)) {
      limits.push(
        `redacted: the Secret values and ${LAST_APPLIED} annotations the response's patch writes replaced by "${REDACTED}", and the patch re-encoded: /response/patch`,
      );
    }
  }
  const asked = rules.paths.filter((segments) => replaceAt(document, segments, REDACTED)).map((segments) => formatPointer(segments));
  if (asked.length > 0) limits.push(`redacted as asked (redactPaths), replaced by "${REDACTED}": ${asked.join(', ')}`);
  return limits;
}

function isSecret(object: KubeObject): boolean {
  return object.apiVersion === 'v1' && object.kind === 'Secret';
}

/** Replaces the values of `data` and `stringData` and drops the last-applied annotation, noting each pointer. */
function redactSecret(object: Record<string, unknown>, at: string[], values: string[], annotations: string[]): void {
  for (const field of ['data', 'stringData']) {
    const map = object[field];
    if (!isRecord(map)) continue;
    for (const key of Object.keys(map)) {
      map[key] = REDACTED;
      values.push(formatPointer([...at, field, key]));
    }
  }
  const metadata = object.metadata;
  const given = isRecord(metadata) ? metadata.annotations : undefined;
  if (isRecord(given) && Object.hasOwn(given, LAST_APPLIED)) {
    delete given[LAST_APPLIED];
    annotations.push(formatPointer([...at, 'metadata', 'annotations', LAST_APPLIED]));
  }
}

/**
 * A mutating webhook's patch on a Secret may write its values: those are replaced as in the request.
 * Returns whether anything was; an untouched patch keeps its bytes. A patch that does not decode is
 * left as it is (a webhook sending one is what the fixture should show).
 */
function redactPatch(response: AdmissionResponse): boolean {
  if (typeof response.patch !== 'string' || response.patch === '') return false;
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(response.patch, 'base64').toString('utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(ops)) return false;
  let changed = false;
  for (const op of ops) {
    if (!isRecord(op) || typeof op.path !== 'string' || !Object.hasOwn(op, 'value')) continue;
    const path = op.path;
    if (/^\/(data|stringData)\/./.test(path) || path === `/metadata/annotations/${LAST_APPLIED.replace(/\//g, '~1')}`) {
      op.value = REDACTED;
      changed = true;
    } else if ((path === '/data' || path === '/stringData') && isRecord(op.value)) {
      for (const key of Object.keys(op.value)) op.value[key] = REDACTED;
      changed = true;
    } else if (path === '/metadata/annotations' && isRecord(op.value) && Object.hasOwn(op.value, LAST_APPLIED)) {
      delete op.value[LAST_APPLIED];
      changed = true;
    } else if (path === '' && isRecord(op.value)) {
      const ignored: string[] = [];
      redactSecret(op.value, [], ignored, ignored);
      changed ||= ignored.length > 0;
    }
  }
  if (changed) response.patch = Buffer.from(JSON.stringify(ops)).toString('base64');
  return changed;
}
