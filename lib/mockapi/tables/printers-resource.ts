import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, column, NAME_COLUMN } from './columns';
import { list, optional, text } from './fields';
import { since } from './human-duration';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for dynamic resource allocation: printDeviceClass,
 * printResourceClaim (resourceClaimState) and printResourceClaimTemplate.
 */

const name = (object: JsonObject): string => text(object, 'metadata', 'name');
const age = (object: JsonObject, now: number): string => since(optional(object, 'metadata', 'creationTimestamp'), now);

const nameAndAge: Printer = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  row: (object, now) => ({ cells: [name(object), age(object, now)] }),
};

export const deviceClasses = nameAndAge;
export const resourceClaimTemplates = nameAndAge;

/** resourceClaimState: deleted, then pending (unallocated) or allocated (and reserved). */
function claimState(claim: JsonObject): string {
  const deleting = optional(claim, 'metadata', 'deletionTimestamp') !== undefined;
  const states: string[] = deleting ? ['deleted'] : [];
  if (optional(claim, 'status', 'allocation') === undefined) {
    if (!deleting) states.push('pending');
  } else {
    states.push('allocated');
    if (list(claim, 'status', 'reservedFor').length > 0) states.push('reserved');
  }
  return states.join(',');
}

export const resourceClaims: Printer = {
  columns: [NAME_COLUMN, column('State', 'string', 'A summary of the current state (allocated, pending, reserved, etc.).'), AGE_COLUMN],
  row: (object, now) => ({ cells: [name(object), claimState(object), age(object, now)] }),
};
