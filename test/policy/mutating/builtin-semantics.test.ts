import { ATOMIC_MAP_FIELDS, ATOMIC_STRUCTS, GRANULAR_REF_FIELDS, KEY_DEFAULTS, LIST_SEMANTICS } from '../../../lib/patch/smd/builtin-semantics';
import { structByName, type GoType } from '../../../lib/registry/schema/table';

// The hand-written facts name definitions and fields of the schema table: a typo would silently fall
// back to the OpenAPI defaults, so every name is checked against the table.
const field = (id: string, name: string): GoType | undefined => structByName(id)?.fields.get(name);

describe('builtin list/map semantics name real definitions and fields', () => {
  it.each(Object.entries(LIST_SEMANTICS).flatMap(([id, fields]) => Object.entries(fields).map(([name, semantics]) => [id, name, semantics] as const)))('%s.%s is a list', (id, name, semantics) => {
    const type = field(id, name);
    expect(type?.kind).toBe('slice');
    if (type?.kind !== 'slice' || semantics === 'set') return;
    // List-map keys are fields of the item, and each has a recorded default or is known to have none.
    const item = type.elem;
    expect(item.kind).toBe('struct');
    if (item.kind !== 'struct') return;
    for (const key of semantics) expect(item.fields.has(key)).toBe(true);
  });

  it.each(Object.entries(ATOMIC_MAP_FIELDS).flatMap(([id, names]) => names.map((name) => [id, name] as const)))('%s.%s is a map', (id, name) => {
    expect(field(id, name)?.kind).toBe('map');
  });

  it.each(Object.entries(GRANULAR_REF_FIELDS).flatMap(([id, names]) => names.map((name) => [id, name] as const)))('%s.%s is a struct', (id, name) => {
    expect(field(id, name)?.kind).toBe('struct');
  });

  it.each([...ATOMIC_STRUCTS])('%s is a struct', (id) => {
    expect(structByName(id)).toBeDefined();
  });

  it.each(Object.entries(KEY_DEFAULTS).flatMap(([id, defaults]) => Object.keys(defaults).map((name) => [id, name] as const)))('%s.%s is a field', (id, name) => {
    expect(field(id, name)).toBeDefined();
  });
});
