/**
 * Which kinds a ValidatingAdmissionPolicy is type-checked against, and where their schemas come from:
 * k8s.io/apiserver/pkg/admission/plugin/policy/validating/typecheckingcontext.go `typesToCheck` over a
 * RESTMapper, and the schema resolvers of pkg/cel/openapi/resolver, here both answered from a
 * ResourceCatalog (lib/kube/catalog) and the built-in schema table.
 */
import type { GroupVersionKind, GroupVersionResource } from '../../kube/admission';
import type { MatchResources } from '../../kube/admission-policy';
import { gvkOf, type ResourceCatalog } from '../../kube/catalog';
import { structForKind, type StructType } from '../../registry/schema/table';

/** RESTMapper `KindsFor`: the kinds served at a group/version/resource (none when it is unknown). */
export type KindResolver = (gvr: GroupVersionResource) => readonly GroupVersionKind[];

/** Where a kind's type comes from: a built-in struct of the schema table, or a CRD version's openAPIV3Schema. */
export type KindSchema = { source: 'builtin'; struct: StructType } | { source: 'openAPIV3Schema'; schema: unknown };

/** resolver.SchemaResolver `ResolveSchema`: undefined plays ErrSchemaNotFound (the kind is not checked). */
export type KindSchemaResolver = (gvk: GroupVersionKind) => KindSchema | undefined;

/** typecheckingcontext.go `maxTypesToCheck`. */
export const MAX_TYPES_TO_CHECK = 10;

/**
 * `typesToCheck`: the kinds of the resources matchConstraints.resourceRules name, sorted by group,
 * version and kind. A rule with `*` in any apiGroup or apiVersion is skipped whole; `*` and
 * subresources (`x/y`) among its resources are skipped one by one. Each rule stops after
 * MAX_TYPES_TO_CHECK kinds, and the kinds found so far are then returned without reading further
 * rules — upstream counts per rule, duplicates included.
 */
export function typesToCheck(match: MatchResources | undefined, resolveKinds: KindResolver): GroupVersionKind[] {
  const rules = match?.resourceRules ?? [];
  const found = new Map<string, GroupVersionKind>();
  const result = () => [...found.values()].sort(compareGvk);
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.length === 0 || groups.some((g) => g.includes('*'))) continue;
    if (versions.length === 0 || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    if (resources.length === 0) continue;
    let count = 0;
    for (const group of [...groups].sort(compareStrings)) {
      for (const version of [...versions].sort(compareStrings)) {
        for (const resource of [...resources].sort(compareStrings)) {
          for (const gvk of resolveKinds({ group, version, resource })) {
            if (gvk.group === '' && gvk.version === '' && gvk.kind === '') continue;
            found.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, { group: gvk.group, version: gvk.version, kind: gvk.kind });
            if (++count === MAX_TYPES_TO_CHECK) return result();
          }
        }
      }
    }
  }
  return result();
}

// Go compares strings by bytes; the names compared here are ASCII, where UTF-16 order is the same.
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareGvk(a: GroupVersionKind, b: GroupVersionKind): number {
  return compareStrings(a.group, b.group) || compareStrings(a.version, b.version) || compareStrings(a.kind, b.kind);
}

/** schema.GroupVersionKind `String()`: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod` for the core group. */
export function formatGvk(gvk: GroupVersionKind): string {
  return `${gvk.group}/${gvk.version}, Kind=${gvk.kind}`;
}

/**
 * A KindResolver over a catalog. Like a RESTMapper's KindsFor it takes the plural or the singular
 * resource name, in any case.
 */
export function catalogKindResolver(catalog: ResourceCatalog): KindResolver {
  return ({ group, version, resource }) => {
    const name = resource.toLowerCase();
    const exact = catalog.resourceByName(group, version, name);
    if (exact) return [gvkOf(exact)];
    return catalog
      .resources()
      .filter((entry) => entry.group === group && entry.version === version && entry.singular === name)
      .map(gvkOf);
  };
}

/**
 * A KindSchemaResolver over a catalog: a custom resource version's `schema` (its openAPIV3Schema) when
 * the catalog has one, else the built-in kind's struct from the schema table; undefined otherwise.
 */
export function catalogSchemaResolver(catalog: ResourceCatalog): KindSchemaResolver {
  return (gvk) => {
    const entry = catalog.resourceForKind(gvk);
    if (entry?.schema !== undefined) return { source: 'openAPIV3Schema', schema: entry.schema };
    const struct = structForKind(gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version, gvk.kind);
    return struct ? { source: 'builtin', struct } : undefined;
  };
}
