import type { ApiStatus } from '../kube/status';

/** apimachinery `NewResourceExpired`: 410, reason Expired, no details. */
export function resourceExpired(message: string, continueToken?: string): ApiStatus {
  // A paginated list that lost its snapshot carries a token to go on from in the Status's ListMeta.
  const metadata = (continueToken ? { continue: continueToken } : {}) as Record<string, never>;
  return { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, reason: 'Expired', code: 410 };
}

// apiserver `pkg/storage/etcd3/errors.go`: the texts of a list whose version etcd has compacted.
export const LIST_TOO_OLD = 'The resourceVersion for the provided list is too old.';
export const CONTINUE_TOO_OLD =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, ' +
  'or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an ' +
  'inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** The watch cache's answer to a watch from a version it no longer holds (`watch_cache.go`, getAllEventsSinceLocked). */
export const watchTooOld = (requested: number, oldest: number): ApiStatus => resourceExpired(`too old resource version: ${requested} (${oldest})`);

/**
 * apiserver `pkg/storage/errors.go` `NewTooLargeResourceVersionError`: a read at a version the store has not
 * reached. kube-apiserver first waits up to 3 s for it; the mock answers at once, since nothing writes unasked.
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiStatus {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    reason: 'Timeout',
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    code: 504,
  };
}
