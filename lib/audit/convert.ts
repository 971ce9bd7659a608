import type { AdmissionRequest, GroupVersionKind, GroupVersionResource, KubeObject, Operation } from '../kube/admission';
import { joinApiVersion } from '../kube/api-version';
import type { AdmissionAttributes } from '../kube/attributes';
import { defaultCatalog, type CatalogEntry, type ResourceCatalog, type SubresourceInfo } from '../kube/catalog';
import { isNamespaceResource } from '../kube/gvr';
import { cloneJson, isRecord } from '../kube/json';
import { exemptionOf } from '../match/exempt';
import { hashSeed, SeededRandom } from '../random';
import { encodeReview } from '../review/encode';
import { Review } from '../review/review';
import { connectOptionsObject } from './connect-options';
import type { AuditEvent } from './event';
import {
  COLLECTION_ITEM_AFTER_DELETE,
  MANAGED_FIELDS_UNKNOWN,
  NAMESPACE_DELETE_OPTIONS_UNKNOWN,
  NOT_COMPLETED,
  OBJECT_IS_RESULT,
  OLD_OBJECT_UNKNOWN,
  PLUGIN_CHANGES_UNKNOWN,
  POD_DELETE_OPTIONS_UNKNOWN,
  requestFailed,
} from './limits';
import { isReadVerb, routeOf, type Handler } from './operation';
import { createOptions, deleteOptions, updateOptions } from './options';
import { succeeded, unreachedBy } from './reached';
import type { AuditSource, ObjectOrigin } from './recorded-review';
import { parseRequestUri, type RequestUri } from './request-uri';
import type { SkippedRequest, SkipReason } from './skip';
import { userInfoOf } from './user';

/** One AdmissionRequest rebuilt from an audit event, with the harness Review to send it again. */
export interface AuditReview {
  source: AuditSource;
  /** The request as kube-apiserver encodes it for admission.k8s.io/v1 (uid derived from the auditID). */
  request: AdmissionRequest;
  /** The same request for `h.call()` / `h.admit()`, which give it a fresh uid per call. */
  review: Review;
  /** What the audit could not tell, so this request differs from the one kube-apiserver sent. */
  limits: string[];
}

export interface AuditConversion {
  /** In the order the requests first appear in the log. */
  reviews: AuditReview[];
  /** How many requests (distinct auditIDs) the events describe. */
  requests: number;
  /** The requests that gave no review, and why. */
  skipped: SkippedRequest[];
  /** How many requests were skipped for each reason. */
  skippedByReason: Partial<Record<SkipReason, number>>;
}

interface Skip {
  reason: SkipReason;
  detail: string;
}

/** What one audited request turns into: its reviews' parts, before uids and encoding. */
interface Built {
  attributes: AdmissionAttributes;
  objectFrom: ObjectOrigin;
  oldObjectFrom?: string;
  limits: string[];
}

// Kinds the built-in mutating plugins ordered before the webhooks change on create (ServiceAccount,
// LimitRanger, DefaultTolerationSeconds, Priority, RuntimeClass on pods; DefaultStorageClass and
// StorageObjectInUseProtection on claims and volumes; DefaultIngressClass; TaintNodesByCondition).
const PLUGIN_TOUCHED_KINDS = new Set(['/Pod', '/PersistentVolumeClaim', '/PersistentVolume', '/Node', 'networking.k8s.io/Ingress']);

/** The event a request is converted from: its ResponseComplete, or its ResponseStarted when that is all there is. */
function finalEvent(events: readonly AuditEvent[]): AuditEvent | Skip {
  const last = (stage: AuditEvent['stage']) => events.filter((e) => e.stage === stage).at(-1);
  const found = last('ResponseComplete') ?? (last('Panic') ? undefined : last('ResponseStarted'));
  if (found) return found;
  if (last('Panic')) return { reason: 'panicked', detail: 'the handler panicked; whether admission ran is unknown' };
  return { reason: 'no-response-stage', detail: 'only the RequestReceived stage was logged' };
}

/**
 * A create's or update's object as admission gets it: the handlers put the request's namespace into an
 * object that has none (rest.EnsureObjectNamespaceMatchesRequestNamespace) after the audit logged it.
 */
