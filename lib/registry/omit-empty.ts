import { isRecord } from '../kube/json';
import type { JsonRecord } from '../kube/record';
import { isPointerField } from './go-pointers';
import type { GoType, StructType } from './schema/table';

/**
 * A decoded object as Go's encoding/json writes it back: nil and empty slices and maps of fields
 * tagged `omitempty` are left out, as are nil pointers (a JSON null) and value fields at their zero
 * value (`hostNetwork: false`). So `readinessGates: []` that a webhook adds is never seen again
 * (fixtures/apiserver-outcomes/patch-empty-list.json). Structs are kept, empty or not (omitempty does
 * not apply to them), and so are pointers to zero values (`automountServiceAccountToken: false`;
 * lib/registry/go-pointers.ts). The API's optional fields carry omitempty and its required ones do
 * not (a pod's `containers`, a port's `containerPort`), which is how the fields are told apart here.
 */
export function omitEmpty(type: StructType, object: JsonRecord): JsonRecord {
  let result: JsonRecord | undefined;
  for (const [key, value] of Object.entries(object)) {
    const field = type.fields.get(key);
    if (!field) continue;
    const omitted = !isPointerField(type.id, key) && !type.required.includes(key) && isZeroScalar(field, value);
    const written = omitted ? undefined : writtenValue(field, value);
    if (written === value) continue;
    result ??= { ...object };
    if (written === undefined) delete result[key];
    else result[key] = written;
  }
  return result ?? object;
}

function isZeroScalar(type: GoType, value: unknown): boolean {
  switch (type.kind) {
    case 'string':
      return value === '';
    case 'bool':
      return value === false;
    case 'int32':
    case 'int64':
    case 'float64':
      return value === 0;
    default:
      return false;
  }
}

function writtenValue(type: GoType, value: unknown): unknown {
  if (value === null) return undefined;
  switch (type.kind) {
    case 'slice':
      if (!Array.isArray(value)) return value;
      if (value.length === 0) return undefined;
      return mapItems(value, (item) => (item === null ? item : writtenValue(type.elem, item)));
    case 'map':
      if (!isRecord(value)) return value;
      if (Object.keys(value).length === 0) return undefined;
      return type.elem.kind === 'struct' ? mapValues(value, (item) => writtenValue(type.elem, item)) : value;
    case 'struct':
      return isRecord(value) ? omitEmpty(type, value) : value;
    default:
      return value;
  }
}

// Copies only when something changed, so an object with nothing to omit comes back as the same object.
function mapItems(items: unknown[], fn: (item: unknown) => unknown): unknown[] {
  let copy: unknown[] | undefined;
  items.forEach((item, i) => {
    const next = fn(item);
    if (next !== item) (copy ??= [...items])[i] = next;
  });
  return copy ?? items;
}

function mapValues(map: Record<string, unknown>, fn: (item: unknown) => unknown): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(map)) {
    const next = fn(item);
    if (next !== item) (copy ??= { ...map })[key] = next;
  }
  return copy ?? map;
}
