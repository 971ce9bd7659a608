/**
 * Which requests LimitRanger acts on, in both phases.
 *
 * Upstream: `plugin/pkg/admission/limitranger/admission.go` — the handler (create and update),
 * `DefaultLimitRangerActions.SupportsAttributes` (pods and claims by kind; the `resize` subresource of
 * a pod; no other subresource; never a plain pod update, whose containers are immutable) and
 * `runLimitFunc` (an object whose stored version is being deleted is left alone).
 */
import type { Operation } from '../../kube/admission';
import { objectAt, type JsonRecord } from '../../kube/record';

export interface LimitRangerAttributes {
  operation: Operation;
  /** The request's kind: LimitRanger decides by kind, not by resource. */
  kind: { group: string; kind: string };
  subResource?: string;
  /** The stored object, on update. */
  oldObject?: JsonRecord | null;
}

/** Whether LimitRanger mutates (and validates) this request. */
export function limitRangerHandles({ operation, kind, subResource = '', oldObject }: LimitRangerAttributes): boolean {
  if (operation !== 'CREATE' && operation !== 'UPDATE') return false;
  const isPod = kind.group === '' && kind.kind === 'Pod';
  const isClaim = kind.group === '' && kind.kind === 'PersistentVolumeClaim';
  let supported: boolean;
  if (subResource === 'resize') supported = isPod && operation === 'UPDATE';
  else if (subResource !== '') supported = false;
  else supported = isClaim || (isPod && operation === 'CREATE');
  if (!supported) return false;
  const deletion = oldObject ? objectAt(oldObject, 'metadata').deletionTimestamp : undefined;
  return deletion === undefined || deletion === null;
}
