/**
 * The devices a ResourceClaim may take, per device class: what the claim evaluator charges as
 * `<class>.deviceclass.resource.k8s.io/devices`.
 *
 * Upstream: `pkg/quota/v1/evaluator/core/resource_claims.go` (v1.36, Usage) on the claim converted to
 * resource.k8s.io/v1 (toExternalResourceClaimOrError), after defaulting (`pkg/apis/resource/v1`
 * SetDefaults_ExactDeviceRequest and SetDefaults_DeviceSubRequest: mode ExactCount, count 1).
 * Every served version reads the same: v1 and v1beta2 nest a plain request under `exactly`, v1beta1
 * keeps its fields on the request itself (converted to `exactly` when deviceClassName is set).
 */
import { compareQuantities } from '../../kube/quantity';
import { listAt, objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { addQuantities, newQuantity } from './quantity-arithmetic';
import type { ResourceList } from './resource-list';

/** corev1.ResourceClaimsPerClass: `<class>.deviceclass.resource.k8s.io/devices`. */
export const DEVICES_PER_CLASS_SUFFIX = '.deviceclass.resource.k8s.io/devices';

/** resourceapi.AllocationResultsMaxSize: the most devices one allocation holds, charged for mode All. */
const ALLOCATION_RESULTS_MAX_SIZE = 32;

/** V1ResourceByDeviceClass. */
export function devicesOfClass(className: string): string {
  return className + DEVICES_PER_CLASS_SUFFIX;
}

/** A plain request for devices of one class: v1's ExactDeviceRequest or a DeviceSubRequest. */
interface PlainRequest {
  deviceClassName: string;
  allocationMode: string;
  count: number;
}

/** The request's fields, defaulted as storage defaults them before admission sees the claim. */
function plainRequest(fields: JsonRecord): PlainRequest {
  const allocationMode = stringAt(fields, 'allocationMode') || 'ExactCount';
  const count = typeof fields.count === 'number' && fields.count !== 0 ? fields.count : allocationMode === 'ExactCount' ? 1 : 0;
  return { deviceClassName: stringAt(fields, 'deviceClassName') ?? '', allocationMode, count };
}

/** The devices one plain request may take: its count, the worst case for All, none for a mode it does not know. */
function devicesOf(request: PlainRequest): number {
  switch (request.allocationMode) {
    case 'ExactCount':
      return request.count;
    case 'All':
      return ALLOCATION_RESULTS_MAX_SIZE;
    default:
      // A mode from a later version (after a downgrade) is not charged.
      return 0;
  }
}

/** One entry of `spec.devices.requests`, in v1's shape whatever version the claim was written in. */
type DeviceRequest = { kind: 'exactly'; request: PlainRequest } | { kind: 'firstAvailable'; subrequests: PlainRequest[] } | { kind: 'unknown' };

function deviceRequest(entry: JsonRecord): DeviceRequest {
  const subrequests = listAt(entry, 'firstAvailable');
  if (subrequests.length > 0) return { kind: 'firstAvailable', subrequests: subrequests.map(plainRequest) };
  const exactly = entry.exactly;
  if (exactly !== null && typeof exactly === 'object' && !Array.isArray(exactly)) return { kind: 'exactly', request: plainRequest(exactly as JsonRecord) };
  // v1beta1: the request itself names the class.
  if (stringAt(entry, 'deviceClassName')) return { kind: 'exactly', request: plainRequest(entry) };
  return { kind: 'unknown' };
}

function addInto(list: ResourceList, name: string, devices: number): void {
  const current = list.get(name);
  const quantity = newQuantity(devices);
  list.set(name, current === undefined ? quantity : addQuantities(current, quantity));
}

/**
 * The claim's devices per class. A request with alternatives (firstAvailable) is charged, per class,
 * the most its alternatives of that class may take; an exact request its count (a mode it does not
 * know still names its class, at zero).
 */
export function claimDevicesPerClass(claim: JsonRecord): ResourceList {
  const result: ResourceList = new Map();
  for (const entry of listAt(objectAt(objectAt(claim, 'spec'), 'devices'), 'requests')) {
    const request = deviceRequest(entry);
    if (request.kind === 'exactly') addInto(result, devicesOfClass(request.request.deviceClassName), devicesOf(request.request));
    if (request.kind !== 'firstAvailable') continue;
    const mostPerClass: ResourceList = new Map();
    for (const subrequest of request.subrequests) {
      const name = devicesOfClass(subrequest.deviceClassName);
      const devices = newQuantity(devicesOf(subrequest));
      // Only more than the class's largest so far (at first zero) is kept.
      if (compareQuantities(devices, mostPerClass.get(name) ?? newQuantity(0)) > 0) mostPerClass.set(name, devices);
    }
    for (const [name, devices] of mostPerClass) addInto(result, name, Number(devices.mantissa));
  }
  return result;
}
