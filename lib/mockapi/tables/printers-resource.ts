import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, nameCell } from './columns';
import { list, optional } from './fields';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for dynamic resource allocation: printDeviceClass,
 * printResourceClaim (resourceClaimState) and printResourceClaimTemplate.
 */

const nameAndAge: Printer = {
  columns: [NAME_COLUMN, AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), ageCell(object, now)] }),
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
  row: (object, now) => ({ cells: [nameCell(object), claimState(object), ageCell(object, now)] }),
};
