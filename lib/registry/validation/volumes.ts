/**
 * Pod volumes (core validation ValidateVolumes, validateVolumeSource and the per-source validators):
 * unique DNS-label names, exactly one source each, and each source's own fields. The paths are
 * upstream's, typos included (`gcePersistentDisk` is checked under `persistentDisk`, the second-source
 * error for downwardAPI names `downwarAPI`, cephfs is forbidden as `cephFS`).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { compareQuantities } from '../../kube/quantity';
import { has, listOf, numberOf, objectOf, optionalNumber, optionalString, stringMapOf, stringOf, stringsOf, sortedEntries, valueOf } from './access';
import { VOLUME_FIELD_PATHS, validateObjectFieldSelector, validateResourceFieldSelector } from './downward-api';
import { duplicate, forbidden, invalid, json, notSupported, required, tooLong } from '../../kube/field-errors';
import { dns1123LabelErrors, dns1123SubdomainErrors, inclusiveRangeError } from '../../kube/value-formats';
import { validateAnnotations, validateLabels } from './labels';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';
import { validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from './paths-local';
import { validatePullPolicy } from './pull-policy';
import { quantityOf } from './resources';

/** The valid volumes of a pod, by name (what volume mounts may name). */
export type VolumeSources = ReadonlyMap<string, JsonObject>;

const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const PARTITION_ERROR = inclusiveRangeError(1, 255);

function fileMode(value: number | undefined, path: Path): FieldError[] {
  return value !== undefined && (value > 0o777 || value < 0) ? [invalid(path, value, FILE_MODE_ERROR)] : [];
}

