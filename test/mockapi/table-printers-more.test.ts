import type { JsonObject } from '../../lib/kube/json';
import { horizontalPodAutoscalers } from '../../lib/mockapi/tables/printers-autoscaling';
import * as control from '../../lib/mockapi/tables/printers-control';
import * as endpoints from '../../lib/mockapi/tables/printers-endpoints';
import * as dra from '../../lib/mockapi/tables/printers-resource';
import * as storage from '../../lib/mockapi/tables/printers-storage';
import { cells, header, meta } from './printer-fixtures';

/*
 * kube's printers (kubernetes pkg/printers/internalversion/printers.go) for endpoints, autoscaling, control-plane,
 * storage and node kinds, as the mock API runs them: columns, and cells as printers_test.go expects them
 * (TestPrintHPA's targets among them).
 */

describe('endpoints and endpoint slices', () => {
  it('endpoints: ip:port per address and port, the first three, then how many more', () => {
    expect(header(endpoints.endpoints)).toEqual(['Name:string', 'Endpoints:string', 'Age:string']);
    expect(cells(endpoints.endpoints, { metadata: meta('none') })).toEqual(['none', '<none>', '3d1h']);
    const subsets: JsonObject[] = [
      { addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }, { port: 443 }] },
      { addresses: [{ ip: 'fd00::1' }] },
    ];
    expect(cells(endpoints.endpoints, { metadata: meta('web'), subsets })[1]).toBe('10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...');
    const v6: JsonObject[] = [{ addresses: [{ ip: 'fd00::1' }], ports: [{ port: 8080 }] }, { addresses: [{ ip: '10.0.0.9' }] }];
    expect(cells(endpoints.endpoints, { metadata: meta('v6'), subsets: v6 })[1]).toBe('[fd00::1]:8080,10.0.0.9');
  });

  it('endpoint slices: address type, ports (number, else name, else *) and addresses', () => {
    expect(header(endpoints.endpointSlices)).toEqual(['Name:string', 'AddressType:string', 'Ports:string', 'Endpoints:string', 'Age:string']);
    const slice: JsonObject = {
      metadata: meta('web-abc'),
      addressType: 'IPv4',
      ports: [{ port: 80 }, { name: 'metrics' }, {}, { port: 9090 }],
      endpoints: [{ addresses: ['10.0.0.1', '10.0.0.2'] }, { addresses: ['10.0.0.3'] }],
    };
    expect(cells(endpoints.endpointSlices, slice)).toEqual(['web-abc', 'IPv4', '80,metrics,* + 1 more...', '10.0.0.1,10.0.0.2,10.0.0.3', '3d1h']);
    expect(cells(endpoints.endpointSlices, { metadata: meta('empty'), addressType: 'IPv6' }).slice(2, 4)).toEqual(['<unset>', '<unset>']);
  });
});

