import type { JsonObject } from './json';

// The keys of the built-in lists whose items are merged and owned one by one (listType=map), by member name.
const LIST_KEYS: Record<string, readonly string[]> = {
  containers: ['name'],
  initContainers: ['name'],
  ephemeralContainers: ['name'],
  env: ['name'],
  volumes: ['name'],
  volumeMounts: ['mountPath'],
  volumeDevices: ['devicePath'],
  imagePullSecrets: ['name'],
  resourceClaims: ['name'],
  schedulingGates: ['name'],
  resizePolicy: ['resourceName'],
  ownerReferences: ['uid'],
  conditions: ['type'],
  podIPs: ['ip'],
  hostIPs: ['ip'],
  hostAliases: ['ip'],
  topologySpreadConstraints: ['topologyKey', 'whenUnsatisfiable'],
};

/**
 * The keys of the list `name` whose items look like `item`, or undefined for an atomic list. The
 * first key is the strategic-merge-patch merge key. Container ports are keyed by containerPort and
 * protocol, Service ports by port and protocol.
 */
export function keysOf(name: string, item: JsonObject): readonly string[] | undefined {
  if (name === 'ports') return 'containerPort' in item ? ['containerPort', 'protocol'] : 'port' in item ? ['port', 'protocol'] : undefined;
  return LIST_KEYS[name];
}
