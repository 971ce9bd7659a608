import type { Json, JsonObject } from '../../kube/json';
import { AGE_COLUMN, NAME_COLUMN, ageCell, column, doc, nameCell } from './columns';
import { list, optional, text } from './fields';
import type { Printer } from './printer';

/*
 * printers.go (kubernetes pkg/printers/internalversion) for the endpoints of services: printEndpoints
 * (formatEndpoints) and printEndpointSlice (formatDiscoveryPorts, formatDiscoveryEndpoints, listWithMoreString).
 */

// The printers show the first three addresses, then how many more there are.
const MAX_SHOWN = 3;

/** net.JoinHostPort: an IPv6 address in brackets. */
const joinHostPort = (host: string, port: number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

const portNumber = (port: Json): number => {
  const value = optional(port, 'port');
  return typeof value === 'number' ? Math.trunc(value) : 0;
};

/**
 * formatEndpoints with all ports: `ip:port` per address and port of each subset (an address alone in a subset
 * without ports), the first three, then ` + N more...`; `<none>` without subsets.
 */
function formatEndpoints(endpoints: JsonObject): string {
  const subsets = list(endpoints, 'subsets');
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = list(subset, 'addresses');
    const ports = list(subset, 'ports');
    // A headless service's subset may have no ports: its addresses alone.
    const pairs: (number | undefined)[] = ports.length === 0 ? [undefined] : ports.map(portNumber);
    for (const port of pairs) {
      count += addresses.length;
      for (const address of addresses) {
        if (shown.length === MAX_SHOWN) {
          more = true;
          break;
        }
        const ip = text(address, 'ip');
        shown.push(port === undefined ? ip : joinHostPort(ip, port));
      }
    }
  }
  const joined = shown.join(',');
  return more ? `${joined} + ${count - MAX_SHOWN} more...` : joined;
}

export const endpoints: Printer = {
  columns: [NAME_COLUMN, column('Endpoints', 'string', doc('v1/Endpoints', 'subsets')), AGE_COLUMN],
  row: (object, now) => ({ cells: [nameCell(object), formatEndpoints(object), ageCell(object, now)] }),
};

/** listWithMoreString: the shown items comma-joined, ` + N more...` past three, `<unset>` for none. */
function listWithMore(items: readonly string[]): string {
  const joined = items.slice(0, MAX_SHOWN).join(',');
  if (items.length > MAX_SHOWN) return `${joined} + ${items.length - MAX_SHOWN} more...`;
  return joined || '<unset>';
}

/** formatDiscoveryPorts: each port's number, else its name, else `*`. */
function discoveryPorts(slice: JsonObject): string {
  return listWithMore(
    list(slice, 'ports').map((port) => {
      const number = optional(port, 'port');
      if (typeof number === 'number') return String(Math.trunc(number));
      const portName = optional(port, 'name');
      return typeof portName === 'string' ? portName : '*';
    }),
  );
}

/** formatDiscoveryEndpoints: every address of every endpoint. */
function discoveryEndpoints(slice: JsonObject): string {
  return listWithMore(
    list(slice, 'endpoints').flatMap((endpoint) => list(endpoint, 'addresses').map((address) => (typeof address === 'string' ? address : ''))),
  );
}

const SLICE = 'discovery.k8s.io/v1beta1/EndpointSlice';

export const endpointSlices: Printer = {
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', doc(SLICE, 'addressType')),
    column('Ports', 'string', doc(SLICE, 'ports')),
    column('Endpoints', 'string', doc(SLICE, 'endpoints')),
    AGE_COLUMN,
  ],
  row: (object, now) => ({ cells: [nameCell(object), text(object, 'addressType'), discoveryPorts(object), discoveryEndpoints(object), ageCell(object, now)] }),
};

export const serviceCIDRs: Printer = {
  columns: [NAME_COLUMN, column('CIDRs', 'string', doc('networking.k8s.io/v1/ServiceCIDRSpec', 'cidrs')), AGE_COLUMN],
  row: (object, now) => ({
    cells: [
      nameCell(object),
      list(object, 'spec', 'cidrs')
        .map((cidr) => (typeof cidr === 'string' ? cidr : ''))
        .join(','),
      ageCell(object, now),
    ],
  }),
};

/** printIPAddress: the parent as `resource.group[/namespace]/name`, lowercased group resource; `<none>` without one. */
function parentRefText(address: JsonObject): string {
  const ref = optional(address, 'spec', 'parentRef');
  if (ref === undefined) return '<none>';
  const [resource, group] = [text(ref, 'resource'), text(ref, 'group')];
  const namespace = text(ref, 'namespace');
  return `${(group === '' ? resource : `${resource}.${group}`).toLowerCase()}${namespace === '' ? '' : `/${namespace}`}/${text(ref, 'name')}`;
}

export const ipAddresses: Printer = {
  // kube declares two columns and writes three cells (the age has no column): the Table says so too.
  columns: [NAME_COLUMN, column('ParentRef', 'string', doc('networking.k8s.io/v1/IPAddressSpec', 'parentRef'))],
  row: (object, now) => ({ cells: [nameCell(object), parentRefText(object), ageCell(object, now)] }),
};
