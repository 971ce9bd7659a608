import type { Status } from '../../kube/admission';
import type { AdmissionAttributes } from '../../kube/attributes';
import { isRecord } from '../../kube/json';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { tooManyRequests } from '../../kube/status';
import type { EventRateLimit } from './event-rate-limit-configuration';
import { BucketCache, TokenBucket, type PluginClock } from './token-bucket';

// Hand-written after plugin/pkg/admission/eventratelimit (admission.go, limitenforcer.go, cache.go).

/** limitenforcer.go defaultCacheSize: the buckets kept when cacheSize is 0. */
const DEFAULT_CACHE_SIZE = 4096;

/** What the plugin reads of a request. */
type EventAttributes = Pick<AdmissionAttributes, 'operation' | 'kind' | 'namespace' | 'userInfo' | 'object' | 'dryRun'>;

/** getSourceAndObjectKey: the event's source and involved object, joined with nothing between. */
function sourceAndObjectKey(object: unknown): string {
  if (!isRecord(object)) return '';
  const source = objectAt(object as JsonRecord, 'source');
  const involved = objectAt(object as JsonRecord, 'involvedObject');
  const fields = [stringAt(source, 'component'), stringAt(source, 'host')];
  fields.push(...['kind', 'namespace', 'name', 'uid', 'apiVersion'].map((field) => stringAt(involved, field)));
  return fields.map((field) => field ?? '').join('');
}

const KEYS: Record<EventRateLimit['type'], (attributes: EventAttributes) => string> = {
  Server: () => '',
  Namespace: (attributes) => attributes.namespace,
  User: (attributes) => attributes.userInfo.username ?? '',
  SourceAndObject: (attributes) => sourceAndObjectKey(attributes.object),
};

/** One limit's buckets: one for Server, else an LRU of them by key. */
function limitEnforcer(limit: EventRateLimit, clock: PluginClock): (attributes: EventAttributes) => string | undefined {
  const newBucket = () => new TokenBucket(limit.qps, limit.burst, clock);
  const single = limit.type === 'Server' ? newBucket() : undefined;
  const cache = new BucketCache(limit.cacheSize === 0 ? DEFAULT_CACHE_SIZE : limit.cacheSize, newBucket);
  const keyOf = KEYS[limit.type];
  return (attributes) => {
    const key = keyOf(attributes);
    const bucket = single ?? cache.get(key);
    return bucket.tryAccept() ? undefined : `limit reached on type ${limit.type} for key ${key}`;
  };
}

/** Whether EventRateLimit counts the request: creates and updates of core Events, not dry runs. */
export function eventRateLimitHandles(attributes: Pick<AdmissionAttributes, 'operation' | 'kind' | 'dryRun'>): boolean {
  // admission.go compares GroupKinds with api.Kind("Event"): the core group only, so events.k8s.io Events pass uncounted.
  if (attributes.operation !== 'CREATE' && attributes.operation !== 'UPDATE') return false;
  return attributes.kind.group === '' && attributes.kind.kind === 'Event' && !attributes.dryRun;
}

/** The plugin as kube-apiserver builds it from its Configuration: stateful, one per cluster. */
export interface EventRateLimiter {
  /** Takes a token from every limit's bucket for the request; the 429 when any had none. */
  validate(attributes: EventAttributes): Status | undefined;
}

/**
 * EventRateLimit (off by default, validation phase after PodTolerationRestriction): each limit's
 * token bucket for the request's key (the server, its namespace, its user, or its event's source and
 * object) gives one token; every limit is asked even after one refuses, and the refusals together are
 * the 429 (admission.go Validate: utilerrors.NewAggregate in NewTooManyRequestsError).
 */
export function createEventRateLimiter(limits: readonly EventRateLimit[], clock: PluginClock): EventRateLimiter {
  const enforcers = limits.map((limit) => limitEnforcer(limit, clock));
  return {
    validate(attributes) {
      if (!eventRateLimitHandles(attributes)) return undefined;
      const refusals = enforcers.map((accept) => accept(attributes)).filter((r): r is string => r !== undefined);
      if (refusals.length === 0) return undefined;
      const unique = [...new Set(refusals)];
      return tooManyRequests(unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`);
    },
  };
}

/** For explain: whether EventRateLimit counts the request against its buckets. */
export function eventRateLimitInvolvement(attributes: AdmissionAttributes): { involved: boolean; reason: string } {
  if (eventRateLimitHandles(attributes))
    return { involved: true, reason: 'takes a token from each limit’s bucket (server, namespace, user, source and object); an empty one refuses (429)' };
  if (attributes.kind.kind === 'Event' && attributes.kind.group !== '') return { involved: false, reason: 'counts only core Events (v1), not events.k8s.io' };
  return { involved: false, reason: attributes.dryRun ? 'a dry run is not counted' : 'handles only Event creates and updates' };
}
