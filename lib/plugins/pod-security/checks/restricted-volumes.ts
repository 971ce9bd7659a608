/**
 * restrictedVolumes (restricted, 1.0; policy/check_restrictedVolumes.go): inline volumes only of the
 * allowed sources (configMap, csi, downwardAPI, emptyDir, ephemeral, image, persistentVolumeClaim,
 * projected, secret). `image` was added to the 1.0 revision in place (1.33), so it passes at every pinned
 * version. Replaces hostPathVolumes at the restricted level.
 */
import { isRecord } from '../../../kube/json';
import type { JsonRecord } from '../../../kube/record';
import { ALLOWED, forbidden, type Check, type CheckResult } from '../check';
import { listMember, member, stringMember } from '../pod-json';
import { joinQuote, pluralize, sortedSet } from '../text';
import { HOST_PATH_VOLUMES_ID } from './host-path-volumes';

const ALLOWED_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];

/** The restricted sources in the order upstream tests them: the first one set names the volume's type. */
const RESTRICTED_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

function restrictedVolumes1_0(_podMetadata: JsonRecord, podSpec: JsonRecord): CheckResult {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of listMember(podSpec, 'volumes').filter(isRecord)) {
    if (ALLOWED_SOURCES.some((source) => member(volume, source) !== undefined)) continue;
    badVolumes.push(stringMember(volume, 'name'));
    badTypes.push(RESTRICTED_SOURCES.find((source) => member(volume, source) !== undefined) ?? 'unknown');
  }
  if (badVolumes.length === 0) return ALLOWED;
  const types = sortedSet(badTypes);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
}

export const restrictedVolumes: Check = {
  id: 'restrictedVolumes',
  level: 'restricted',
  versions: [{ minimumVersion: 0, checkPod: restrictedVolumes1_0, overrides: [HOST_PATH_VOLUMES_ID] }],
};
