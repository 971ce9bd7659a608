import { isObject, listAt, stringAt, type JsonObject } from './json';

/**
 * Lists that describe what their object is: a pod spec's `containers`, an Ingress's or a Role's
 * `rules`, a NetworkPolicy's `ingress` and `egress`. An override that gives one describes that part
 * itself, so the generated lists beside it (a pod's init containers, volumes, pull secrets and
 * tolerations; an Ingress's tls for its generated host; a policy's other direction) are not added to
 * what the caller said. Otherwise a spec would pass or fail by seed.
 */
const DESCRIBING_LISTS = ['containers', 'rules', 'ingress', 'egress'];
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

const namesOf = (list: readonly JsonObject[]): Set<string> => new Set(list.map((item) => stringAt(item, 'name') ?? ''));

function without<T>(names: Set<T>, kept: Set<T>): Set<T> {
  return new Set([...names].filter((name) => !kept.has(name)));
}

/** Generated containers that stay keep only the mounts of volumes the object still has. */
function withoutMounts(podSpec: JsonObject, gone: Set<string>): JsonObject {
  const result: JsonObject = { ...podSpec };
  for (const key of CONTAINER_LISTS) {
    if (!Array.isArray(podSpec[key])) continue;
    result[key] = listAt(podSpec, key).map((container) => {
      const mounts = listAt(container, 'volumeMounts');
      if (!mounts.some((mount) => gone.has(stringAt(mount, 'name') ?? ''))) return container;
      const kept = mounts.filter((mount) => !gone.has(stringAt(mount, 'name') ?? ''));
      const { volumeMounts: _replaced, ...rest } = container;
      return kept.length > 0 ? { ...rest, volumeMounts: kept } : rest;
    });
  }
  return result;
}

/**
 * `generated` made ready for `overrides` to merge into it: where the overrides give a describing
 * list, the generated lists beside it are left out; where they replace a pod spec's volumes (or a
 * StatefulSet's claim templates) but not its containers, the generated containers lose the mounts of
 * the volumes that are gone. `gone`: volume names replaced higher up (claim templates).
 */
export function withoutReplacedLists(generated: JsonObject, overrides: unknown, gone: Set<string> = new Set()): JsonObject {
  const given = isObject(overrides) ? overrides : {};
  if (DESCRIBING_LISTS.some((key) => Array.isArray(given[key]))) {
    return Object.fromEntries(Object.entries(generated).filter(([, value]) => !Array.isArray(value)));
  }
  if (Array.isArray(generated.containers)) {
    const replaced = Array.isArray(given.volumes) ? without(namesOf(listAt(generated, 'volumes')), namesOf(listAt(given, 'volumes'))) : new Set<string>();
    const all = new Set([...gone, ...replaced]);
    return all.size > 0 ? withoutMounts(generated, all) : generated;
  }
  let below = gone;
  if (Array.isArray(given.volumeClaimTemplates)) {
    const claims = (list: readonly JsonObject[]) => new Set(list.map((claim) => stringAt(isObject(claim.metadata) ? claim.metadata : {}, 'name') ?? ''));
    below = new Set([...gone, ...without(claims(listAt(generated, 'volumeClaimTemplates')), claims(listAt(given, 'volumeClaimTemplates')))]);
  }
  let result = generated;
  for (const [key, value] of Object.entries(generated)) {
    // Members the overrides replace or remove whole need no preparing.
    if (!isObject(value) || (given[key] !== undefined && !isObject(given[key]))) continue;
    const next = withoutReplacedLists(value, given[key], below);
    if (next !== value) result = { ...result, [key]: next };
  }
  return result;
}
