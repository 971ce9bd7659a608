import type { Json, JsonObject } from '../../kube/json';
import { compareBytes } from '../../go/json-marshal';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { at, integer, list, optional, record, text } from './fields';
import { humanDuration } from './human-duration';
import type { Printer } from './printer';
import { quantityText } from './printers-autoscaling';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for control-plane kinds: printControllerRevision
 * (formatResourceName), printResourceQuota, printComponentStatus, printCertificateSigningRequest
 * (extractCSRStatus), printFlowSchema (its list sorted as apihelpers.FlowSchemaSequence) and
 * printPriorityLevelConfiguration.
 */

/** metav1.GetControllerOf, written by formatResourceName: `<kind>.<group>/<name>` lowercased, `<none>` without one. */
function controllerOf(object: JsonObject): string {
  const owner = list(object, 'metadata', 'ownerReferences').find((ref) => optional(ref, 'controller') === true);
  if (owner === undefined) return '<none>';
  const apiVersion = text(owner, 'apiVersion');
  const group = apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '';
  const kind = text(owner, 'kind');
  if (kind === '' && group === '') return text(owner, 'name');
  return `${(group === '' ? kind : `${kind}.${group}`).toLowerCase()}/${text(owner, 'name')}`;
}

export const controllerRevisions: Printer = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller of the object'),
    column('Revision', 'string', doc('apps/v1beta1/ControllerRevision', 'revision')),
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), controllerOf(object), integer(object, 'revision'), ageCell(object, now)] }),
};

/** A resource list's quantity as the printer's zero-value Quantity prints it: `0` when absent. */
const amount = (resources: JsonObject, resource: string): string => (resources[resource] === undefined ? '0' : quantityText(resources[resource]));

/**
 * printResourceQuota: `resource: used/hard` for each hard resource, sorted by name; `limits.*` ones in the Limit
 * column, the others in Request.
 */
function quotaColumns(quota: JsonObject): [string, string] {
  const hard = record(quota, 'status', 'hard');
  const used = record(quota, 'status', 'used');
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort(compareBytes)) {
    const pieces = resource.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(`${resource}: ${amount(used, resource)}/${amount(hard, resource)}`);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const resourceQuotas: Printer = {
  columns: [
    NAME_COLUMN,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), ...quotaColumns(object), ageCell(object, now)] }),
};

export const componentStatuses: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Status of the component conditions'),
    column('Message', 'string', 'Message of the component conditions'),
    column('Error', 'string', 'Error of the component conditions'),
  ],
  row: (object) => {
    const healthy = list(object, 'conditions').find((condition) => text(condition, 'type') === 'Healthy');
    if (healthy === undefined) return { cells: [nameCell(object), 'Unknown', '', ''] };
    const status = text(healthy, 'status') === 'True' ? 'Healthy' : 'Unhealthy';
    return { cells: [nameCell(object), status, text(healthy, 'message'), text(healthy, 'error')] };
  },
};

/** extractCSRStatus: Denied, else Approved, else Pending; then `,Failed` and `,Issued`. */
function csrStatus(csr: JsonObject): string {
  const types = new Set(list(csr, 'status', 'conditions').map((condition) => text(condition, 'type')));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (text(csr, 'status', 'certificate').length > 0) status += ',Issued';
  return status;
}

const CSR_SPEC = 'certificates.k8s.io/v1beta1/CertificateSigningRequestSpec';

export const certificateSigningRequests: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', doc(CSR_SPEC, 'signerName')),
    column('Requestor', 'string', doc(CSR_SPEC, 'request')),
    column('RequestedDuration', 'string', doc('certificates.k8s.io/v1/CertificateSigningRequestSpec', 'expirationSeconds')),
    column('Condition', 'string', doc('certificates.k8s.io/v1beta1/CertificateSigningRequestStatus', 'conditions')),
  ],
  row: (object, now) => {
    const seconds = optional(object, 'spec', 'expirationSeconds');
    // csr.ExpirationSecondsToDuration: the seconds as a time.Duration.
    const requested = typeof seconds === 'number' ? humanDuration(Math.trunc(seconds) * 1000) : '<none>';
    return {
      cells: [
        nameCell(object),
        ageCell(object, now),
        text(object, 'spec', 'signerName') || '<none>',
        text(object, 'spec', 'username'),
        requested,
        csrStatus(object),
      ],
    };
  },
};