describe('service CIDRs and IP addresses', () => {
  it('service CIDRs join their CIDRs', () => {
    expect(header(endpoints.serviceCIDRs)).toEqual(['Name:string', 'CIDRs:string', 'Age:string']);
    expect(cells(endpoints.serviceCIDRs, { metadata: meta('kubernetes'), spec: { cidrs: ['10.96.0.0/12', 'fd00:10:96::/112'] } })).toEqual([
      'kubernetes',
      '10.96.0.0/12,fd00:10:96::/112',
      '3d1h',
    ]);
  });

  it('IP addresses name their parent; the age is a third cell past the two columns, as kube writes it', () => {
    expect(header(endpoints.ipAddresses)).toEqual(['Name:string', 'ParentRef:string']);
    const parentRef = { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' };
    expect(cells(endpoints.ipAddresses, { metadata: meta('10.96.0.1'), spec: { parentRef } })).toEqual(['10.96.0.1', 'services/default/kubernetes', '3d1h']);
    const gateway = { group: 'Gateway.Networking.k8s.io', resource: 'Gateways', name: 'gw' };
    expect(cells(endpoints.ipAddresses, { metadata: meta('10.0.0.7'), spec: { parentRef: gateway } })[1]).toBe('gateways.gateway.networking.k8s.io/gw');
    expect(cells(endpoints.ipAddresses, { metadata: meta('10.0.0.8'), spec: {} })[1]).toBe('<none>');
  });
});

describe('horizontal pod autoscalers', () => {
  const hpa = (spec: JsonObject, status: JsonObject = {}): JsonObject => ({
    metadata: { name: 'some-hpa' },
    spec: { scaleTargetRef: { name: 'some-rc', kind: 'ReplicationController' }, maxReplicas: 10, ...spec },
    status: { currentReplicas: 4, desiredReplicas: 5, ...status },
  });
  const targets = (spec: JsonObject, status: JsonObject = {}) => cells(horizontalPodAutoscalers, hpa({ minReplicas: 2, ...spec }, status))[2];

  it('columns, and minReplicas unset', () => {
    expect(header(horizontalPodAutoscalers)).toEqual([
      'Name:string',
      'Reference:string',
      'Targets:string',
      'MinPods:string',
      'MaxPods:string',
      'Replicas:string',
      'Age:string',
    ]);
    expect(cells(horizontalPodAutoscalers, hpa({}))).toEqual(['some-hpa', 'ReplicationController/some-rc', '<none>', '<unset>', 10, 4, '<unknown>']);
  });

  it('external, pods and object metrics: current/target, (avg) after an average target', () => {
    const external = (target: JsonObject) => ({ metrics: [{ type: 'External', external: { metric: { name: 'm' }, target } }] });
    expect(targets(external({ type: 'AverageValue', averageValue: '100m' }))).toBe('<unknown>/100m (avg)');
    const externalAverage = { currentMetrics: [{ type: 'External', external: { metric: { name: 'm' }, current: { averageValue: '50m' } } }] };
    expect(targets(external({ type: 'AverageValue', averageValue: '100m' }), externalAverage)).toBe('50m/100m (avg)');
    expect(targets(external({ type: 'Value', value: '100m' }))).toBe('<unknown>/100m');
    const externalValue = { currentMetrics: [{ type: 'External', external: { metric: { name: 'm' }, current: { value: '50m' } } }] };
    expect(targets(external({ type: 'Value', value: '100m' }), externalValue)).toBe('50m/100m');
    const pods = { metrics: [{ type: 'Pods', pods: { metric: { name: 'p' }, target: { type: 'AverageValue', averageValue: '100m' } } }] };
    expect(targets(pods)).toBe('<unknown>/100m');
    expect(targets(pods, { currentMetrics: [{ type: 'Pods', pods: { metric: { name: 'p' }, current: { averageValue: '50m' } } }] })).toBe('50m/100m');
    const object = { metrics: [{ type: 'Object', object: { describedObject: { kind: 'Service', name: 's' }, target: { type: 'Value', value: '100m' } } }] };
    expect(targets(object, { currentMetrics: [{ type: 'Object', object: { current: { value: '50m' } } }] })).toBe('50m/100m');
  });

  it('resource metrics: a value, or a utilization (`<auto>` without a target)', () => {
    const cpu = (target: JsonObject) => ({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target } }] });
    expect(targets(cpu({ type: 'AverageValue', averageValue: '100m' }))).toBe('cpu: <unknown>/100m');
    expect(
      targets(cpu({ type: 'AverageValue', averageValue: '100m' }), {
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '50m' } } }],
      }),
    ).toBe('cpu: 50m/100m');
    expect(targets(cpu({ type: 'Utilization', averageUtilization: 80 }))).toBe('cpu: <unknown>/80%');
    const current = { currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50 } } }] };
    expect(targets(cpu({ type: 'Utilization', averageUtilization: 80 }), current)).toBe('cpu: 50%/80%');
    expect(targets(cpu({ type: 'Utilization' }))).toBe('cpu: <unknown>/<auto>');
    const container = { metrics: [{ type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { averageUtilization: 60 } } }] };
    expect(targets(container)).toBe('memory: <unknown>/60%');
  });

  it('shows two metrics, then how many more; an autoscaling/v1 object’s CPU target is its one metric', () => {
    const metric = (name: string) => ({ type: 'Resource', resource: { name, target: { type: 'Utilization', averageUtilization: 80 } } });
    expect(targets({ metrics: [metric('cpu'), metric('memory'), metric('cpu'), { type: 'Bogus' }] })).toBe(
      'cpu: <unknown>/80%, memory: <unknown>/80% + 2 more...',
    );
  });

  it('an autoscaling/v1 object is printed as its internal (v2) form: the metrics its annotation keeps, then its CPU target', () => {
    const v1 = (annotations: Record<string, string>, spec: JsonObject, status: JsonObject = {}) => {
      const object = hpa({ minReplicas: 2, ...spec }, status);
      return cells(horizontalPodAutoscalers, {
        ...object,
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'some-hpa', annotations },
      })[2];
    };
    expect(v1({}, { targetCPUUtilizationPercentage: 70 }, { currentCPUUtilizationPercentage: 35 })).toBe('cpu: 35%/70%');
    const memory = JSON.stringify([{ type: 'Resource', resource: { name: 'memory', targetAverageUtilization: 60 } }]);
    expect(v1({ 'autoscaling.alpha.kubernetes.io/metrics': memory }, { targetCPUUtilizationPercentage: 70 })).toBe('memory: <unknown>/60%, cpu: <unknown>/70%');
  });
});

