/**
 * Each pod volume source's own fields (core validation validateHostPathVolumeSource, validateISCSIVolumeSource,
 * validateProjectedVolumeSource, validateCSIVolumeSource, validateEphemeralVolumeSource and the like).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { compareQuantities } from '../../kube/quantity';
import { has, listOf, numberOf, objectOf, optionalNumber, optionalString, stringMapOf, stringOf, stringsOf, sortedEntries, valueOf } from './access';
import { VOLUME_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api';
import { forbidden, invalid, json, notSupported, required, tooLong } from '../../kube/field-errors';
import { dns1123SubdomainErrors, inclusiveRangeError } from '../../kube/value-formats';
import { validateAnnotations, validateLabels } from './labels';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';
import { validateLocalNonReservedPath, validatePathNoBacksteps } from './paths-local';
import { quantityOf } from './resources';

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
export const PARTITION_ERROR = inclusiveRangeError(1, 255);

export function fileMode(value: number | undefined, path: Path): FieldError[] {
  return value !== undefined && (value > 0o777 || value < 0) ? [invalid(path, value, FILE_MODE_ERROR)] : [];
}

export function requiredString(source: JsonObject, key: string, path: Path): FieldError[] {
  return stringOf(source, key) === '' ? [required(path.child(key))] : [];
}

/** validateKeyToPath (secret, configMap and projected items). */
function validateKeyToPath(item: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  if (stringOf(item, 'key') === '') errors.push(required(path.child('key')));
  const target = stringOf(item, 'path');
  if (target === '') errors.push(required(path.child('path')));
  errors.push(...validateLocalNonReservedPath(target, path.child('path')));
  errors.push(...fileMode(optionalNumber(item, 'mode'), path.child('mode')));
  return errors;
}

export function validateItems(source: JsonObject, path: Path): FieldError[] {
  return listOf(source, 'items').flatMap((item, i) => validateKeyToPath(item, path.child('items').index(i)));
}

