import type { JsonObject } from '../../kube/json';
import docs from './column-docs.json';
import { optional, text } from './fields';
import { since } from './human-duration';

/*
 * The columns of a meta.k8s.io Table (apimachinery pkg/apis/meta/v1 types.go, TableColumnDefinition), and the
 * field descriptions kube's printers give them (`<GoType>{}.SwaggerDoc()["<field>"]`), generated from the
 * kubernetes-models declarations into column-docs.json by build-column-docs.mjs.
 */

/** One column, its keys in kube's order: none is omitted when empty (format "" and priority 0 are written). */
export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** A cell: kube's printers write strings, int64s, float64s, bools, or nil for what a custom column does not find. */
export type Cell = string | number | boolean | null;

/** metav1.TableRowCondition: a printer's note on a row (kubectl hides `Completed` pods by it). */
export interface RowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

/** What a printer makes of one object: its cells, in column order, and any row conditions. */
export interface Row {
  cells: Cell[];
  conditions?: RowCondition[];
}

export function column(name: string, type: string, description: string, options: { format?: string; priority?: number } = {}): ColumnDefinition {
  return { name, type, format: options.format ?? '', description, priority: options.priority ?? 0 };
}

const DOCS = docs as Readonly<Record<string, Readonly<Record<string, string>>>>;

/** `<GoType>{}.SwaggerDoc()[field]`, by the type's declaration path in kubernetes-models (`v1/ConfigMap`). */
export function doc(declaration: string, field: string): string {
  const text = DOCS[declaration]?.[field];
  if (text === undefined) throw new Error(`column-docs.json has no ${declaration} ${field}: add it to build-column-docs.mjs`);
  return text;
}

const META = 'apis/meta/v1/ObjectMeta';
/** The Name column every printer starts with (`metav1.ObjectMeta{}.SwaggerDoc()["name"]`, format `name`). */
export const NAME_COLUMN = column('Name', 'string', doc(META, 'name'), { format: 'name' });
/** The Age column: creationTimestamp as duration.HumanDuration prints it. */
export const AGE_COLUMN = column('Age', 'string', doc(META, 'creationTimestamp'));

/** The Name column's cell: the object's metadata.name. */
export const nameCell = (object: JsonObject): string => text(object, 'metadata', 'name');

/** The Age column's cell: the time since the object's creationTimestamp, as kube's translateTimestampSince writes it. */
export const ageCell = (object: JsonObject, now: number): string => since(optional(object, 'metadata', 'creationTimestamp'), now);
export const CREATION_DOC = doc(META, 'creationTimestamp');
/** Printers' `Containers` and `Images` wide columns (literal texts in printers.go). */
export const CONTAINERS_COLUMN = column('Containers', 'string', 'Names of each container in the template.', { priority: 1 });
export const IMAGES_COLUMN = column('Images', 'string', 'Images referenced by each container in the template.', { priority: 1 });