describe('control-plane kinds', () => {
  it('controller revisions name their controller as kind.group/name', () => {
    expect(header(control.controllerRevisions)).toEqual(['Name:string', 'Controller:string', 'Revision:string', 'Age:string']);
    const owned = (apiVersion: string, kind: string) =>
      cells(control.controllerRevisions, {
        metadata: meta('web-7d9f', { ownerReferences: [{ apiVersion, kind, name: 'web', uid: 'u', controller: true }] }),
        revision: 3,
      });
    expect(owned('apps/v1', 'StatefulSet')).toEqual(['web-7d9f', 'statefulset.apps/web', 3, '3d1h']);
    expect(owned('v1', 'Pod')[1]).toBe('pod/web');
    expect(cells(control.controllerRevisions, { metadata: meta('orphan'), revision: 1 })[1]).toBe('<none>');
  });

  it('resource quotas: used/hard per resource, sorted, limits.* in the Limit column', () => {
    const quota = {
      metadata: meta('compute'),
      status: {
        hard: { 'requests.cpu': '1', pods: '10', 'limits.memory': '2Gi', 'limits.cpu': '2' },
        used: { 'requests.cpu': '500m', pods: '3', 'limits.cpu': '1' },
      },
    };
    expect(cells(control.resourceQuotas, quota)).toEqual(['compute', 'pods: 3/10, requests.cpu: 500m/1', 'limits.cpu: 1/2, limits.memory: 0/2Gi', '3d1h']);
    expect(cells(control.resourceQuotas, { metadata: meta('empty') })).toEqual(['empty', '', '', '3d1h']);
  });

  it('component statuses read the Healthy condition', () => {
    expect(header(control.componentStatuses)).toEqual(['Name:string', 'Status:string', 'Message:string', 'Error:string']);
    expect(cells(control.componentStatuses, { metadata: { name: 'etcd-0' }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] })).toEqual([
      'etcd-0',
      'Healthy',
      'ok',
      '',
    ]);
    expect(cells(control.componentStatuses, { metadata: { name: 'scheduler' } })).toEqual(['scheduler', 'Unknown', '', '']);
  });

  it('certificate signing requests: signer, requestor, requested duration and condition', () => {
    expect(header(control.certificateSigningRequests)).toEqual([
      'Name:string',
      'Age:string',
      'SignerName:string',
      'Requestor:string',
      'RequestedDuration:string',
      'Condition:string',
    ]);
    const csr = (spec: JsonObject, status: JsonObject = {}) => cells(control.certificateSigningRequests, { metadata: meta('csr-1'), spec, status });
    expect(csr({ signerName: 'kubernetes.io/kube-apiserver-client', username: 'alice', expirationSeconds: 86_400 })).toEqual([
      'csr-1',
      '3d1h',
      'kubernetes.io/kube-apiserver-client',
      'alice',
      '24h',
      'Pending',
    ]);
    expect(csr({}, { conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'Y2VydA==' }).slice(2)).toEqual([
      '<none>',
      '',
      '<none>',
      'Approved,Failed,Issued',
    ]);
    expect(csr({}, { conditions: [{ type: 'Approved' }, { type: 'Denied' }] })[5]).toBe('Denied');
  });

  it('flow schemas: priority level, precedence, distinguisher and whether the level is missing; a list sorted by precedence', () => {
    const schema = (name: string, precedence: number, extra: JsonObject = {}): JsonObject => ({
      metadata: meta(name),
      spec: { priorityLevelConfiguration: { name: 'workload-low' }, matchingPrecedence: precedence, ...extra },
    });
    expect(cells(control.flowSchemas, schema('service-accounts', 9000, { distinguisherMethod: { type: 'ByUser' } }))).toEqual([
      'service-accounts',
      'workload-low',
      9000,
      'ByUser',
      '3d1h',
      '?',
    ]);
    const dangling = { ...schema('broken', 100), status: { conditions: [{ type: 'Dangling', status: 'True' }] } };
    expect(cells(control.flowSchemas, dangling).slice(3)).toEqual(['<none>', '3d1h', 'True']);
    const ordered = control.flowSchemas.order?.([schema('b', 500), schema('z', 100), schema('a', 500)]).map((s) => (s.metadata as JsonObject).name);
    expect(ordered).toEqual(['z', 'a', 'b']);
  });

  it('priority level configurations: limited ones’ shares and queuing, `<none>` for the rest', () => {
    const queuing = { queues: 64, handSize: 6, queueLengthLimit: 50 };
    const limited = { type: 'Limited', limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing } } };
    expect(cells(control.priorityLevelConfigurations, { metadata: meta('workload-low'), spec: limited })).toEqual([
      'workload-low',
      'Limited',
      30,
      64,
      6,
      50,
      '3d1h',
    ]);
    const rejecting = { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } };
    expect(cells(control.priorityLevelConfigurations, { metadata: meta('r'), spec: rejecting }).slice(2, 6)).toEqual([5, '<none>', '<none>', '<none>']);
    expect(cells(control.priorityLevelConfigurations, { metadata: meta('exempt'), spec: { type: 'Exempt', exempt: {} } }).slice(1, 6)).toEqual([
      'Exempt',
      '<none>',
      '<none>',
      '<none>',
      '<none>',
    ]);
  });
});