function placed(object: Record<string, unknown>, entry: CatalogEntry, namespace: string): KubeObject {
  const copy = cloneJson(object) as KubeObject;
  if (!entry.namespaced || !namespace) return copy;
  const metadata = isRecord(copy.metadata) ? copy.metadata : {};
  if (typeof metadata.namespace === 'string' && metadata.namespace !== '') return copy;
  // name, generateName and namespace are ObjectMeta's first members, in that order.
  const { name, generateName, namespace: _empty, ...rest } = metadata;
  const withNamespace = { ...(name !== undefined ? { name } : {}), ...(generateName !== undefined ? { generateName } : {}), namespace, ...rest };
  if (isRecord(copy.metadata)) return { ...copy, metadata: withNamespace };
  const { kind, apiVersion, ...members } = copy;
  return { ...(kind !== undefined ? { kind } : {}), ...(apiVersion !== undefined ? { apiVersion } : {}), metadata: withNamespace, ...members };
}

/** A list item as an object of its own: typed lists leave their items' kind and apiVersion out. */
function asItem(item: Record<string, unknown>, kind: GroupVersionKind): KubeObject {
  const { kind: _kind, apiVersion: _apiVersion, ...members } = cloneJson(item);
  return { kind: kind.kind, apiVersion: joinApiVersion(kind), ...members };
}

function deleteLimits(entry: CatalogEntry): string[] {
  if (entry.group === '' && entry.resource === 'pods') return [POD_DELETE_OPTIONS_UNKNOWN];
  if (entry.group === '' && entry.resource === 'namespaces') return [NAMESPACE_DELETE_OPTIONS_UNKNOWN];
  return [];
}

interface Target {
  event: AuditEvent;
  entry: CatalogEntry;
  sub: SubresourceInfo | undefined;
  operation: Operation;
  handler: Handler;
  gvr: GroupVersionResource;
  kind: GroupVersionKind;
  name: string;
  namespace: string;
  uri: RequestUri;
}

/** The reviews of one request whose route is known, or why it has none. */
function build(t: Target): Built[] | Skip {
  const { event, entry, operation, kind, uri } = t;
  const code = event.responseStatus?.code;
  const base = {
    operation,
    kind,
    resource: t.gvr,
    subResource: t.sub?.name ?? '',
    name: t.name,
    namespace: t.namespace,
    userInfo: userInfoOf(event),
  };
  const isCreate = operation === 'CREATE';
  const pluginLimits = isCreate && !t.sub && PLUGIN_TOUCHED_KINDS.has(`${kind.group}/${kind.kind}`) ? [PLUGIN_CHANGES_UNKNOWN] : [];
  switch (t.handler) {
    case 'connect': {
      // ConnectResource refuses any dryRun parameter with 400 before admission.
      if (uri.query.has('dryRun')) return { reason: 'connect-dry-run', detail: 'CONNECT requests refuse dryRun with 400 before admission' };
      const object = connectOptionsObject(kind, uri, { resource: entry.resource, name: t.name, subresource: t.sub?.name ?? '' });
      return [{ attributes: { ...base, object, oldObject: null, dryRun: false, options: null }, objectFrom: 'requestURI', limits: [] }];
    }
    case 'create':
    case 'update': {
      if (!isRecord(event.requestObject)) {
        return {
          reason: 'no-request-object',
          detail: `a ${event.verb} without requestObject${succeeded(code) ? '' : ` (it failed with ${code}: its body was refused before admission)`}`,
        };
      }
      const object = placed(event.requestObject, entry, t.namespace);
      const { options, dryRun } = isCreate ? createOptions(uri.query) : updateOptions(uri.query);
      const limits = [...(isCreate ? [] : [OLD_OBJECT_UNKNOWN]), MANAGED_FIELDS_UNKNOWN, ...pluginLimits];
      return [{ attributes: { ...base, object, oldObject: null, dryRun, options }, objectFrom: 'requestObject', limits }];
    }
    case 'patch': {
      const result = event.responseObject;
      if (!succeeded(code) || !isRecord(result) || (result.kind !== undefined && result.kind !== kind.kind)) {
        const why = !succeeded(code)
          ? `the patch failed with ${code}`
          : event.level === 'RequestResponse'
            ? 'responseObject is not the patched object'
            : 'the audit logged the patch only (level Request)';
        return { reason: 'patch-without-result', detail: why };
      }
      const { options, dryRun } = isCreate ? createOptions(uri.query) : updateOptions(uri.query);
      const limits = [...(isCreate ? [] : [OLD_OBJECT_UNKNOWN]), OBJECT_IS_RESULT];
      return [{ attributes: { ...base, object: placed(result, entry, t.namespace), oldObject: null, dryRun, options }, objectFrom: 'responseObject', limits }];
    }
    case 'delete': {
      const { options, dryRun } = deleteOptions(uri.query, event.requestObject);
      return [
        { attributes: { ...base, object: null, oldObject: null, dryRun, options }, objectFrom: 'none', limits: [OLD_OBJECT_UNKNOWN, ...deleteLimits(entry)] },
      ];
    }
    case 'deletecollection': {
      const list = event.responseObject;
      const items = succeeded(code) && isRecord(list) && Array.isArray(list.items) ? list.items.filter(isRecord) : [];
      if (items.length === 0) {
        const why = !succeeded(code)
          ? `it failed with ${code}`
          : isRecord(list)
            ? 'no item was deleted'
            : 'responseObject (level RequestResponse) is where the deleted items are';
        return { reason: 'deletecollection-without-items', detail: why };
      }
      const { options, dryRun } = deleteOptions(uri.query, event.requestObject);
      // One admission call per deleted item, each without a name (k8s.io/apiserver/pkg/endpoints/handlers/delete.go `DeleteCollection`).
      return items.map((item, i) => {
        const oldObject = asItem(item, kind);
        const itemNamespace = entry.namespaced ? (oldObject.metadata?.namespace ?? t.namespace) : '';
        return {
          attributes: { ...base, name: '', namespace: itemNamespace, object: null, oldObject, dryRun, options: cloneJson(options) },
          objectFrom: 'none',
          oldObjectFrom: `responseObject.items[${i}]`,
          limits: [COLLECTION_ITEM_AFTER_DELETE, ...deleteLimits(entry)],
        };
      });
    }
  }
}

