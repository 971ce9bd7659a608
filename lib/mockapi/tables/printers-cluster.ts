import type { JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { integer, list, optional, record, text } from './fields';
import { since } from './human-duration';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for nodes, events, ingresses and leases: printNode (with
 * findNodeRoles, getNodeInternalIP/ExternalIP), printEvent (wide), printIngress (formatHosts, formatPorts,
 * ingressLoadBalancerStatusStringer) and printLease.
 */

/** findNodeRoles: `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value, sorted and distinct. */
function nodeRoles(node: JsonObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(record(node, 'metadata', 'labels'))) {
    if (key.startsWith('node-role.kubernetes.io/')) {
      const role = key.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (key === 'kubernetes.io/role' && typeof value === 'string' && value) {
      roles.add(value);
    }
  }
  return [...roles].sort().join(',') || '<none>';
}

/** The Ready condition as Ready/NotReady (Unknown without one), then SchedulingDisabled when cordoned. */
function nodeStatus(node: JsonObject): string {
  const ready = list(node, 'status', 'conditions').filter((condition) => text(condition, 'type') === 'Ready');
  const last = ready[ready.length - 1];
  const status = last === undefined ? ['Unknown'] : [text(last, 'status') === 'True' ? 'Ready' : 'NotReady'];
  if (optional(node, 'spec', 'unschedulable') === true) status.push('SchedulingDisabled');
  return status.join(',');
}

const nodeAddress = (node: JsonObject, type: string): string =>
  text(
    list(node, 'status', 'addresses').find((address) => text(address, 'type') === type),
    'address',
  ) || '<none>';

const SYSTEM_INFO = 'v1/NodeSystemInfo';
export const nodes: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE_COLUMN,
    column('Version', 'string', doc(SYSTEM_INFO, 'kubeletVersion')),
    column('Internal-IP', 'string', doc('v1/NodeStatus', 'addresses'), { priority: 1 }),
    column('External-IP', 'string', doc('v1/NodeStatus', 'addresses'), { priority: 1 }),
    column('OS-Image', 'string', doc(SYSTEM_INFO, 'osImage'), { priority: 1 }),
    column('Kernel-Version', 'string', doc(SYSTEM_INFO, 'kernelVersion'), { priority: 1 }),
    column('Container-Runtime', 'string', doc(SYSTEM_INFO, 'containerRuntimeVersion'), { priority: 1 }),
  ],
  row: (object, now) => {
    const info = (field: string): string => text(object, 'status', 'nodeInfo', field);
    return {
      cells: [
        nameCell(object),
        nodeStatus(object),
        nodeRoles(object),
        ageCell(object, now),
        info('kubeletVersion'),
        nodeAddress(object, 'InternalIP'),
        nodeAddress(object, 'ExternalIP'),
        info('osImage') || '<unknown>',
        info('kernelVersion') || '<unknown>',
        info('containerRuntimeVersion') || '<unknown>',
      ],
    };
  },
};

/** formatEventSource: component (or reportingController), then `, host` (or reportingInstance) when there is one. */
function eventSource(event: JsonObject): string {
  const component = text(event, 'source', 'component') || text(event, 'reportingComponent');
  const instance = text(event, 'source', 'host') || text(event, 'reportingInstance');
  return instance ? `${component}, ${instance}` : component;
}

const EVENT = 'v1/Event';
export const events: Printer = {
  columns: [
    column('Last Seen', 'string', doc(EVENT, 'lastTimestamp')),
    column('Type', 'string', doc(EVENT, 'type')),
    column('Reason', 'string', doc(EVENT, 'reason')),
    column('Object', 'string', doc(EVENT, 'involvedObject')),
    column('Subobject', 'string', doc('v1/ObjectReference', 'fieldPath'), { priority: 1 }),
    column('Source', 'string', doc(EVENT, 'source'), { priority: 1 }),
    column('Message', 'string', doc(EVENT, 'message')),
    column('First Seen', 'string', doc(EVENT, 'firstTimestamp'), { priority: 1 }),
    column('Count', 'string', doc(EVENT, 'count'), { priority: 1 }),
    column('Name', 'string', NAME_COLUMN.description, { format: 'name', priority: 1 }),
  ],
  row: (object, now) => {
    const first = optional(object, 'firstTimestamp') ? since(optional(object, 'firstTimestamp'), now) : since(optional(object, 'eventTime'), now);
    let last = optional(object, 'lastTimestamp') ? since(optional(object, 'lastTimestamp'), now) : first;
    let count = integer(object, 'count');
    const series = optional(object, 'series');
    if (series !== undefined) {
      last = since(optional(object, 'series', 'lastObservedTime'), now);
      count = integer(object, 'series', 'count');
    } else if (count === 0) {
      count = 1; // singleton events of the events.k8s.io API carry no count
    }
    const kind = text(object, 'involvedObject', 'kind').toLowerCase();
    const involved = text(object, 'involvedObject', 'name');
    const target = involved ? `${kind}/${involved}` : kind;
    return {
      cells: [
        last,
        text(object, 'type'),
        text(object, 'reason'),
        target,
        text(object, 'involvedObject', 'fieldPath'),
        eventSource(object),
        text(object, 'message').trim(),
        first,
        count,
        nameCell(object),
      ],
    };
  },
};

/** formatHosts: the first three rules' hosts, `+ N more...` past them, `*` when none names a host. */
function ingressHosts(ingress: JsonObject): string {
  const rules = list(ingress, 'spec', 'rules');
  const hosts: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (hosts.length === 3) more = true;
    if (!more && text(rule, 'host')) hosts.push(text(rule, 'host'));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${rules.length - 3} more...` : hosts.join(',');
}

function ingressAddress(ingress: JsonObject): string {
  const addresses = new Set<string>();
  for (const entry of list(ingress, 'status', 'loadBalancer', 'ingress')) {
    const address = text(entry, 'ip') || text(entry, 'hostname');
    if (address) addresses.add(address);
  }
  return [...addresses].sort().join(',');
}

export const ingresses: Printer = {
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  row: (object, now) => {
    const className = optional(object, 'spec', 'ingressClassName');
    const ports = list(object, 'spec', 'tls').length > 0 ? '80, 443' : '80';
    return {
      cells: [
        nameCell(object),
        typeof className === 'string' ? className : '<none>',
        ingressHosts(object),
        ingressAddress(object),
        ports,
        ageCell(object, now),
      ],
    };
  },
};

export const leases: Printer = {
  columns: [NAME_COLUMN, column('Holder', 'string', doc('coordination.k8s.io/v1/LeaseSpec', 'holderIdentity')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'spec', 'holderIdentity'), ageCell(object, now)] }),
};
