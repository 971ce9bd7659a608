/**
 * Pod volumes (core validation ValidateVolumes, validateVolumeSource; the larger per-source validators are in volume-sources.ts):
 * unique DNS-label names, exactly one source each, and each source's own fields. The paths are
 * upstream's, typos included (`gcePersistentDisk` is checked under `persistentDisk`, the second-source
 * error for downwardAPI names `downwarAPI`, cephfs is forbidden as `cephFS`).
 */
import type { JsonObject } from '../../kube/json';
import type { FieldError } from '../../kube/status';
import { compareQuantities } from '../../kube/quantity';
import { has, listOf, numberOf, objectOf, optionalNumber, stringOf, stringsOf, valueOf } from './access';
import { duplicate, forbidden, invalid, json, required } from '../../kube/field-errors';
import { dns1123LabelErrors, inclusiveRangeError } from '../../kube/value-formats';
import { nameIsDnsSubdomain } from '../../kube/name-validators';
import type { Path } from '../../kube/field-path';
import { validateLocalDescendingPath } from './paths-local';
import { validatePullPolicy } from './pull-policy';
import { quantityOf } from './resources';
import {
  fileMode,
  PARTITION_ERROR,
  requiredString,
  validateAzureDisk,
  validateCsi,
  validateDownwardAPIFile,
  validateEphemeral,
  validateFlexVolume,
  validateHostPath,
  validateIscsi,
  validateItems,
  validateProjected,
} from './volume-sources';

/** The valid volumes of a pod, by name (what volume mounts may name). */
export type VolumeSources = ReadonlyMap<string, JsonObject>;

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