/** Where the request went, or why it went nowhere a webhook could see. */
function targetOf(event: AuditEvent, catalog: ResourceCatalog): Target | Skip {
  const ref = event.objectRef;
  if (!ref?.resource) return { reason: 'non-resource-request', detail: `${event.verb} ${event.requestURI}` };
  // LogRequestMetadata fills apiGroup and apiVersion from the URL of every resource request.
  if (!ref.apiVersion) return { reason: 'resource-not-in-catalog', detail: `objectRef of ${ref.resource} has no apiVersion` };
  const group = ref.apiGroup ?? '';
  const gvrText = `${ref.resource}${group ? `.${group}` : ''}/${ref.apiVersion}`;
  const entry = catalog.resourceByName(group, ref.apiVersion, ref.resource);
  // A read never reaches admission, whatever it reads; only connecter subresources are admitted on GET.
  if (!entry) {
    if (isReadVerb(event.verb)) return { reason: 'read-only-verb', detail: `${event.verb} requests never reach admission` };
    return { reason: 'resource-not-in-catalog', detail: `no resource ${gvrText} in the catalog (register its CustomResourceDefinition)` };
  }
  const subresource = ref.subresource ?? '';
  const sub = subresource ? catalog.subresourceInfo({ group, version: ref.apiVersion, resource: ref.resource }, subresource) : undefined;
  if (subresource && !sub) {
    if (isReadVerb(event.verb)) return { reason: 'read-only-verb', detail: `${event.verb} requests never reach admission` };
    return { reason: 'subresource-not-in-catalog', detail: `${gvrText} has no subresource ${JSON.stringify(subresource)} in the catalog` };
  }
  const route = routeOf(event.verb, event.responseStatus?.code, entry, sub);
  if ('skip' in route) return { reason: route.skip, detail: route.detail };
  if (event.level !== 'Request' && event.level !== 'RequestResponse') {
    return { reason: 'level-below-request', detail: `logged at level ${event.level}: the request body is not in the event` };
  }
  const unreached = unreachedBy(event, route.operation, subresource);
  if (unreached) return unreached;
  const gvr: GroupVersionResource = { group: entry.group, version: entry.version, resource: entry.resource };
  const kind = catalog.kindFor(gvr, subresource) ?? { group: entry.group, version: entry.version, kind: entry.kind };
  const name = ref.name ?? '';
  // kube-apiserver gives a namespace's requests its own name as namespace.
  const namespace = isNamespaceResource(gvr) ? name : entry.namespaced ? (ref.namespace ?? '') : '';
  const exempt = exemptionOf({ operation: route.operation, kind, resource: gvr, subResource: subresource, name, namespace, object: null, oldObject: null });
  if (exempt) return { reason: 'exempt-from-webhooks', detail: exempt };
  return { event, entry, sub, operation: route.operation, handler: route.handler, gvr, kind, name, namespace, uri: parseRequestUri(event.requestURI) };
}

