/** Splits an apiVersion the way schema.ParseGroupVersion does: "v1" is the core group. */
export function splitApiVersion(apiVersion: string): [group: string, version: string] {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
}

/** The apiVersion of a group and version, as schema.GroupVersion.String() writes it: the core group is bare. */
export function joinApiVersion({ group, version }: { group: string; version: string }): string {
  return group ? `${group}/${version}` : version;
}
