/**
 * Which requests LimitRanger acts on, in both phases.
 *
 * Upstream: `plugin/pkg/admission/limitranger/admission.go` — the handler (create and update),
 * `DefaultLimitRangerActions.SupportsAttributes` (pods and claims by kind; the `resize` subresource of
 * a pod; no other subresource; never a plain pod update, whose containers are immutable) and
 * `runLimitFunc` (an object whose stored version is being deleted is left alone).
 */
import type { Operation } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { objectAt, type JsonRecord } from '../../kube/record';
import { acts, notInvolved, type AdmissionPhase, type Involvement } from '../involved';
import type { PluginAttributes } from '../plugin';

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

const NO_KIND = { group: '', kind: '' };

/** limitRangerHandles, with why not; both phases also need a namespace to read LimitRanges from (not read here). */
function limitRangerScope(attributes: PluginAttributes): string | undefined {
  const oldObject = (isRecord(attributes.oldObject) ? attributes.oldObject : null) as JsonRecord | null;
  const scope = { operation: attributes.operation, kind: attributes.kind ?? NO_KIND, subResource: attributes.subResource };
  if (!limitRangerHandles(scope)) return 'handles only pod creates, pods/resize updates and PersistentVolumeClaim creates and updates';
  if (!limitRangerHandles({ ...scope, oldObject })) return 'the stored object is being deleted';
  if (!attributes.namespace) return 'no namespace to read LimitRanges from';
  return undefined;
}

const isPodKind = (attributes: PluginAttributes): boolean => attributes.kind?.group === '' && attributes.kind.kind === 'Pod';

/** LimitRanger in each phase: pods get defaults in the mutation phase (claims only in validation); both are checked in the validation phase. */
export function limitRangerInvolvement(phase: AdmissionPhase): (attributes: PluginAttributes) => Involvement {
  return (attributes) => {
    const outside = limitRangerScope(attributes);
    if (outside !== undefined) return notInvolved(outside);
    if (phase === 'mutation') {
      // Only pods get defaults; claims are checked in the validation phase alone.
      if (!isPodKind(attributes)) return notInvolved('a claim gets no defaults; its storage is checked in the validation phase');
      return acts("gives containers the namespace's LimitRange default requests and limits (if it has any)");
    }
    return isPodKind(attributes)
      ? acts("checks the containers' requests and limits against the namespace's LimitRanges (min, max, ratio)")
      : acts("checks the claim's storage request against the namespace's LimitRanges (min, max)");
  };
}
