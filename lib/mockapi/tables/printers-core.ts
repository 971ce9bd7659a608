import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { integer, list, optional, record, text } from './fields';
import { accessModes, formatLabels } from './format';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for the core kinds a webhook's tests read back:
 * printConfigMap, printSecret, printServiceAccount, printNamespace, printService (with getServiceExternalIP and
 * makePortString), printPersistentVolumeClaim.
 */

const count = (value: unknown): number => (value !== null && typeof value === 'object' ? Object.keys(value).length : 0);

export const configMaps: Printer = {
  columns: [NAME_COLUMN, column('Data', 'string', doc('v1/ConfigMap', 'data')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), count(optional(object, 'data')) + count(optional(object, 'binaryData')), ageCell(object, now)] }),
};

export const secrets: Printer = {
  columns: [NAME_COLUMN, column('Type', 'string', doc('v1/Secret', 'type')), column('Data', 'string', doc('v1/Secret', 'data')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'type'), count(optional(object, 'data')), ageCell(object, now)] }),
};

export const serviceAccounts: Printer = {
  columns: [NAME_COLUMN, column('Secrets', 'string', doc('v1/ServiceAccount', 'secrets')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), list(object, 'secrets').length, ageCell(object, now)] }),
};

export const namespaces: Printer = {
  columns: [NAME_COLUMN, column('Status', 'string', 'The status of the namespace'), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'status', 'phase'), ageCell(object, now)] }),
};

/** loadBalancerStatusStringer (wide): the distinct ingress IPs, else hostnames, sorted and comma-joined. */
function loadBalancerAddresses(status: JsonObject): string {
  const addresses = new Set<string>();
  for (const ingress of list(status, 'ingress')) {
    const address = text(ingress, 'ip') || text(ingress, 'hostname');
    if (address) addresses.add(address);
  }
  return [...addresses].sort().join(',');
}

/** getServiceExternalIP, as the apiserver calls it (wide: the load balancer's addresses are not clipped). */
function externalIp(service: JsonObject): string {
  const externalIps = list(service, 'spec', 'externalIPs').filter((ip): ip is string => typeof ip === 'string');
  switch (text(service, 'spec', 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIps.length > 0 ? externalIps.join(',') : '<none>';
    case 'LoadBalancer': {
      const balancer = loadBalancerAddresses(record(service, 'status', 'loadBalancer'));
      if (externalIps.length > 0) return [...(balancer ? balancer.split(',') : []), ...externalIps].join(',');
      return balancer || '<pending>';
    }
    case 'ExternalName':
      return text(service, 'spec', 'externalName');
    default:
      return '<unknown>';
  }
}

/** makePortString: `port/protocol`, or `port:nodePort/protocol`, comma-joined. */
function ports(service: JsonObject): string {
  return list(service, 'spec', 'ports')
    .map((port) => {
      const nodePort = integer(port, 'nodePort');
      return nodePort > 0 ? `${integer(port, 'port')}:${nodePort}/${text(port, 'protocol')}` : `${integer(port, 'port')}/${text(port, 'protocol')}`;
    })
    .join(',');
}

const SERVICE_SPEC = 'v1/ServiceSpec';
export const services: Printer = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', doc(SERVICE_SPEC, 'type')),
    column('Cluster-IP', 'string', doc(SERVICE_SPEC, 'clusterIP')),
    column('External-IP', 'string', doc(SERVICE_SPEC, 'externalIPs')),
    column('Port(s)', 'string', doc(SERVICE_SPEC, 'ports')),
    AGE_COLUMN,
    column('Selector', 'string', doc(SERVICE_SPEC, 'selector'), { priority: 1 }),
  ],
  row: (object, now) => {
    // The internal ServiceSpec has clusterIPs filled from clusterIP when only that is set (v1 conversion).
    const clusterIps = list(object, 'spec', 'clusterIPs');
    const clusterIp = (typeof clusterIps[0] === 'string' ? clusterIps[0] : text(object, 'spec', 'clusterIP')) || '<none>';
    return {
      cells: [
        nameCell(object),
        text(object, 'spec', 'type'),
        clusterIp,
        externalIp(object),
        ports(object) || '<none>',
        ageCell(object, now),
        formatLabels(optional(object, 'spec', 'selector')),
      ],
    };
  },
};

/** helper.GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
function claimClass(claim: JsonObject): string {
  const annotation = optional(claim, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class');
  if (typeof annotation === 'string') return annotation;
  return text(claim, 'spec', 'storageClassName');
}

const CLAIM_STATUS = 'v1/PersistentVolumeClaimStatus';
const CLAIM_SPEC = 'v1/PersistentVolumeClaimSpec';
export const persistentVolumeClaims: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', doc(CLAIM_STATUS, 'phase')),
    column('Volume', 'string', doc(CLAIM_SPEC, 'volumeName')),
    column('Capacity', 'string', doc(CLAIM_STATUS, 'capacity')),
    column('Access Modes', 'string', doc(CLAIM_STATUS, 'accessModes')),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    column('VolumeMode', 'string', doc(CLAIM_SPEC, 'volumeMode'), { priority: 1 }),
  ],
  row: (object, now) => {
    const phase = optional(object, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : text(object, 'status', 'phase');
    const volumeName = text(object, 'spec', 'volumeName');
    const capacity = volumeName ? text(object, 'status', 'capacity', 'storage') : '';
    const modes = volumeName ? accessModes(list(object, 'status', 'accessModes')) : '';
    const attributesClass = optional(object, 'spec', 'volumeAttributesClassName');
    const volumeMode = optional(object, 'spec', 'volumeMode');
    return {
      cells: [
        nameCell(object),
        phase,
        volumeName,
        capacity,
        modes,
        claimClass(object),
        typeof attributesClass === 'string' ? attributesClass : '<unset>',
        ageCell(object, now),
        typeof volumeMode === 'string' ? volumeMode : '<unset>',
      ],
    };
  },
};