function requiredString(source: JsonObject, key: string, path: Path): FieldError[] {
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

function validateItems(source: JsonObject, path: Path): FieldError[] {
  return listOf(source, 'items').flatMap((item, i) => validateKeyToPath(item, path.child('items').index(i)));
}

/** validateDownwardAPIVolumeFile. */
function validateDownwardAPIFile(file: JsonObject, path: Path): FieldError[] {
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
function validateProjected(projected: JsonObject, path: Path): FieldError[] {
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

function validateHostPath(source: JsonObject, path: Path): FieldError[] {
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

function validateIscsi(source: JsonObject, path: Path): FieldError[] {
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

function validateFlexVolume(source: JsonObject, path: Path): FieldError[] {
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

function validateAzureDisk(source: JsonObject, path: Path): FieldError[] {
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

function validateCsi(source: JsonObject, path: Path): FieldError[] {
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
function validateEphemeral(source: JsonObject, path: Path): FieldError[] {
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

interface SourceRule {
  /** The v1 member; also the path of the "more than one" error unless `forbiddenAs` says otherwise. */
  key: string;
  forbiddenAs?: string;
  validate: (source: JsonObject, path: Path, context: SourceContext) => FieldError[];
}

interface SourceContext {
  volumePath: Path;
  volumeName: string;
  podName: string | undefined;
  resourceIsPod: boolean;
}

/** validateVolumeSource's members in upstream's (internal struct) order. */
const SOURCES: readonly SourceRule[] = [
  {
    key: 'emptyDir',
    validate: (source, path) => {
      const limit = valueOf(source, 'sizeLimit');
      return limit !== undefined && limit !== null && compareQuantities(quantityOf(limit), { mantissa: 0n, exponent: 0, format: 'DecimalSI' }) < 0
        ? [forbidden(path.child('sizeLimit'), 'SizeLimit field must be a valid resource quantity')]
        : [];
    },
  },
  { key: 'hostPath', validate: validateHostPath },
  {
    key: 'gitRepo',
    validate: (source, path) => [
      ...requiredString(source, 'repository', path),
      ...validateLocalDescendingPath(stringOf(source, 'directory'), path.child('directory')),
    ],
  },
  {
    key: 'gcePersistentDisk',
    validate: (source, _path, { volumePath }) => {
      const at = volumePath.child('persistentDisk');
      const partition = numberOf(source, 'partition');
      return [
        ...requiredString(source, 'pdName', at),
        ...(partition < 0 || partition > 255 ? [invalid(at.child('partition'), partition, PARTITION_ERROR)] : []),
      ];
    },
  },
  {
    key: 'awsElasticBlockStore',
    validate: (source, path) => {
      const partition = numberOf(source, 'partition');
      return [
        ...requiredString(source, 'volumeID', path),
        ...(partition < 0 || partition > 255 ? [invalid(path.child('partition'), partition, PARTITION_ERROR)] : []),
      ];
    },
  },
  {
    key: 'secret',
    validate: (source, path) => [
      ...requiredString(source, 'secretName', path),
      ...fileMode(optionalNumber(source, 'defaultMode'), path.child('defaultMode')),
      ...validateItems(source, path),
    ],
  },
  {
    key: 'nfs',
    validate: (source, path) => {
      const errors = [...requiredString(source, 'server', path), ...requiredString(source, 'path', path)];
      const target = stringOf(source, 'path');
      if (!target.startsWith('/')) errors.push(invalid(path.child('path'), target, 'must be an absolute path'));
      return errors;
    },
  },
  {
    key: 'iscsi',
    validate: (source, path, { volumePath, volumeName }) => {
      const errors = validateIscsi(source, path);
      if (has(source, 'initiatorName') && Buffer.byteLength(`${volumeName}:${stringOf(source, 'targetPortal')}`, 'utf8') > 64) {
        errors.push(
          invalid(
            volumePath.child('name'),
            volumeName,
            'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
          ),
        );
      }
      return errors;
    },
  },
  { key: 'glusterfs', validate: (source, path) => [...requiredString(source, 'endpoints', path), ...requiredString(source, 'path', path)] },
  {
    key: 'flocker',
    validate: (source, path) => {
      const name = stringOf(source, 'datasetName');
      const uuid = stringOf(source, 'datasetUUID');
      const errors: FieldError[] = [];
      if (name === '' && uuid === '') errors.push(required(path, 'one of datasetName and datasetUUID is required'));
      if (name !== '' && uuid !== '') errors.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
      if (name.includes('/')) errors.push(invalid(path.child('datasetName'), name, "must not contain '/'"));
      return errors;
    },
  },
  { key: 'persistentVolumeClaim', validate: (source, path) => requiredString(source, 'claimName', path) },
  {
    key: 'rbd',
    validate: (source, path) => [
      ...(stringsOf(source, 'monitors').length === 0 ? [required(path.child('monitors'))] : []),
      ...requiredString(source, 'image', path),
    ],
  },
  {
    key: 'cinder',
    validate: (source, path) => {
      const errors = requiredString(source, 'volumeID', path);
      const secret = objectOf(source, 'secretRef');
      if (secret && stringOf(secret, 'name') === '') errors.push(required(path.child('secretRef', 'name')));
      return errors;
    },
  },
  { key: 'cephfs', forbiddenAs: 'cephFS', validate: (source, path) => (stringsOf(source, 'monitors').length === 0 ? [required(path.child('monitors'))] : []) },
  {
    key: 'quobyte',
    validate: (source, path) => {
      const errors: FieldError[] = [];
      const registry = stringOf(source, 'registry');
      if (registry === '') errors.push(required(path.child('registry'), 'must be a host:port pair or multiple pairs separated by commas'));
      else if (Buffer.byteLength(stringOf(source, 'tenant'), 'utf8') >= 65)
        errors.push(required(path.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
      else
        for (const pair of registry.split(','))
          if (!/^(\[[^\]]*\]|[^:]*):[^:]*$/.test(pair))
            errors.push(invalid(path.child('registry'), registry, 'must be a host:port pair or multiple pairs separated by commas'));
      return [...errors, ...requiredString(source, 'volume', path)];
    },
  },
  {
    key: 'downwardAPI',
    forbiddenAs: 'downwarAPI',
    validate: (source, path) => [
      ...fileMode(optionalNumber(source, 'defaultMode'), path.child('defaultMode')),
      ...listOf(source, 'items').flatMap((file) => validateDownwardAPIFile(file, path)),
    ],
  },
  {
    key: 'fc',
    validate: (source, path) => {
      const errors: FieldError[] = [];
      const targets = stringsOf(source, 'targetWWNs');
      const wwids = stringsOf(source, 'wwids');
      if (targets.length < 1 && wwids.length < 1) errors.push(required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
      if (targets.length !== 0 && wwids.length !== 0)
        errors.push(invalid(path.child('targetWWNs'), json(targets), 'targetWWNs and wwids can not be specified simultaneously'));
      if (targets.length !== 0) {
        const lun = optionalNumber(source, 'lun');
        if (lun === undefined) errors.push(required(path.child('lun'), 'lun is required if targetWWNs is specified'));
        else if (lun < 0 || lun > 255) errors.push(invalid(path.child('lun'), lun, inclusiveRangeError(0, 255)));
      }
      return errors;
    },
  },
  { key: 'flexVolume', validate: validateFlexVolume },
  {
    key: 'configMap',
    validate: (source, path) => [
      ...requiredString(source, 'name', path),
      ...fileMode(optionalNumber(source, 'defaultMode'), path.child('defaultMode')),
      ...validateItems(source, path),
    ],
  },
  { key: 'azureFile', validate: (source, path) => [...requiredString(source, 'secretName', path), ...requiredString(source, 'shareName', path)] },
  { key: 'vsphereVolume', validate: (source, path) => requiredString(source, 'volumePath', path) },
  { key: 'photonPersistentDisk', validate: (source, path) => requiredString(source, 'pdID', path) },
  { key: 'portworxVolume', validate: (source, path) => requiredString(source, 'volumeID', path) },
  { key: 'azureDisk', validate: validateAzureDisk },
  {
    key: 'storageos',
    validate: (source, path) => {
      const errors: FieldError[] = [];
      const name = stringOf(source, 'volumeName');
      if (name === '') errors.push(required(path.child('volumeName')));
      else errors.push(...dns1123LabelErrors(name).map((message) => invalid(path.child('volumeName'), name, message)));
      const namespace = stringOf(source, 'volumeNamespace');
      if (namespace !== '') errors.push(...dns1123LabelErrors(namespace).map((message) => invalid(path.child('volumeNamespace'), namespace, message)));
      const secret = objectOf(source, 'secretRef');
      if (secret && stringOf(secret, 'name') === '') errors.push(required(path.child('secretRef', 'name')));
      return errors;
    },
  },
  { key: 'projected', validate: validateProjected },
  {
    key: 'scaleIO',
    validate: (source, path) => [
      ...requiredString(source, 'gateway', path),
      ...requiredString(source, 'system', path),
      ...requiredString(source, 'volumeName', path),
    ],
  },
  { key: 'csi', validate: validateCsi },
  {
    key: 'ephemeral',
    validate: (source, path, { volumePath, volumeName, podName }) => {
      const errors = validateEphemeral(source, path);
      if (podName && volumeName) {
        const claimName = `${podName}-${volumeName}`;
        errors.push(
          ...nameIsDnsSubdomain(claimName, false).map((message) =>
            invalid(volumePath.child('name'), volumeName, `PVC name ${JSON.stringify(claimName)}: ${message}`),
          ),
        );
      }
      return errors;
    },
  },
  {
    key: 'image',
    validate: (source, path, { resourceIsPod }) => [
      ...(resourceIsPod && stringOf(source, 'reference') === '' ? [required(path.child('reference'))] : []),
      ...validatePullPolicy(stringOf(source, 'pullPolicy'), path.child('pullPolicy')),
    ],
  },
];

/** validateVolumeSource: exactly one source, each validated. */
function validateVolumeSource(volume: JsonObject, context: SourceContext): FieldError[] {
  const errors: FieldError[] = [];
  let count = 0;
  for (const rule of SOURCES) {
    const source = objectOf(volume, rule.key);
    if (!source) continue;
    if (count > 0) {
      errors.push(forbidden(context.volumePath.child(rule.forbiddenAs ?? rule.key), 'may not specify more than 1 volume type'));
    } else {
      count++;
      errors.push(...rule.validate(source, context.volumePath.child(rule.key), context));
    }
  }
  if (count === 0) errors.push(required(context.volumePath, 'must specify a volume type'));
  return errors;
}

/**
 * ValidateVolumes: the volumes that validated, by name, and the errors. A volume with errors is left
 * out of the map, so mounts of it are reported as not found too (as upstream does).
 */
export function validateVolumes(
  volumes: readonly JsonObject[],
  podName: string | undefined,
  path: Path,
  resourceIsPod: boolean,
): { sources: VolumeSources; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  const sources = new Map<string, JsonObject>();
  const createdClaims = new Set(podName ? volumes.filter((v) => has(v, 'ephemeral')).map((v) => `${podName}-${stringOf(v, 'name')}`) : []);
  volumes.forEach((volume, i) => {
    const at = path.index(i);
    const name = stringOf(volume, 'name');
    const own = validateVolumeSource(volume, { volumePath: at, volumeName: name, podName, resourceIsPod });
    if (name === '') own.push(required(at.child('name')));
    else own.push(...dns1123LabelErrors(name).map((message) => invalid(at.child('name'), name, message)));
    if (names.has(name)) own.push(duplicate(at.child('name'), name));
    if (own.length === 0) {
      names.add(name);
      sources.set(name, volume);
    } else {
      errors.push(...own);
    }
    const claim = objectOf(volume, 'persistentVolumeClaim');
    if (claim && createdClaims.has(stringOf(claim, 'claimName'))) {
      errors.push(
        invalid(
          at.child('persistentVolumeClaim').child('claimName'),
          stringOf(claim, 'claimName'),
          'must not reference a PVC that gets created for an ephemeral volume',
        ),
      );
    }
  });
  return { sources, errors };
}
