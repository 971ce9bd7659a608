/** Secret (core validation ValidateSecret, ValidateSecretUpdate). */
import { isObject, type JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { objectOf, sortedEntries, stringMapOf, stringOf } from './access';
import { MAX_SECRET_SIZE } from './config-map';
import { forbidden, invalid, json, required, tooLong } from '../../kube/field-errors';
import { configMapKeyErrors } from '../../kube/value-formats';
import { goUnmarshalError } from './go-unmarshal';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import { FIELD_IMMUTABLE, metadataOf, validateObjectMeta, validateObjectMetaUpdate } from './object-meta';
import { Path } from '../../kube/field-path';

const METADATA = Path.of('metadata');
const DATA = Path.of('data');

/** The secret's data as the internal object has it: stringData merged over data (the v1 conversion does that). */
function secretData(object: JsonObject): Map<string, Buffer> {
  const data = new Map<string, Buffer>();
  for (const [key, value] of sortedEntries(objectOf(object, 'data'))) data.set(key, typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0));
  for (const [key, value] of sortedEntries(stringMapOf(object, 'stringData'))) data.set(key, Buffer.from(value, 'utf8'));
  return new Map([...data].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A docker config must be a JSON object (json.Unmarshal into map[string]interface{}). */
function dockerConfigError(bytes: Buffer): string | undefined {
  return goUnmarshalError(bytes.toString('utf8'), 'map[string]interface {}', (value) => value === null || isObject(value));
}

/** ValidateSecret: keys, total size, and each well-known type's required keys. */
export function validateSecret(object: JsonObject): FieldError[] {
  const meta = metadataOf(object);
  const errors = validateObjectMeta(meta, true, nameIsDnsSubdomain, METADATA);
  const data = secretData(object);
  let size = 0;
  for (const [key, value] of data) {
    errors.push(...configMapKeyErrors(key).map((message) => invalid(DATA.key(key), key, message)));
    size += value.length;
  }
  if (size > MAX_SECRET_SIZE) errors.push(tooLong(DATA, MAX_SECRET_SIZE));
  const requiredKey = (key: string): FieldError => required(DATA.key(key));
  switch (stringOf(object, 'type')) {
    case 'kubernetes.io/service-account-token':
      if (!stringMapOf(meta, 'annotations')?.['kubernetes.io/service-account.name'])
        errors.push(required(METADATA.child('annotations').key('kubernetes.io/service-account.name')));
      break;
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = stringOf(object, 'type') === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      const value = data.get(key);
      if (value === undefined) errors.push(requiredKey(key));
      else {
        const problem = dockerConfigError(value);
        if (problem !== undefined) errors.push(invalid(DATA.key(key), '<secret contents redacted>', problem));
      }
      break;
    }
    case 'kubernetes.io/basic-auth':
      if (!data.has('username') && !data.has('password')) errors.push(requiredKey('username'), requiredKey('password'));
      break;
    case 'kubernetes.io/ssh-auth':
      if ((data.get('ssh-privatekey')?.length ?? 0) === 0) errors.push(requiredKey('ssh-privatekey'));
      break;
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errors.push(requiredKey('tls.crt'));
      if (!data.has('tls.key')) errors.push(requiredKey('tls.key'));
      break;
    default:
  }
  return errors;
}

/** ValidateSecretUpdate: the type never changes; an immutable Secret keeps its data. */
export function validateSecretUpdate(object: JsonObject, old: JsonObject): FieldError[] {
  const errors = validateObjectMetaUpdate(metadataOf(object), metadataOf(old), METADATA);
  const type = stringOf(object, 'type');
  if (type !== stringOf(old, 'type')) errors.push(invalid(Path.of('type'), json(type), FIELD_IMMUTABLE));
  if (old.immutable === true) {
    if (object.immutable !== true) errors.push(forbidden(Path.of('immutable'), 'field is immutable when `immutable` is set'));
    const a = secretData(object);
    const b = secretData(old);
    const same = a.size === b.size && [...a].every(([key, value]) => b.get(key)?.equals(value) === true);
    if (!same || (object.data === undefined && object.stringData === undefined) !== (old.data === undefined && old.stringData === undefined)) {
      errors.push(forbidden(DATA, 'field is immutable when `immutable` is set'));
    }
  }
  return [...errors, ...validateSecret(object)];
}
