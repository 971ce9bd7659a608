import type { Status } from '../../kube/admission';
import { isRecord } from '../../kube/json';
import { objectAt, type JsonRecord } from '../../kube/record';
import { acts, notInvolved, type Involvement } from '../involved';
import { isCoreCreateOrUpdate, type PluginAttributes } from '../plugin';
import { pluginForbidden } from '../refusing-plugin';

// Hand-written after plugin/pkg/admission/denyserviceexternalips/admission.go.

const externalIPs = (object: unknown): string[] => {
  const ips = isRecord(object) ? objectAt(object as JsonRecord, 'spec').externalIPs : undefined;
  return Array.isArray(ips) ? ips.map(String) : [];
};

/** DenyServiceExternalIPs acts on Service creates and updates. */
export function denyServiceExternalIPsInvolvement(attributes: PluginAttributes): Involvement {
  if (!isCoreCreateOrUpdate(attributes, 'services')) return notInvolved('handles only Service creates and updates');
  return acts('refuses adding spec.externalIPs the stored Service did not have');
}

/**
 * DenyServiceExternalIPs (off by default), last of the built-in validating plugins: a Service create
 * or update may not add an external IP the stored Service did not have (403); keeping or removing
 * them passes. It never mutates.
 */
export function denyServiceExternalIPsValidate(attributes: PluginAttributes & { name?: string }, object: JsonRecord): Status | undefined {
  if (!denyServiceExternalIPsInvolvement(attributes).involved) return undefined;
  const wanted = externalIPs(object);
  if (wanted.length === 0) return undefined;
  // isSubset: on an update, every IP the stored Service already had.
  if (attributes.operation === 'UPDATE' && isRecord(attributes.oldObject)) {
    const had = new Set(externalIPs(attributes.oldObject));
    if (wanted.every((ip) => had.has(ip))) return undefined;
  }
  return pluginForbidden(attributes, object, 'Use of external IPs is denied by admission control');
}