/** validateDownwardAPIVolumeFile. */
export function validateDownwardAPIFile(file: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const target = stringOf(file, 'path');
  if (target === '') errors.push(required(path.child('path')));
  errors.push(...validateLocalNonReservedPath(target, path.child('path')));
  const fieldRef = objectOf(file, 'fieldRef');
  const resourceFieldRef = objectOf(file, 'resourceFieldRef');
  if (fieldRef) {
    errors.push(...validateObjectFieldSelector(fieldRef, VOLUME_FIELD_PATHS, path.child('fieldRef')));
    if (resourceFieldRef) errors.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (resourceFieldRef) {
    errors.push(...validateResourceFieldSelector(resourceFieldRef, path.child('resourceFieldRef'), true));
  } else {
    errors.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errors.push(...fileMode(optionalNumber(file, 'mode'), path.child('mode')));
  return errors;
}

/** validateProjectionSources. */
export function validateProjected(projected: JsonObject, path: Path): FieldError[] {
  const errors = fileMode(optionalNumber(projected, 'defaultMode'), path.child('defaultMode'));
  const paths = new Set<string>();
  const claim = (target: string, value: string): void => {
    if (paths.has(target)) errors.push(invalid(path, value, 'conflicting duplicate paths'));
    else paths.add(target);
  };
  listOf(projected, 'sources').forEach((source, i) => {
    let count = 0;
    const at = path.child('sources').index(i);
    for (const kind of ['secret', 'configMap'] as const) {
      const object = objectOf(source, kind);
      if (!object) continue;
      count++;
      if (stringOf(object, 'name') === '') errors.push(required(at.child(kind).child('name')));
      listOf(object, 'items').forEach((item, j) => {
        errors.push(...validateKeyToPath(item, at.child(kind).child('items').index(j)));
        const target = stringOf(item, 'path');
        if (target.length > 0) claim(target, stringOf(object, 'name'));
      });
    }
    const downwardAPI = objectOf(source, 'downwardAPI');
    if (downwardAPI) {
      count++;
      for (const file of listOf(downwardAPI, 'items')) {
        errors.push(...validateDownwardAPIFile(file, at.child('downwardAPI')));
        const target = stringOf(file, 'path');
        if (target.length > 0) claim(target, target);
      }
    }
    const token = objectOf(source, 'serviceAccountToken');
    if (token) {
      count++;
      const expiration = numberOf(token, 'expirationSeconds');
      if (expiration < 600)
        errors.push(invalid(at.child('serviceAccountToken').child('expirationSeconds'), expiration, 'may not specify a duration less than 10 minutes'));
      if (expiration > 2 ** 32)
        errors.push(invalid(at.child('serviceAccountToken').child('expirationSeconds'), expiration, 'may not specify a duration larger than 2^32 seconds'));
      const target = stringOf(token, 'path');
      // Upstream names the projected volume's path here, not the source's.
      if (target === '') errors.push(required(path.child('path')));
      else errors.push(...validateLocalNonReservedPath(target, path.child('path')));
    }
    const bundle = objectOf(source, 'clusterTrustBundle');
    if (bundle) {
      count++;
      const bundlePath = at.child('clusterTrustBundle');
      const name = optionalString(bundle, 'name');
      const signerName = optionalString(bundle, 'signerName');
      if (name === undefined && signerName === undefined) errors.push(required(bundlePath, 'either name or signerName must be specified'));
      else if (name !== undefined && name === '') errors.push(required(bundlePath.child('name'), 'must be a valid object name'));
      else if (name === undefined && signerName === '') errors.push(required(bundlePath.child('signerName'), 'must be a valid signer name'));
      const target = stringOf(bundle, 'path');
      if (target === '') errors.push(required(bundlePath.child('path')));
      errors.push(...validateLocalNonReservedPath(target, bundlePath.child('path')));
      claim(target, target);
    }
    if (count > 1) errors.push(forbidden(at, 'may not specify more than 1 volume type per source'));
  });
  return errors;
}

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

export function validateHostPath(source: JsonObject, path: Path): FieldError[] {
  const target = stringOf(source, 'path');
  if (target === '') return [required(path.child('path'))];
  const errors = validatePathNoBacksteps(target, path.child('path'));
  const type = optionalString(source, 'type');
  if (type !== undefined && !HOST_PATH_TYPES.includes(type)) errors.push(notSupported(path.child('type'), json(type), HOST_PATH_TYPES));
  return errors;
}

const ISCSI_IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const ISCSI_EUI = /^eui.[A-Za-z0-9]{16}$/;
const ISCSI_NAA = /^naa.[A-Za-z0-9]{32}$/;

function iqnFormatErrors(value: string, path: Path, prefixMessage: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [invalid(path, value, prefixMessage)];
  if (
    (value.startsWith('iqn') && !ISCSI_IQN.test(value)) ||
    (value.startsWith('eui') && !ISCSI_EUI.test(value)) ||
    (value.startsWith('naa') && !ISCSI_NAA.test(value))
  ) {
    return [invalid(path, value, 'must be valid format')];
  }
  return [];
}

export function validateIscsi(source: JsonObject, path: Path): FieldError[] {
  const errors = requiredString(source, 'targetPortal', path);
  const iqn = stringOf(source, 'iqn');
  if (iqn === '') errors.push(required(path.child('iqn')));
  else errors.push(...iqnFormatErrors(iqn, path.child('iqn'), 'must be valid format starting with iqn, eui, or naa'));
  const lun = numberOf(source, 'lun');
  if (lun < 0 || lun > 255) errors.push(invalid(path.child('lun'), lun, inclusiveRangeError(0, 255)));
  if ((source.chapAuthDiscovery === true || source.chapAuthSession === true) && !has(source, 'secretRef')) errors.push(required(path.child('secretRef')));
  const initiator = optionalString(source, 'initiatorName');
  if (initiator !== undefined) {
    const at = path.child('initiatorname');
    if (!initiator.startsWith('iqn') && !initiator.startsWith('eui') && !initiator.startsWith('naa'))
      errors.push(invalid(at, initiator, 'must be valid format starting with iqn, eui, or naa'));
    if (
      (initiator.startsWith('iqn') && !ISCSI_IQN.test(initiator)) ||
      (initiator.startsWith('eui') && !ISCSI_EUI.test(initiator)) ||
      (initiator.startsWith('naa') && !ISCSI_NAA.test(initiator))
    ) {
      errors.push(invalid(at, initiator, 'must be valid format'));
    }
  }
  return errors;
}

export function validateFlexVolume(source: JsonObject, path: Path): FieldError[] {
  const errors = requiredString(source, 'driver', path);
  for (const [key] of sortedEntries(stringMapOf(source, 'options'))) {
    const namespace = key.includes('/') ? key.slice(0, key.indexOf('/')) : key;
    const normalized = `.${namespace.toLowerCase()}`;
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io'))
      errors.push(invalid(path.child('options').key(key), key, 'kubernetes.io and k8s.io namespaces are reserved'));
  }
  return errors;
}

const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_KINDS = ['Dedicated', 'Managed', 'Shared'];

export function validateAzureDisk(source: JsonObject, path: Path): FieldError[] {
  const errors = requiredString(source, 'diskName', path);
  const uri = stringOf(source, 'diskURI');
  if (uri === '') errors.push(required(path.child('diskURI')));
  const caching = optionalString(source, 'cachingMode');
  if (caching !== undefined && !AZURE_CACHING_MODES.includes(caching)) errors.push(notSupported(path.child('cachingMode'), json(caching), AZURE_CACHING_MODES));
  const kind = optionalString(source, 'kind');
  if (kind !== undefined && !AZURE_KINDS.includes(kind)) errors.push(notSupported(path.child('kind'), json(kind), AZURE_KINDS));
  if (kind === 'Managed' && !uri.startsWith('/subscriptions/'))
    errors.push(notSupported(path.child('diskURI'), uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
  if (kind !== undefined && kind !== 'Managed' && !uri.startsWith('https://'))
    errors.push(notSupported(path.child('diskURI'), uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
  return errors;
}

export function validateCsi(source: JsonObject, path: Path): FieldError[] {
  const errors: FieldError[] = [];
  const driver = stringOf(source, 'driver');
  const driverPath = path.child('driver');
  if (driver === '') errors.push(required(driverPath));
  if (Buffer.byteLength(driver, 'utf8') > 63) errors.push(tooLong(driverPath, 63));
  errors.push(...dns1123SubdomainErrors(driver.toLowerCase()).map((message) => invalid(driverPath, driver, message)));
  const secret = objectOf(source, 'nodePublishSecretRef');
  if (secret) {
    const name = stringOf(secret, 'name');
    if (name === '') errors.push(required(path.child('nodePublishSecretRef', 'name')));
    else errors.push(...nameIsDnsSubdomain(name, false).map((message) => invalid(path.child('name'), name, message)));
  }
  return errors;
}

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/** The parts of ValidatePersistentVolumeClaimTemplate that a generic ephemeral volume commonly hits. */
export function validateEphemeral(source: JsonObject, path: Path): FieldError[] {
  const template = objectOf(source, 'volumeClaimTemplate');
  if (!template) return [required(path.child('volumeClaimTemplate'))];
  const at = path.child('volumeClaimTemplate');
  const metadata = objectOf(template, 'metadata') ?? {};
  const errors = validateAnnotations(stringMapOf(metadata, 'annotations'), at.child('metadata', 'annotations'));
  errors.push(...validateLabels(stringMapOf(metadata, 'labels'), at.child('metadata', 'labels')));
  for (const key of Object.keys(metadata)) {
    if (key !== 'labels' && key !== 'annotations' && metadata[key] !== null) errors.push(forbidden(at.child('metadata', key), 'cannot be set'));
  }
  const spec = objectOf(template, 'spec') ?? {};
  const specPath = at.child('spec');
  const modes = stringsOf(spec, 'accessModes');
  if (modes.length === 0) errors.push(required(specPath.child('accessModes'), 'at least 1 access mode is required'));
  for (const mode of modes) if (!ACCESS_MODES.includes(mode)) errors.push(notSupported(specPath.child('accessModes'), json(mode), ACCESS_MODES));
  const storage = valueOf(objectOf(objectOf(spec, 'resources'), 'requests'), 'storage');
  const storagePath = specPath.child('resources').key('storage');
  if (storage === undefined) errors.push(required(storagePath));
  else if (compareQuantities(quantityOf(storage), { mantissa: 0n, exponent: 0, format: 'DecimalSI' }) <= 0)
    errors.push(invalid(storagePath, String(storage), 'must be greater than zero'));
  return errors;
}
