/**
 * ResourceQuota admission (validation phase, the last plugin of the chain): whether a request fits the
 * namespace's quotas, and the usage to record if it does.
 *
 * Upstream: `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/admission.go` (Validate:
 * create and update only, namespaced objects only, never a namespace's creation) and `controller.go`
 * (Evaluate: ignored resources, the evaluator, its Handles; checkAttributes: no quota, nothing to do;
 * checkQuotas: a dry run is checked but changes nothing). Every refusal is `admission.NewForbidden`.
 */
import { forbidden, type ApiStatus } from '../../kube/status';
import { objectAt, stringAt, type JsonRecord } from '../../kube/record';
import { checkRequest, quotaStateOf } from './check-request';
import type { QuotaAttributes, QuotaContext } from './evaluator';
import { resourceQuotaInvolvement } from './involvement';
import { evaluatorFor } from './registry';
import { resourceListToJson, resourceListsEqual } from './resource-list';

/** The new `status.used` of a quota the request changes, as kube-apiserver would write it. */
export interface QuotaUsageUpdate {
  name: string;
  used: Record<string, string>;
}

export type QuotaAdmitResult =
  | { ok: true; updatedUsage: QuotaUsageUpdate[] }
  | {
      ok: false;
      /** The client's message: `pods "x" is forbidden: <cause>`. */
      message: string;
      /** The error text alone, e.g. `failed quota: compute: must specify limits.cpu for: sidecar`. */
      cause: string;
      /** The 403 Status kube-apiserver answers with. */
      status: ApiStatus;
    };

/** admission.NewForbidden's name: the request's, else the object's name or generateName, else `Unknown`. */
function subjectName(attributes: QuotaAttributes): string {
  if (attributes.name) return attributes.name;
  const metadata = attributes.object ? objectAt(attributes.object, 'metadata') : {};
  return stringAt(metadata, 'name') || stringAt(metadata, 'generateName') || 'Unknown';
}

/**
 * ResourceQuota's Validate for one request against the ResourceQuota objects of its namespace (as
 * stored, `status` included: a quota without `status.hard` enforces nothing). `updatedUsage` lists the
 * quotas whose `status.used` the request raises; it is empty for a dry run, which is checked all the same.
 */
export function quotaAdmit(attributes: QuotaAttributes, quotas: readonly JsonRecord[], context: Partial<QuotaContext> = {}): QuotaAdmitResult {
  const allowed: QuotaAdmitResult = { ok: true, updatedUsage: [] };
  if (!resourceQuotaInvolvement(attributes).involved || quotas.length === 0) return allowed;
  const evaluator = evaluatorFor(attributes.resource, context);

  const states = quotas.map(quotaStateOf);
  const checked = checkRequest(states, attributes, evaluator, { ...context, now: context.now ?? new Date() });
  if (!checked.ok) {
    const status = forbidden(attributes.resource, subjectName(attributes), checked.cause);
    return { ok: false, message: status.message ?? '', cause: checked.cause, status };
  }
  if (attributes.dryRun) return allowed;
  const updatedUsage = checked.quotas
    .filter((quota, index) => !resourceListsEqual((states[index] as (typeof states)[number]).used, quota.used))
    .map((quota) => ({ name: quota.name, used: resourceListToJson(quota.used) }));
  return { ok: true, updatedUsage };
}