/** A version-4-shaped uid derived from the auditID: stable across runs, distinct per review of one request. */
function uidFor(auditID: string, index: number): string {
  return new SeededRandom(hashSeed(`${auditID}#${index}`)).uuid();
}

function isSkip(value: unknown): value is Skip {
  return isRecord(value) && typeof value.reason === 'string' && typeof value.detail === 'string';
}

/**
 * The AdmissionRequests kube-apiserver would have sent its webhooks for the audited requests: one per
 * request (one per deleted item for a deletecollection), from the request's ResponseComplete event (its
 * ResponseStarted when that is all there is) at level Request or RequestResponse. The catalog resolves
 * kinds and subresources (register CRDs into it for custom resources). Requests that never reached
 * admission, or whose object the audit does not hold, are skipped and counted by reason. Secret data is
 * kept as the audit logged it.
 */
export function reviewsFromAudit(events: readonly AuditEvent[], catalog: ResourceCatalog = defaultCatalog): AuditConversion {
  const byRequest = new Map<string, AuditEvent[]>();
  for (const event of events) {
    const group = byRequest.get(event.auditID);
    if (group) group.push(event);
    else byRequest.set(event.auditID, [event]);
  }
  const conversion: AuditConversion = { reviews: [], requests: byRequest.size, skipped: [], skippedByReason: {} };
  const skip = (event: AuditEvent, { reason, detail }: Skip) => {
    conversion.skipped.push({ auditID: event.auditID, verb: event.verb, requestURI: event.requestURI, reason, detail });
    conversion.skippedByReason[reason] = (conversion.skippedByReason[reason] ?? 0) + 1;
  };
  for (const [auditID, group] of byRequest) {
    const event = finalEvent(group);
    if (isSkip(event)) {
      skip(group[0] as AuditEvent, event);
      continue;
    }
    const target = targetOf(event, catalog);
    if (isSkip(target)) {
      skip(event, target);
      continue;
    }
    const built = build(target);
    if (isSkip(built)) {
      skip(event, built);
      continue;
    }
    const code = event.responseStatus?.code;
    const outcome = [
      ...(event.stage === 'ResponseStarted' ? [NOT_COMPLETED] : []),
      ...(succeeded(code) ? [] : [requestFailed(code as number, event.responseStatus?.reason, event.responseStatus?.message)]),
    ];
    built.forEach((b, i) => {
      const uid = uidFor(auditID, i);
      // The Review gets its own copy: the harness freezes a review's attributes once it is sent.
      const review = new Review(cloneJson(b.attributes));
      // A copy too, so requests of one deletecollection share nothing (encodeReview reuses kind and resource).
      const request = cloneJson(encodeReview(b.attributes, 'v1', uid).request as AdmissionRequest);
      const source: AuditSource = {
        from: 'audit',
        auditID,
        stage: event.stage as AuditSource['stage'],
        requestURI: event.requestURI,
        ...(event.requestReceivedTimestamp ? { timestamp: event.requestReceivedTimestamp } : {}),
        objectFrom: b.objectFrom,
        ...(b.oldObjectFrom ? { oldObjectFrom: b.oldObjectFrom } : {}),
      };
      conversion.reviews.push({ source, request, review, limits: [...b.limits, ...outcome] });
    });
  }
  return conversion;
}
