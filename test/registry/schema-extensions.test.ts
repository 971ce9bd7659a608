import fs from 'node:fs';
import path from 'node:path';
import { structByName, type GoType } from '../../lib/registry/schema/table';

// The OpenAPI extensions the table is built with (lib/registry/schema/openapi-extensions.json) name
// definitions and fields the build checks exist; here each fact is checked to fit the field's type, so a
// list fact cannot sit on a map nor a merge key name a member the items lack.
interface Facts {
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  default?: unknown;
}
const source = JSON.parse(fs.readFileSync(path.join(__dirname, '../../lib/registry/schema/openapi-extensions.json'), 'utf8')) as {
  definitions: Record<string, { 'x-kubernetes-map-type'?: string; properties?: Record<string, Facts> }>;
};
const fields = Object.entries(source.definitions).flatMap(([id, def]) =>
  Object.entries(def.properties ?? {}).map(([name, facts]) => [id, name, facts] as const),
);
const itemOf = (type: GoType | undefined): GoType | undefined => (type?.kind === 'slice' ? type.elem : undefined);

describe('the OpenAPI extensions of the schema table fit the fields they describe', () => {
  it.each(fields)('%s.%s', (id, name, facts) => {
    const struct = structByName(id);
    const type = struct?.fields.get(name);
    expect(type).toBeDefined();
    // The table carries exactly what the source says.
    const read = struct?.extensions.get(name);
    expect(read?.listType).toBe(facts['x-kubernetes-list-type']);
    expect(read?.patchMergeKey).toBe(facts['x-kubernetes-patch-merge-key']);
    if (facts['x-kubernetes-list-type'] !== undefined || facts['x-kubernetes-patch-strategy'] !== undefined) expect(type?.kind).toBe('slice');
    const item = itemOf(type);
    for (const key of [
      ...(facts['x-kubernetes-list-map-keys'] ?? []),
      ...(facts['x-kubernetes-patch-merge-key'] ? [facts['x-kubernetes-patch-merge-key']] : []),
    ]) {
      expect(item?.kind === 'struct' && item.fields.has(key)).toBe(true);
    }
    if (facts['x-kubernetes-map-type'] === 'atomic') expect(type?.kind).toBe('map');
    if (facts['x-kubernetes-map-type'] === 'granular') expect(type?.kind).toBe('struct');
  });

  it.each(
    Object.entries(source.definitions)
      .filter(([, def]) => def['x-kubernetes-map-type'] === 'atomic')
      .map(([id]) => id),
  )('%s is an atomic struct', (id) => {
    expect(structByName(id)?.atomic).toBe(true);
  });
});
