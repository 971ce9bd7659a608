import type { CatalogEntry } from '../../kube/catalog';
import { joinApiVersion } from '../../kube/api-version';
import { isObject, type Json, type JsonObject } from '../../kube/json';
import { ApiError, badRequest } from '../../kube/status';
import { isListBody, listMetaOf, type MetaVersion, partialObjectMetadata } from '../partial-object-metadata';
import type { TableConverter } from './converters';

/*
 * A meta.k8s.io Table as kube-apiserver answers a request for one (apiserver pkg/endpoints/handlers/response.go,
 * asTable; apimachinery pkg/apis/meta/v1 types.go, Table): the converter's columns and rows, the list's (or
 * object's) resourceVersion, and each row's object as the request's `includeObject` asks — its metadata as a
 * PartialObjectMetadata by default, the whole object, or nothing.
 */

export type TableVersion = MetaVersion;
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** What one request for a Table asks: the Table's version, the row objects, and the converter to use. */
export interface TableRequest {
  version: TableVersion;
  includeObject: IncludeObject;
  entry: CatalogEntry;
  converter: TableConverter;
}

/**
 * The TableOptions of a request's query, validated as optionsForTransform does (meta/v1beta1/validation
 * ValidateTableOptions): `includeObject` is Metadata when absent; any other value than the three is a 400.
 */
export function includeObjectOf(url: URL): IncludeObject {
  const value = url.searchParams.get('includeObject') ?? '';
  if (value === '') return 'Metadata';
  if (value === 'None' || value === 'Metadata' || value === 'Object') return value;
  throw new ApiError(
    badRequest(
      `Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(value)}: must be 'Metadata', 'Object', 'None', or empty`,
    ),
  );
}

/** A row's object: the object itself (kind and apiVersion first), its PartialObjectMetadata, or null. */
function rowObject(object: JsonObject, request: TableRequest): Json {
  switch (request.includeObject) {
    case 'None':
      return null;
    case 'Object': {
      const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
      return { kind: request.entry.kind, apiVersion: joinApiVersion(request.entry), ...rest };
    }
    default:
      return partialObjectMetadata(object, request.version);
  }
}

function rowOf(object: JsonObject, request: TableRequest, now: number): JsonObject {
  const { cells, conditions } = request.converter.row(object, now);
  return { cells, ...(conditions ? { conditions: conditions as unknown as Json[] } : {}), object: rowObject(object, request) };
}

/** The Table's ListMeta: a list's resourceVersion, continue and remainingItemCount, or the object's resourceVersion. */
function tableMetadata(body: JsonObject, list: boolean): JsonObject {
  if (list) return listMetaOf(body);
  const resourceVersion = isObject(body.metadata) ? body.metadata.resourceVersion : undefined;
  return typeof resourceVersion === 'string' && resourceVersion ? { resourceVersion } : {};
}

/**
 * The Table of a GET's or a LIST's answer at `now`. `headers` false leaves the column definitions out (null), as
 * every watch event after the first has them.
 */
export function tableOf(body: JsonObject, request: TableRequest, now: number, headers = true): JsonObject {
  const list = isListBody(body, request.entry);
  const items = list ? (body.items as Json[]).filter(isObject) : [body];
  const objects = list && request.converter.order ? request.converter.order(items) : items;
  const rows: Json[] | null = objects.length === 0 && list ? request.converter.emptyRows : objects.map((object) => rowOf(object, request, now));
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${request.version}`,
    metadata: tableMetadata(body, list),
    columnDefinitions: headers ? (request.converter.columns as unknown as Json[]) : null,
    rows,
  };
}
