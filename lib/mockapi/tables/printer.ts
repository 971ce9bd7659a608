import type { JsonObject } from '../../kube/json';
import type { ColumnDefinition, Row } from './columns';

/**
 * One handler of kube's printers (printers.go AddHandlers, TableHandler): the columns of a resource's Table
 * and the cells of one object. kube-apiserver generates every column, wide ones included (printerstorage
 * TableConvertor passes `Wide: true`), so `row` gives them all.
 */
export interface Printer {
  readonly columns: readonly ColumnDefinition[];
  row(object: JsonObject, now: number): Row;
  /** The order a list's rows come in, when the list handler sorts them (printFlowSchemaList); else the list's. */
  order?(objects: readonly JsonObject[]): JsonObject[];
}
