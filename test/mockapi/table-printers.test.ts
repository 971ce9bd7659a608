import { defaultCatalog } from '../../lib/kube/catalog';
import type { JsonObject } from '../../lib/kube/json';
import { converterFor } from '../../lib/mockapi/tables/registry';
import * as cluster from '../../lib/mockapi/tables/printers-cluster';
import * as core from '../../lib/mockapi/tables/printers-core';
import { pods } from '../../lib/mockapi/tables/printers-pods';
import * as workloads from '../../lib/mockapi/tables/printers-workloads';
import { ago, cells, header, meta, NOW } from './printer-fixtures';

/*
 * kube's printers (kubernetes pkg/printers/internalversion/printers.go) as the mock API runs them: the column
 * names, types and priorities of each, and the cells of objects in the states kubectl get shows. `now` is given,
 * so every Age is fixed.
 */

describe('core kinds', () => {
  it('configmaps, secrets and serviceaccounts count their entries', () => {
    expect(header(core.configMaps)).toEqual(['Name:string', 'Data:string', 'Age:string']);
    expect(cells(core.configMaps, { metadata: meta('c'), data: { a: '1' }, binaryData: { b: 'AA==' } })).toEqual(['c', 2, '3d1h']);
    expect(header(core.secrets)).toEqual(['Name:string', 'Type:string', 'Data:string', 'Age:string']);
    expect(cells(core.secrets, { metadata: meta('s'), type: 'Opaque', data: { a: 'YQ==' } })).toEqual(['s', 'Opaque', 1, '3d1h']);
    expect(cells(core.serviceAccounts, { metadata: meta('default') })).toEqual(['default', 0, '3d1h']);
    expect(cells(core.namespaces, { metadata: meta('team'), status: { phase: 'Active' } })).toEqual(['team', 'Active', '3d1h']);
  });

  it('services: type, cluster IP, external IP by type, ports with node ports, selector (wide)', () => {
    expect(header(core.services)).toEqual([
      'Name:string',
      'Type:string',
      'Cluster-IP:string',
      'External-IP:string',
      'Port(s):string',
      'Age:string',
      'Selector*:string',
    ]);
    const service = (spec: JsonObject, status: JsonObject = {}) => ({ metadata: meta('web'), spec, status });
    expect(
      cells(core.services, service({ type: 'ClusterIP', clusterIPs: ['10.0.0.1'], ports: [{ port: 80, protocol: 'TCP' }], selector: { b: '2', a: '1' } })),
    ).toEqual(['web', 'ClusterIP', '10.0.0.1', '<none>', '80/TCP', '3d1h', 'a=1,b=2']);
    expect(cells(core.services, service({ type: 'NodePort', clusterIPs: ['10.0.0.2'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] }))[4]).toBe(
      '80:30080/TCP',
    );
    expect(cells(core.services, service({ type: 'LoadBalancer', clusterIPs: ['10.0.0.3'] }))[3]).toBe('<pending>');
    // Only clusterIP set: the v1 conversion fills clusterIPs from it.
    expect(cells(core.services, service({ type: 'ClusterIP', clusterIP: 'None' }))[2]).toBe('None');
    expect(
      cells(core.services, service({ type: 'LoadBalancer' }, { loadBalancer: { ingress: [{ ip: '1.2.3.4' }, { hostname: 'lb.example' }] } })).slice(2, 5),
    ).toEqual(['<none>', '1.2.3.4,lb.example', '<none>']);
    expect(cells(core.services, service({ type: 'ExternalName', externalName: 'db.example.com' }))[3]).toBe('db.example.com');
  });

  it('persistentvolumeclaims: capacity and access modes once bound, the storage class, Terminating while deleted', () => {
    expect(header(core.persistentVolumeClaims)).toEqual([
      'Name:string',
      'Status:string',
      'Volume:string',
      'Capacity:string',
      'Access Modes:string',
      'StorageClass:string',
      'VolumeAttributesClass:string',
      'Age:string',
      'VolumeMode*:string',
    ]);
    const bound = {
      metadata: meta('data'),
      spec: { volumeName: 'pv-1', storageClassName: 'fast', volumeMode: 'Filesystem' },
      status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteMany', 'ReadWriteOnce'] },
    };
    expect(cells(core.persistentVolumeClaims, bound)).toEqual(['data', 'Bound', 'pv-1', '1Gi', 'RWO,RWX', 'fast', '<unset>', '3d1h', 'Filesystem']);
    const pending = { metadata: meta('data', { deletionTimestamp: ago(1) }), spec: {}, status: { phase: 'Pending' } };
    expect(cells(core.persistentVolumeClaims, pending)).toEqual(['data', 'Terminating', '', '', '', '', '<unset>', '3d1h', '<unset>']);
  });
});