const FLOW_SPEC = 'flowcontrol.apiserver.k8s.io/v1/FlowSchemaSpec';

/** apihelpers.FlowSchemaSequence: by matchingPrecedence, then by name. */
function byPrecedence(a: JsonObject, b: JsonObject): number {
  const order = integer(a, 'spec', 'matchingPrecedence') - integer(b, 'spec', 'matchingPrecedence');
  return order !== 0 ? order : compareBytes(nameCell(a), nameCell(b));
}

export const flowSchemas: Printer = {
  columns: [
    NAME_COLUMN,
    column('PriorityLevel', 'string', doc('flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfigurationReference', 'name')),
    column('MatchingPrecedence', 'string', doc(FLOW_SPEC, 'matchingPrecedence')),
    column('DistinguisherMethod', 'string', doc(FLOW_SPEC, 'distinguisherMethod')),
    AGE_COLUMN,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  row: (object, now) => {
    const method = optional(object, 'spec', 'distinguisherMethod');
    const dangling = list(object, 'status', 'conditions').find((condition) => text(condition, 'type') === 'Dangling');
    return {
      cells: [
        nameCell(object),
        text(object, 'spec', 'priorityLevelConfiguration', 'name'),
        integer(object, 'spec', 'matchingPrecedence'),
        method === undefined ? '<none>' : text(method, 'type'),
        ageCell(object, now),
        dangling === undefined ? '?' : text(dangling, 'status'),
      ],
    };
  },
  order: (objects) => [...objects].sort(byPrecedence),
};

const QUEUING = 'flowcontrol.apiserver.k8s.io/v1/QueuingConfiguration';

/** An int32 of the spec, or `<none>` when the level is not limited or does not queue. */
const int32Or = (value: Json | undefined, present: boolean): number | string => (present ? (typeof value === 'number' ? Math.trunc(value) : 0) : '<none>');

export const priorityLevelConfigurations: Printer = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', doc('flowcontrol.apiserver.k8s.io/v1/PriorityLevelConfigurationSpec', 'type')),
    column('NominalConcurrencyShares', 'string', doc('flowcontrol.apiserver.k8s.io/v1/LimitedPriorityLevelConfiguration', 'nominalConcurrencyShares')),
    column('Queues', 'string', doc(QUEUING, 'queues')),
    column('HandSize', 'string', doc(QUEUING, 'handSize')),
    column('QueueLengthLimit', 'string', doc(QUEUING, 'queueLengthLimit')),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const limited = optional(object, 'spec', 'limited');
    const queuing = limited === undefined ? undefined : optional(limited, 'limitResponse', 'queuing');
    const queue = (field: string): number | string => int32Or(at(queuing, field), queuing !== undefined);
    return {
      cells: [
        nameCell(object),
        text(object, 'spec', 'type'),
        int32Or(at(limited, 'nominalConcurrencyShares'), limited !== undefined),
        queue('queues'),
        queue('handSize'),
        queue('queueLengthLimit'),
        ageCell(object, now),
      ],
    };
  },
};

/**
 * kube-aggregator's APIService TableConvertor (pkg/registry/apiservice/etcd/etcd.go ConvertToTable): the service
 * as `namespace/name` (`Local` without one), the Available condition's status, with its reason unless True.
 */
export const apiServices: Printer = {
  columns: [
    NAME_COLUMN,
    column('Service', 'string', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'string', 'Whether this service is available.'),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const service = optional(object, 'spec', 'service');
    const available = list(object, 'status', 'conditions').find((condition) => text(condition, 'type') === 'Available');
    let status = 'Unknown';
    if (available !== undefined) {
      const [value, reason] = [text(available, 'status'), text(available, 'reason')];
      status = value !== 'True' && reason.length > 0 ? `${value} (${reason})` : value;
    }
    return {
      cells: [nameCell(object), service === undefined ? 'Local' : `${text(service, 'namespace')}/${text(service, 'name')}`, status, ageCell(object, now)],
    };
  },
};
