import type { Verb } from '../faults';
import type { Route } from '../paths';
import { ApiError } from '../../kube/status';
import { isObject } from '../../kube/json';
import type { TableConverter } from './converters';
import { converterFor } from './registry';
import { includeObjectOf, type TableRequest, type TableVersion, tableOf } from './table';
import { tableWatchStream } from './watch';

/*
 * Tables (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`, what kubectl get asks for) as kube-apiserver
 * serves them: for every request to a resource (not its subresources) once the answer is a success — get, list
 * and watch, and the object a write answers with (handlers/create.go, update.go, patch.go and delete.go all end
 * in transformResponseObject), a Status passing through as it is.
 */

export type { TableVersion } from './table';

/** The converter a request can have its answer made into a Table by, or undefined when it cannot. */
export function tableConverterFor(route: Route): TableConverter | undefined {
  // Reviews are answered by REST handlers that have no TableConvertor, so negotiation passes a Table over.
  if (route.subresource || route.entry.resource.endsWith('reviews')) return undefined;
  return converterFor(route.entry);
}

type Served = { code: number; json: unknown; warnings?: readonly string[] } | { code: number; stream: ReadableStream<Uint8Array> };

/** What asking for a Table of `route` adds before the request is served: a bad includeObject ends a watch at once. */
export function tableOptionsError(url: URL, verb: Verb): Served | undefined {
  if (verb !== 'watch') return undefined;
  try {
    includeObjectOf(url);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.status.code, json: error.status };
    throw error;
  }
}

/**
 * A successful answer as the Table of its object, list or watch events; the clock is read when each Table is
 * made, as the apiserver's printers read `time.Now()`.
 */
export function servedAsTable(served: Served, route: Route, url: URL, version: TableVersion, converter: TableConverter): Served {
  let request: TableRequest;
  try {
    request = { version, includeObject: includeObjectOf(url), entry: route.entry, converter };
  } catch (error) {
    if (error instanceof ApiError) return { code: error.status.code, json: error.status };
    throw error;
  }
  if ('stream' in served) return { code: served.code, stream: served.stream.pipeThrough(tableWatchStream(request, () => Date.now())) };
  const body = served.json;
  // Warnings (admission's, on a write) go out in headers whatever the body becomes.
  return isObject(body) && body.kind !== 'Status' ? { ...served, json: tableOf(body, request, Date.now()) } : served;
}
