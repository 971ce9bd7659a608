/**
 * A deletecollection through admission, as kube-apiserver runs it (k8s.io/apiserver/pkg/endpoints/handlers/
 * delete.go `DeleteCollection` builds one DELETE attributes record with an empty name; the generic store's
 * DeleteCollection, pkg/registry/generic/registry/store.go, deletes the selected items one by one, each
 * admitted through `rest.AdmissionToValidateObjectDeleteFunc` with the item as oldObject). kube-apiserver's
 * default `--delete-collection-workers=1` deletes them in list order and stops at the first refusal: the
 * items before it are gone, the client gets the refusal.
 */
import { joinApiVersion } from '../../kube/api-version';
import type { KubeObject } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import type { JsonObject } from '../../kube/json';
import { ApiError } from '../../kube/status';
import { listOf } from '../list';
import type { RestAnswer, RestCall } from '../rest';
import { baseAttributes, queryDryRun, requestOptions, type ServeCall, withQuery } from './admission-attributes';

/** Admits one attributes record: the refusal, if any, and the warnings to pass on. */
export type AdmitOne = (attributes: AdmissionAttributes) => Promise<{ rejection?: RestAnswer; warnings: readonly string[] }>;

/** The collection's selected items, at the call's version, in list order (the selectors of the call's query only). */
async function selectedItems(call: RestCall, serve: ServeCall): Promise<{ items: KubeObject[]; resourceVersion: string }> {
  const url = new URL(call.url.pathname, call.url);
  for (const name of ['labelSelector', 'fieldSelector']) {
    const value = call.url.searchParams.get(name);
    if (value !== null) url.searchParams.set(name, value);
  }
  const list = (await serve({ ...call, verb: 'list', url, body: '', contentType: null })).body as { items?: KubeObject[]; metadata?: JsonObject };
  const { entry } = call.route;
  // A list's items carry no kind of their own; each admitted item does (the decoded object).
  const items = (list.items ?? []).map((item) => ({ ...item, apiVersion: joinApiVersion(entry), kind: entry.kind }));
  return { items, resourceVersion: String(list.metadata?.resourceVersion ?? '') };
}

/** One item's delete, through the same downstream (the call's DeleteOptions body and dry run with it); the route names the item. */
function itemDelete(call: RestCall, item: KubeObject): RestCall {
  const { entry } = call.route;
  const namespace = entry.namespaced ? (item.metadata?.namespace ?? call.route.namespace) : '';
  const url = new URL(call.url.pathname, call.url);
  return {
    ...call,
    verb: 'delete',
    url: queryDryRun(call) ? withQuery(url, 'dryRun', 'All') : url,
    route: { ...call.route, namespace, name: item.metadata?.name ?? '' },
  };
}

/**
 * Serves a deletecollection: the call is first served as a dry run (so what kube refuses before deleting
 * anything, a 405 for namespaces, invalid DeleteOptions, is refused as before), then each selected item is
 * admitted and, admitted, deleted; the answer is the list as it was listed.
 */
export async function serveAdmittedCollectionDelete(call: RestCall, serve: ServeCall, admitOne: AdmitOne): Promise<RestAnswer> {
  await serve({ ...call, url: withQuery(call.url, 'dryRun', 'All') });
  const { items, resourceVersion } = await selectedItems(call, serve);
  const options = requestOptions('DeleteOptions', call, false);
  const dryRun = queryDryRun(call) || (Array.isArray(options.dryRun) && options.dryRun.includes('All'));
  const base = { ...baseAttributes(call), name: '' };
  const warnings: string[] = [];
  const warned = (answer: RestAnswer): RestAnswer => (warnings.length ? { ...answer, warnings } : answer);
  for (const item of items) {
    const attributes: AdmissionAttributes = {
      ...base,
      operation: 'DELETE',
      object: null,
      oldObject: item,
      dryRun,
      options: requestOptions('DeleteOptions', call, dryRun),
    };
    const admitted = await admitOne(attributes);
    warnings.push(...admitted.warnings);
    if (admitted.rejection) return warned(admitted.rejection);
    try {
      await serve(itemDelete(call, item));
    } catch (error) {
      // An item gone meanwhile (a webhook may delete it) is no failure: the store's worker skips NotFound.
      if (!(error instanceof ApiError && error.status.code === 404)) throw error;
    }
  }
  // The store answers the list as it listed it, before any item was deleted (store.go DeleteCollection returns listObj).
  return warned({ code: 200, body: listOf(call.route.entry, items, { resourceVersion }) });
}