describe('API services and dynamic resource allocation', () => {
  it('API services: their service (Local without one) and availability, with the reason unless True', () => {
    expect(header(control.apiServices)).toEqual(['Name:string', 'Service:string', 'Available:string', 'Age:string']);
    expect(
      cells(control.apiServices, { metadata: meta('v1.apps'), spec: {}, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } }),
    ).toEqual(['v1.apps', 'Local', 'True', '3d1h']);
    const remote = { metadata: meta('v1beta1.metrics.k8s.io'), spec: { service: { namespace: 'kube-system', name: 'metrics-server' } } };
    const missing = { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] };
    expect(cells(control.apiServices, { ...remote, status: missing }).slice(1, 3)).toEqual(['kube-system/metrics-server', 'False (MissingEndpoints)']);
    expect(cells(control.apiServices, remote)[2]).toBe('Unknown');
  });

  it('device classes and claim templates show name and age; claims their state', () => {
    expect(header(dra.deviceClasses)).toEqual(['Name:string', 'Age:string']);
    expect(cells(dra.resourceClaimTemplates, { metadata: meta('gpu') })).toEqual(['gpu', '3d1h']);
    expect(header(dra.resourceClaims)).toEqual(['Name:string', 'State:string', 'Age:string']);
    const claim = (status: JsonObject, extra: JsonObject = {}) => cells(dra.resourceClaims, { metadata: meta('c', extra), status })[1];
    expect(claim({})).toBe('pending');
    expect(claim({ allocation: {} })).toBe('allocated');
    expect(claim({ allocation: {}, reservedFor: [{ resource: 'pods', name: 'p', uid: 'u' }] })).toBe('allocated,reserved');
    expect(claim({}, { deletionTimestamp: '2026-06-01T11:00:00Z' })).toBe('deleted');
    expect(claim({ allocation: {} }, { deletionTimestamp: '2026-06-01T11:00:00Z' })).toBe('deleted,allocated');
  });
});

