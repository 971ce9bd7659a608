import { goQuote } from '../go/strconv';
import { ApiError, badRequest, invalid, type FieldError } from '../kube/status';

/**
 * A list or watch request's query, decoded as kube-apiserver's parameter codec decodes metav1.ListOptions
 * (apiserver `pkg/endpoints/handlers/get.go`, ListResource), with the WatchList defaults applied.
 */
export interface ListOptions {
  watch: boolean;
  /** '' when not given. */
  resourceVersion: string;
  /** '', `Exact` or `NotOlderThan` (anything else is refused). */
  resourceVersionMatch: string;
  /** undefined when not given (and not defaulted). */
  sendInitialEvents: boolean | undefined;
  allowWatchBookmarks: boolean;
  /** undefined when not given. */
  timeoutSeconds: number | undefined;
  /** 0: no limit. */
  limit: number;
  continue: string;
  labelSelector: string;
  fieldSelector: string;
}

/**
 * apimachinery's `Convert_Slice_string_To_bool` (`pkg/runtime/conversion.go`): `0` and any case of `false`
 * are false; every other value, the empty one included, is true. So Python's `watch=True` and a bare `?watch` watch.
 */
export function queryFlag(values: readonly string[]): boolean {
  const first = values[0];
  return first !== undefined && first !== '0' && first.toLowerCase() !== 'false';
}

/** `Convert_Slice_string_To_int64`: strconv.ParseInt's text when the value is no integer. */
function queryInteger(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw new ApiError(badRequest(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`));
  return Number(value);
}

/** The watch flag alone, as RequestInfo reads it to tell a watch from a list. */
export const isWatchQuery = (url: URL): boolean => queryFlag(url.searchParams.getAll('watch'));

/** Decodes the query and applies `SetListOptionsDefaults` (apiserver `pkg/apis/meta/internalversion/defaults.go`). */
export function listOptionsOf(url: URL): ListOptions {
  const params = url.searchParams;
  const options: ListOptions = {
    watch: isWatchQuery(url),
    resourceVersion: params.get('resourceVersion') ?? '',
    resourceVersionMatch: params.get('resourceVersionMatch') ?? '',
    sendInitialEvents: params.has('sendInitialEvents') ? queryFlag(params.getAll('sendInitialEvents')) : undefined,
    allowWatchBookmarks: queryFlag(params.getAll('allowWatchBookmarks')),
    timeoutSeconds: queryInteger(params, 'timeoutSeconds'),
    limit: queryInteger(params, 'limit') ?? 0,
    continue: params.get('continue') ?? '',
    labelSelector: params.get('labelSelector') ?? '',
    fieldSelector: params.get('fieldSelector') ?? '',
  };
  // A legacy watch (no version, or 0) is served as a streamed list: the objects, then (with bookmarks) the end marker.
  const legacy = options.resourceVersion === '' || options.resourceVersion === '0';
  if (options.watch && legacy && options.sendInitialEvents === undefined && options.resourceVersionMatch === '') {
    options.sendInitialEvents = true;
    options.resourceVersionMatch = 'NotOlderThan';
  }
  return options;
}

const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, body: `Forbidden: ${detail}` });
const notSupported = (field: string, value: string, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported',
  field,
  body: `Unsupported value: ${goQuote(value)}: supported values: ${supported.map(goQuote).join(', ')}`,
});

/** `ValidateListOptions` (apiserver `pkg/apis/meta/internalversion/validation/validation.go`), the watch half. */
function watchOptionErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errors.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match !== '') {
    if (options.sendInitialEvents === undefined)
      errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if (options.continue !== '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errors;
}

/** `ValidateListOptions`, the list half. */
function listOptionErrors(options: ListOptions): FieldError[] {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (match !== '') {
    if (options.resourceVersion === '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (options.continue !== '') errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errors.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && options.resourceVersion === '0')
      errors.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (options.sendInitialEvents !== undefined) errors.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errors;
}

/** Throws kube's 422 (`ListOptions.meta.k8s.io "" is invalid: …`) for options it refuses. */
export function validateListOptions(options: ListOptions): void {
  const errors = options.watch ? watchOptionErrors(options) : listOptionErrors(options);
  if (errors.length > 0) throw new ApiError(invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errors));
}

/**
 * A resourceVersion as the storage versioner parses it (`APIObjectVersioner.ParseResourceVersion`): '' and '0'
 * are 0. Another value that is no unsigned integer is refused with a 400.
 */
export function parseResourceVersion(resourceVersion: string): number {
  if (resourceVersion === '' || resourceVersion === '0') return 0;
  if (!/^\d+$/.test(resourceVersion) || !Number.isSafeInteger(Number(resourceVersion))) {
    throw new ApiError(
      badRequest(
        `invalid resource version: resourceVersion: Invalid value: ${goQuote(resourceVersion)}: strconv.ParseUint: parsing ${goQuote(resourceVersion)}: invalid syntax`,
      ),
    );
  }
  return Number(resourceVersion);
}
