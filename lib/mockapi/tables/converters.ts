import type { PrinterColumn } from '../../kube/catalog';
import type { Json, JsonObject } from '../../kube/json';
import { CREATION_DOC, type Cell, type ColumnDefinition, column, NAME_COLUMN, type Row } from './columns';
import { optional, text } from './fields';
import { instantOf, since } from './human-duration';
import { evaluatePath, parsePath, printedValue } from './json-path';
import type { Printer } from './printer';

/**
 * A resource's TableConvertor: its columns, the cells of one object, and what an empty list's rows are — `[]`
 * from printers and the custom resource convertor, which make their slices up front, `null` from
 * DefaultTableConvertor, which appends to a nil one.
 */
export interface TableConverter extends Printer {
  readonly emptyRows: [] | null;
}

export const fromPrinter = (printer: Printer): TableConverter => ({
  columns: printer.columns,
  row: printer.row,
  ...(printer.order ? { order: printer.order } : {}),
  emptyRows: [],
});

/** The cell of `Created At`: metav1.Time in UTC, RFC 3339 (Go's zero time for an unset one). */
function createdAt(object: JsonObject): string {
  const instant = instantOf(optional(object, 'metadata', 'creationTimestamp'));
  return instant === undefined ? '0001-01-01T00:00:00Z' : new Date(instant).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * apiserver pkg/registry/rest/table.go DefaultTableConvertor: Name and Created At, for the built-in resources
 * without a printer (roles, clusterroles, limitranges, customresourcedefinitions…).
 */
export const DEFAULT_CONVERTER: TableConverter = {
  columns: [NAME_COLUMN, column('Created At', 'date', CREATION_DOC)],
  row: (object): Row => ({ cells: [text(object, 'metadata', 'name'), createdAt(object)] }),
  emptyRows: null,
};

/** cellForJSONValue: a found value as the column's type reads it; nil for a value of another type. */
function typedCell(type: string, value: Json, now: number): Cell {
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      if (typeof value !== 'string') return null;
      return instantOf(value) === undefined ? '<invalid>' : since(value, now);
    default:
      return null;
  }
}

// serveDefaultColumnsIfEmpty (apiextensions-apiserver pkg/apiserver/customresource_handler.go): a version without
// columns shows its age.
const DEFAULT_CUSTOM_COLUMNS: readonly PrinterColumn[] = [{ name: 'Age', type: 'date', description: CREATION_DOC, jsonPath: '.metadata.creationTimestamp' }];

/**
 * The custom resource TableConvertor (apiextensions-apiserver pkg/registry/customresource/tableconvertor): Name,
 * then each of the version's additionalPrinterColumns, its JSONPath evaluated against the object; a string column
 * prints what it finds, the other types keep the value when it has their type.
 */
export function customResourceConverter(printerColumns: readonly PrinterColumn[] | undefined): TableConverter {
  const declared = printerColumns && printerColumns.length > 0 ? printerColumns : DEFAULT_CUSTOM_COLUMNS;
  const columns: ColumnDefinition[] = [NAME_COLUMN];
  const paths = declared.map((spec) => {
    const description = spec.description || `Custom resource definition column (in JSONPath format): ${spec.jsonPath}`;
    columns.push(column(spec.name, spec.type, description, { format: spec.format ?? '', priority: spec.priority ?? 0 }));
    return parsePath(spec.jsonPath);
  });
  const row = (object: JsonObject, now: number): Row => {
    const cells: Cell[] = [text(object, 'metadata', 'name')];
    declared.forEach((spec, index) => {
      const steps = paths[index];
      const value = steps && evaluatePath(steps, object);
      if (value === undefined) cells.push(null);
      else if (spec.type === 'string') cells.push(printedValue(value));
      else cells.push(value === null ? null : typedCell(spec.type, value, now));
    });
    return { cells };
  };
  return { columns, row, emptyRows: [] };
}