describe('storage and node kinds', () => {
  it('volume attachments, CSI nodes and storage capacities', () => {
    expect(header(storage.volumeAttachments)).toEqual(['Name:string', 'Attacher:string', 'PV:string', 'Node:string', 'Attached:boolean', 'Age:string']);
    expect(storage.volumeAttachments.columns[1]?.format).toBe('name');
    const attachment = { metadata: meta('csi-1'), spec: { attacher: 'csi.example.com', source: { persistentVolumeName: 'pv-1' }, nodeName: 'n1' } };
    expect(cells(storage.volumeAttachments, attachment)).toEqual(['csi-1', 'csi.example.com', 'pv-1', 'n1', false, '3d1h']);
    expect(cells(storage.csiNodes, { metadata: meta('n1'), spec: { drivers: [{ name: 'a' }, { name: 'b' }] } })).toEqual(['n1', 2, '3d1h']);
    expect(cells(storage.csiStorageCapacities, { metadata: meta('cap'), storageClassName: 'fast', capacity: '1024Mi' })).toEqual(['cap', 'fast', '1Gi']);
    expect(cells(storage.csiStorageCapacities, { metadata: meta('unknown'), storageClassName: 'fast' })[2]).toBe('<unset>');
  });

  it('CSI drivers: their flags (attachRequired true when unset), token audiences and modes', () => {
    expect(header(storage.csiDrivers)).toEqual([
      'Name:string',
      'AttachRequired:boolean',
      'PodInfoOnMount:boolean',
      'StorageCapacity:boolean',
      'TokenRequests:string',
      'RequiresRepublish:boolean',
      'Modes:string',
      'Age:string',
    ]);
    expect(cells(storage.csiDrivers, { metadata: meta('d'), spec: {} })).toEqual(['d', true, false, false, '<unset>', false, '<none>', '3d1h']);
    const spec = {
      attachRequired: false,
      podInfoOnMount: true,
      tokenRequests: [{ audience: 'a' }, { audience: 'b' }],
      volumeLifecycleModes: ['Persistent', 'Ephemeral'],
    };
    expect(cells(storage.csiDrivers, { metadata: meta('d'), spec }).slice(1, 7)).toEqual([false, true, false, 'a,b', false, 'Persistent,Ephemeral']);
  });

  it('runtime classes show their handler', () => {
    expect(storage.runtimeClasses.columns.map((c) => [c.name, c.description])).toEqual([
      ['Name', expect.any(String)],
      ['Handler', ''],
      ['Age', expect.any(String)],
    ]);
    expect(cells(storage.runtimeClasses, { metadata: meta('gvisor'), handler: 'runsc' })).toEqual(['gvisor', 'runsc', '3d1h']);
  });
});