describe('pods', () => {
  const container = (name: string, state: JsonObject, extra: JsonObject = {}) => ({ name, state, ready: false, restartCount: 0, ...extra });

  it('columns: Name, Ready, Status, Restarts, Age and the wide IP, Node, Nominated Node, Readiness Gates', () => {
    expect(header(pods)).toEqual([
      'Name:string',
      'Ready:string',
      'Status:string',
      'Restarts:string',
      'Age:string',
      'IP*:string',
      'Node*:string',
      'Nominated Node*:string',
      'Readiness Gates*:string',
    ]);
  });

  it('a running pod: ready containers, its IP and node, the readiness gates met', () => {
    const pod = {
      metadata: meta('web'),
      spec: { nodeName: 'node-1', containers: [{ name: 'a' }, { name: 'b' }], readinessGates: [{ conditionType: 'example.com/lb' }] },
      status: {
        phase: 'Running',
        podIPs: [{ ip: '10.1.0.5' }],
        conditions: [{ type: 'example.com/lb', status: 'True' }],
        containerStatuses: [container('a', { running: {} }, { ready: true }), container('b', { running: {} }, { ready: false })],
      },
    };
    expect(pods.row(pod, NOW)).toEqual({ cells: ['web', '1/2', 'Running', '0', '3d1h', '10.1.0.5', 'node-1', '<none>', '1/1'] });
  });

  it('a crash-looping container: its waiting reason, and restarts with the age of the last one', () => {
    const pod = {
      metadata: meta('web'),
      spec: { containers: [{ name: 'a' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          container('a', { waiting: { reason: 'CrashLoopBackOff' } }, { restartCount: 4, lastState: { terminated: { exitCode: 1, finishedAt: ago(90) } } }),
        ],
      },
    };
    expect(cells(pods, pod).slice(1, 4)).toEqual(['0/1', 'CrashLoopBackOff', '4 (90s ago)']);
  });

  it('init containers: Init:N/M while one runs, Init:<reason> when one fails; sidecars count as containers', () => {
    const spec: JsonObject = { initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }], containers: [{ name: 'app' }] };
    const init = (status: JsonObject) => cells(pods, { metadata: meta('web'), spec, status: { phase: 'Pending', ...status } }).slice(1, 3);
    expect(init({ initContainerStatuses: [container('setup', { running: {} })] })).toEqual(['0/2', 'Init:0/2']);
    expect(init({ initContainerStatuses: [container('setup', { terminated: { exitCode: 2 } })] })).toEqual(['0/2', 'Init:ExitCode:2']);
    expect(init({ initContainerStatuses: [container('setup', { waiting: { reason: 'ImagePullBackOff' } })] })).toEqual(['0/2', 'Init:ImagePullBackOff']);
    const started = {
      initContainerStatuses: [
        container('setup', { terminated: { exitCode: 0, reason: 'Completed' } }),
        container('proxy', { running: {} }, { started: true, ready: true }),
      ],
      containerStatuses: [container('app', { running: {} }, { ready: true })],
      phase: 'Running',
    };
    expect(init(started)).toEqual(['2/2', 'Running']);
  });

  it('a finished pod carries the Completed row condition; a deleted one is Terminating', () => {
    const done = pods.row({ metadata: meta('job'), spec: { containers: [{ name: 'a' }] }, status: { phase: 'Succeeded' } }, NOW);
    expect(done.conditions).toEqual([{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    const failed = pods.row({ metadata: meta('job'), spec: { containers: [{ name: 'a' }] }, status: { phase: 'Failed' } }, NOW);
    expect(failed.conditions?.[0]?.message).toBe('The pod failed.');
    const deleting = { metadata: meta('web', { deletionTimestamp: ago(1) }), spec: { containers: [{ name: 'a' }] }, status: { phase: 'Running' } };
    expect(cells(pods, deleting)[2]).toBe('Terminating');
    // Only podIP set: the v1 conversion fills podIPs from it.
    expect(cells(pods, { metadata: meta('old'), spec: { containers: [] }, status: { podIP: '10.9.9.9' } })[5]).toBe('10.9.9.9');
  });
});

describe('workloads', () => {
  const template = {
    spec: {
      containers: [
        { name: 'a', image: 'nginx' },
        { name: 'b', image: 'busybox' },
      ],
    },
  };
  const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }] };

  it('deployments: ready/desired, up-to-date, available, and the wide containers, images and selector', () => {
    expect(header(workloads.deployments)).toEqual([
      'Name:string',
      'Ready:string',
      'Up-to-date:string',
      'Available:string',
      'Age:string',
      'Containers*:string',
      'Images*:string',
      'Selector*:string',
    ]);
    const deployment = {
      metadata: meta('web'),
      spec: { replicas: 3, selector, template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(cells(workloads.deployments, deployment)).toEqual(['web', '2/3', 3, 2, '3d1h', 'a,b', 'nginx,busybox', 'app=web,tier in (be,fe)']);
  });

  it('replicasets, statefulsets and daemonsets', () => {
    expect(
      cells(workloads.replicaSets, { metadata: meta('rs'), spec: { replicas: 2, selector, template }, status: { replicas: 2, readyReplicas: 1 } }),
    ).toEqual(['rs', 2, 2, 1, '3d1h', 'a,b', 'nginx,busybox', 'app=web,tier in (be,fe)']);
    expect(cells(workloads.statefulSets, { metadata: meta('db'), spec: { replicas: 3, template }, status: { readyReplicas: 3 } })).toEqual([
      'db',
      '3/3',
      '3d1h',
      'a,b',
      'nginx,busybox',
    ]);
    const daemonSet = {
      metadata: meta('agent'),
      spec: { selector: {}, template: { spec: { ...template.spec, nodeSelector: { os: 'linux' } } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    expect(cells(workloads.daemonSets, daemonSet)).toEqual(['agent', 3, 3, 2, 3, 2, 'os=linux', '3d1h', 'a,b', 'nginx,busybox', '<none>']);
  });

  it('jobs: status from the conditions, completions, and the duration from start to completion (or now)', () => {
    const job = (spec: JsonObject, status: JsonObject) => cells(workloads.jobs, { metadata: meta('j'), spec: { template, ...spec }, status }).slice(1, 4);
    expect(
      job({ completions: 3 }, { succeeded: 3, startTime: ago(600), completionTime: ago(480), conditions: [{ type: 'Complete', status: 'True' }] }),
    ).toEqual(['Complete', '3/3', '2m']);
    expect(job({ parallelism: 2 }, { succeeded: 0, startTime: ago(30) })).toEqual(['Running', '0/1 of 2', '30s']);
    expect(job({}, { conditions: [{ type: 'Failed', status: 'True' }] })).toEqual(['Failed', '0/1', '']);
  });

  it('cronjobs: schedule, time zone, suspend as True/False/<unset>, active jobs and the last schedule', () => {
    const cronJob = {
      metadata: meta('nightly'),
      spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ name: 'nightly-1' }], lastScheduleTime: ago(7_200) },
    };
    expect(cells(workloads.cronJobs, cronJob)).toEqual(['nightly', '0 3 * * *', '<none>', 'False', 1, '120m', '3d1h', 'a,b', 'nginx,busybox', '<none>']);
    expect(header(workloads.cronJobs).slice(0, 7)).toEqual([
      'Name:string',
      'Schedule:string',
      'Timezone:string',
      'Suspend:boolean',
      'Active:integer',
      'Last Schedule:string',
      'Age:string',
    ]);
  });
});

describe('nodes, events, ingresses, leases', () => {
  it('nodes: Ready/NotReady, cordoned, roles from labels, kubelet version, and the wide addresses and system info', () => {
    const node = {
      metadata: meta('n1', { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'infra' } }),
      spec: { unschedulable: true },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.0.0.10' }],
        nodeInfo: { kubeletVersion: 'v1.36.2', osImage: 'Debian' },
      },
    };
    expect(cells(cluster.nodes, node)).toEqual([
      'n1',
      'Ready,SchedulingDisabled',
      'control-plane,infra',
      '3d1h',
      'v1.36.2',
      '10.0.0.10',
      '<none>',
      'Debian',
      '<unknown>',
      '<unknown>',
    ]);
    expect(cells(cluster.nodes, { metadata: meta('n2'), status: {} }).slice(1, 3)).toEqual(['Unknown', '<none>']);
  });

  it('events (core and events.k8s.io): last seen, type, reason, object, the wide subobject, source, first seen, count', () => {
    expect(header(cluster.events)).toEqual([
      'Last Seen:string',
      'Type:string',
      'Reason:string',
      'Object:string',
      'Subobject*:string',
      'Source*:string',
      'Message:string',
      'First Seen*:string',
      'Count*:string',
      'Name*:string',
    ]);
    const event = {
      metadata: meta('web.1'),
      involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{a}' },
      reason: 'Pulled',
      message: ' Pulled image \n',
      type: 'Normal',
      source: { component: 'kubelet', host: 'n1' },
      firstTimestamp: ago(600),
      lastTimestamp: ago(60),
      count: 3,
    };
    expect(cells(cluster.events, event)).toEqual([
      '60s',
      'Normal',
      'Pulled',
      'pod/web',
      'spec.containers{a}',
      'kubelet, n1',
      'Pulled image',
      '10m',
      3,
      'web.1',
    ]);
    const singleton = { metadata: meta('e'), involvedObject: { kind: 'Node' }, eventTime: ago(5), reportingComponent: 'ctrl', type: 'Warning' };
    expect(cells(cluster.events, singleton)).toEqual(['5s', 'Warning', '', 'node', '', 'ctrl', '', '5s', 1, 'e']);
  });

  it('events.k8s.io events are printed by the core printer, their fields read under the core names', () => {
    const entry = defaultCatalog.resourceByName('events.k8s.io', 'v1', 'events');
    const converter = entry && converterFor(entry);
    const event = {
      metadata: meta('web.2'),
      regarding: { kind: 'Pod', name: 'web' },
      note: 'Scaled up',
      reason: 'Scaling',
      type: 'Normal',
      reportingController: 'deployment-controller',
      reportingInstance: 'kcm-1',
      eventTime: ago(30),
    };
    expect(converter?.row(event, NOW).cells).toEqual([
      '30s',
      'Normal',
      'Scaling',
      'pod/web',
      '',
      'deployment-controller, kcm-1',
      'Scaled up',
      '30s',
      1,
      'web.2',
    ]);
  });

  it('ingresses: class, the first three hosts, addresses and ports', () => {
    const rules = ['a', 'b', 'c', 'd'].map((h) => ({ host: `${h}.example.com` }));
    const ingress = {
      metadata: meta('web'),
      spec: { ingressClassName: 'nginx', rules, tls: [{}] },
      status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } },
    };
    expect(cells(cluster.ingresses, ingress)).toEqual(['web', 'nginx', 'a.example.com,b.example.com,c.example.com + 1 more...', '5.6.7.8', '80, 443', '3d1h']);
    expect(cells(cluster.ingresses, { metadata: meta('any'), spec: {} })).toEqual(['any', '<none>', '*', '', '80', '3d1h']);
    expect(cells(cluster.leases, { metadata: meta('l'), spec: { holderIdentity: 'pod-1' } })).toEqual(['l', 'pod-1', '3d1h']);
  });
});
