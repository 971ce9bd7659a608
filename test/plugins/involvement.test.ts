// lib/plugins/involvement.ts against the plugins themselves: for each plugin and phase, a request the
// predicate calls not involved leaves the real plugin with nothing to change, refuse, warn or annotate
// (in a cluster where it would act on the involved one), and a request it calls involved is acted on.
import type { KubeObject, Operation } from '../../lib/kube/admission';
import type { AdmissionAttributes } from '../../lib/kube/attributes';
import type { JsonRecord } from '../../lib/kube/record';
import { PLUGIN_CHAIN, pluginInvolvement, type AdmissionPhase, type InvolvementContext } from '../../lib/plugins/involvement';
import { ALL_MUTATION_PLUGINS, BUILTIN_PLUGIN_NAMES, runMutationPlugins } from '../../lib/plugins/mutation-phase';
import type { PluginConfigurations } from '../../lib/plugins/optional/admission-configuration';
import { namespaceLifecycle } from '../../lib/plugins/namespace-lifecycle';
import { quotaAdmit } from '../../lib/plugins/resource-quota';
import { runValidationPlugins, type ValidationCluster } from '../../lib/plugins/validation-phase';
import { attributesOf, fakeCluster } from './fake-cluster';
import { createEventRateLimiter } from '../../lib/plugins/optional/event-rate-limit';
import { manualClock } from '../../lib/imagepolicy/clock';
import { defaultCatalog } from '../../lib/kube/catalog';

/** kube's attributes for `operation` on `resource[/subresource]` (plural[.group], v1 of the built-in catalog) in namespace shop. */
function request(operation: Operation, path: string, object: JsonRecord | null, extra: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  const [qualified = '', subResource = ''] = path.split('/');
  const [plural = '', ...groupParts] = qualified.split('.');
  const group = groupParts.join('.');
  const version = 'v1';
  const entry = defaultCatalog.resourceByName(group, version, plural)!;
  const name = String((object?.metadata as JsonRecord | undefined)?.name ?? 'web');
  const namespace = plural === 'namespaces' && group === '' ? name : entry.namespaced ? 'shop' : '';
  const kind = subResource === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group, version, kind: entry.kind };
  return attributesOf(operation, { group, version, resource: plural }, entry.kind, object, { kind, subResource, name, namespace, ...extra });
}

const pod = (spec: JsonRecord = {}, metadata: JsonRecord = {}): JsonRecord => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'shop', ...metadata },
  spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
});
const claim = (storage: string, status: JsonRecord = {}): JsonRecord => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'data', namespace: 'shop' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, storageClassName: 'fast' },
  status,
});
const event: JsonRecord = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.17a', namespace: 'shop' }, involvedObject: { kind: 'Pod', name: 'web' } };
const configMap: JsonRecord = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { mode: 'strict' } };
const privileged = { containers: [{ name: 'app', image: 'nginx:1.27', securityContext: { privileged: true } }] };
const zoneAntiAffinity = {
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' }],
    },
  },
};
const ifNotPresent = { containers: [{ name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent' }] };
const otherToleration = { tolerations: [{ key: 'other', operator: 'Exists', effect: 'NoSchedule' }] };
const gpu = { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { 'example.com/gpu': '1' } } }] };
const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '6b1d3f2e-0000-4000-8000-000000000001' };
const service: JsonRecord = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2.10'] },
};

/** Every cluster object a plugin reads, so that an involved request has something to act on. */
const OBJECTS: KubeObject[] = [
  {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'shop', labels: { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'baseline' } },
  },
  {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'limits', namespace: 'shop' },
    spec: {
      limits: [
        { type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } },
        { type: 'PersistentVolumeClaim', max: { storage: '2Gi' } },
      ],
    },
  } as KubeObject,
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'standard' }, value: 1000, globalDefault: true } as KubeObject,
  {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'fast', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    provisioner: 'example.com/disk',
  } as KubeObject,
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'IngressClass',
    metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
    spec: { controller: 'example.com/ingress' },
  } as KubeObject,
  { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'gvisor' }, handler: 'runsc', overhead: { podFixed: { cpu: '250m' } } } as KubeObject,
  // The namespace's own account, as the ServiceAccount controller creates it.
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'shop' } } as KubeObject,
  { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1' } } },
];

/** The off-by-default plugins' configuration, so that each has something to add or refuse. */
const CONFIGURATION: PluginConfigurations = {
  podNodeSelector: { clusterDefaultNodeSelector: 'env=default', shop: 'env=default' },
  podTolerationRestriction: { default: [{ key: 'team', operator: 'Exists', effect: 'NoSchedule' }], whitelist: [{ key: 'team', operator: 'Exists' }] },
};

function cluster(): ValidationCluster {
  const objects = fakeCluster(...OBJECTS);
  return { list: objects.list, get: objects.get, namespaceObject: (name) => OBJECTS.find((o) => o.kind === 'Namespace' && o.metadata?.name === name) };
}

/** What the real plugin does to the request in that phase: changed, refused, warned or annotated, or nothing. */
function effect(plugin: string, phase: AdmissionPhase, attributes: AdmissionAttributes): string {
  if (plugin === 'NamespaceLifecycle') {
    const namespaces: Record<string, KubeObject> = {
      shop: OBJECTS[0]!,
      closing: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'closing' }, status: { phase: 'Terminating' } } as KubeObject,
    };
    const refused = namespaceLifecycle(attributes, (name) => namespaces[name]);
    return refused ? `refused ${refused.code}` : 'nothing';
  }
  if (plugin === 'ResourceQuota') {
    const hard = { pods: '0', 'count/configmaps': '0', 'count/events': '0', 'requests.storage': '1Gi' };
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'none', namespace: 'shop' },
      spec: { hard },
      status: { hard, used: { pods: '0', 'count/configmaps': '0', 'count/events': '0', 'requests.storage': '0' } },
    };
    const result = quotaAdmit({ ...attributes, object: attributes.object as JsonRecord | null, oldObject: attributes.oldObject as JsonRecord | null }, [quota]);
    return !result.ok ? 'refused' : result.updatedUsage.length > 0 ? 'charged' : 'nothing';
  }
  if (phase === 'mutation') {
    const mutating = ALL_MUTATION_PLUGINS.find((p) => p.name === plugin)!;
    const result = runMutationPlugins([mutating], {
      attributes,
      object: attributes.object as JsonRecord,
      randomSuffix: (n) => 'x'.repeat(n),
      cluster: cluster(),
      configuration: CONFIGURATION,
    });
    return result.refusal ? 'refused' : result.changedBy.length > 0 ? 'changed' : 'nothing';
  }
  if (plugin === 'EventRateLimit') {
    // A bucket of one token: the plugin counted the request when the same request again is refused.
    const configuration = { eventRateLimit: createEventRateLimiter([{ type: 'Server', qps: 1, burst: 1, cacheSize: 0 }], manualClock()) };
    const refused = () => runValidationPlugins(attributes, cluster(), new Set([plugin]), { configuration }).refusal;
    return refused() ? 'refused' : refused() ? 'counted' : 'nothing';
  }
  // An authorizer that allows nothing, so OwnerReferencesPermissionEnforcement refuses what it checks.
  const result = runValidationPlugins(attributes, cluster(), new Set([plugin]), {
    configuration: CONFIGURATION,
    authorizer: () => ({ decision: 'noOpinion' }),
    kindResources: () => [{ group: 'apps', resource: 'deployments' }],
  });
  return result.refusal ? 'refused' : result.warnings.length > 0 ? 'warned' : Object.keys(result.auditAnnotations).length > 0 ? 'annotated' : 'nothing';
}

type Case = [title: string, attributes: AdmissionAttributes, effect: string];

/** For each plugin and phase: requests it is not involved in, then requests it acts on, with what the plugin then does. */
const CASES: Record<string, { notInvolved: Case[]; involved: Case[] }> = {
  'NamespaceLifecycle mutation': {
    notInvolved: [
      ['a DELETE in a namespace that is not there', request('DELETE', 'configmaps', null, { namespace: 'gone' }), 'nothing'],
      ['a cluster-scoped create', request('CREATE', 'nodes', { metadata: { name: 'n1' } }), 'nothing'],
    ],
    involved: [
      ['a create in a namespace that is not there', request('CREATE', 'configmaps', configMap, { namespace: 'gone' }), 'refused 404'],
      ['deleting kube-system', request('DELETE', 'namespaces', { metadata: { name: 'kube-system' } }), 'refused 403'],
      ['a create in a namespace being terminated', request('CREATE', 'configmaps', configMap, { namespace: 'closing' }), 'refused 403'],
    ],
  },
  'LimitRanger mutation': {
    notInvolved: [
      ['a pod update', request('UPDATE', 'pods', pod(), { oldObject: pod() as KubeObject }), 'nothing'],
      ['a claim create (claims get no defaults)', request('CREATE', 'persistentvolumeclaims', claim('1Gi')), 'nothing'],
      [
        'a resize of a pod being deleted',
        request('UPDATE', 'pods/resize', pod(), { oldObject: pod({}, { deletionTimestamp: '2026-01-01T00:00:00Z' }) as KubeObject }),
        'nothing',
      ],
    ],
    involved: [['a pod create', request('CREATE', 'pods', pod()), 'changed']],
  },
  'LimitRanger validation': {
    notInvolved: [
      [
        'a pod update over the maximum',
        request('UPDATE', 'pods', pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '2' } } }] }), {
          oldObject: pod() as KubeObject,
        }),
        'nothing',
      ],
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'nothing'],
    ],
    involved: [
      [
        'a pod create over the maximum',
        request('CREATE', 'pods', pod({ containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '2' } } }] })),
        'refused',
      ],
      ['a claim update over the maximum', request('UPDATE', 'persistentvolumeclaims', claim('5Gi'), { oldObject: claim('1Gi') as KubeObject }), 'refused'],
    ],
  },
  'ServiceAccount mutation': {
    notInvolved: [
      ['a pod update naming a missing account', request('UPDATE', 'pods', pod({ serviceAccountName: 'robot' }), { oldObject: pod() as KubeObject }), 'nothing'],
      [
        'an ephemeral containers update naming a missing account',
        request('UPDATE', 'pods/ephemeralcontainers', pod({ serviceAccountName: 'robot' }), { oldObject: pod() as KubeObject }),
        'nothing',
      ],
    ],
    involved: [
      ['a pod create', request('CREATE', 'pods', pod()), 'changed'],
      [
        'a mirror pod naming an account',
        request('CREATE', 'pods', pod({ serviceAccountName: 'default' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } })),
        'refused',
      ],
    ],
  },
  'ServiceAccount validation': {
    notInvolved: [
      ['a pod update naming a missing account', request('UPDATE', 'pods', pod({ serviceAccountName: 'robot' }), { oldObject: pod() as KubeObject }), 'nothing'],
      [
        'a status update naming a missing account',
        request('UPDATE', 'pods/status', pod({ serviceAccountName: 'robot' }), { oldObject: pod() as KubeObject }),
        'nothing',
      ],
    ],
    involved: [
      ['a pod create naming a missing account', request('CREATE', 'pods', pod({ serviceAccountName: 'robot' })), 'refused'],
      [
        'an ephemeral containers update naming a missing account',
        request('UPDATE', 'pods/ephemeralcontainers', pod({ serviceAccountName: 'robot' }), { oldObject: pod() as KubeObject }),
        'refused',
      ],
    ],
  },
  'TaintNodesByCondition mutation': {
    notInvolved: [['a node update', request('UPDATE', 'nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: {} }), 'nothing']],
    involved: [['a node create', request('CREATE', 'nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: {} }), 'changed']],
  },
  'Priority mutation': {
    notInvolved: [
      ['a status update dropping the priority', request('UPDATE', 'pods/status', pod(), { oldObject: pod({ priority: 1000 }) as KubeObject }), 'nothing'],
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'nothing'],
    ],
    involved: [
      ['a pod create', request('CREATE', 'pods', pod()), 'changed'],
      ['a pod create naming a missing class', request('CREATE', 'pods', pod({ priorityClassName: 'urgent' })), 'refused'],
      ['a pod update dropping the priority', request('UPDATE', 'pods', pod(), { oldObject: pod({ priority: 1000 }) as KubeObject }), 'changed'],
    ],
  },
  'Priority validation': {
    notInvolved: [['a pod create naming a missing class', request('CREATE', 'pods', pod({ priorityClassName: 'urgent' })), 'nothing']],
    involved: [
      [
        'a second globalDefault class',
        request('CREATE', 'priorityclasses.scheduling.k8s.io', {
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClass',
          metadata: { name: 'high' },
          value: 5000,
          globalDefault: true,
        }),
        'refused',
      ],
    ],
  },
  'DefaultTolerationSeconds mutation': {
    notInvolved: [['a pod update', request('UPDATE', 'pods', pod(), { oldObject: pod() as KubeObject }), 'nothing']],
    involved: [['a pod create', request('CREATE', 'pods', pod()), 'changed']],
  },
  'DefaultStorageClass mutation': {
    notInvolved: [
      ['a claim update', request('UPDATE', 'persistentvolumeclaims', { ...claim('1Gi'), spec: { resources: { requests: { storage: '1Gi' } } } }), 'nothing'],
    ],
    involved: [
      ['a claim create', request('CREATE', 'persistentvolumeclaims', { ...claim('1Gi'), spec: { resources: { requests: { storage: '1Gi' } } } }), 'changed'],
    ],
  },
  'StorageObjectInUseProtection mutation': {
    notInvolved: [
      ['a claim update', request('UPDATE', 'persistentvolumeclaims', claim('1Gi')), 'nothing'],
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'nothing'],
    ],
    involved: [
      [
        'a volume create',
        request('CREATE', 'persistentvolumes', { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: {} }),
        'changed',
      ],
      ['a claim create', request('CREATE', 'persistentvolumeclaims', claim('1Gi')), 'changed'],
    ],
  },
  'RuntimeClass mutation': {
    notInvolved: [
      ['a pod update naming a missing class', request('UPDATE', 'pods', pod({ runtimeClassName: 'kata' }), { oldObject: pod() as KubeObject }), 'nothing'],
    ],
    involved: [
      ['a pod create naming a class with overhead', request('CREATE', 'pods', pod({ runtimeClassName: 'gvisor' })), 'changed'],
      ['a pod create naming a missing class', request('CREATE', 'pods', pod({ runtimeClassName: 'kata' })), 'refused'],
    ],
  },
  'RuntimeClass validation': {
    notInvolved: [
      ['a pod update naming a missing class', request('UPDATE', 'pods', pod({ runtimeClassName: 'kata' }), { oldObject: pod() as KubeObject }), 'nothing'],
    ],
    involved: [['a pod create naming a missing class', request('CREATE', 'pods', pod({ runtimeClassName: 'kata' })), 'refused']],
  },
  'LimitPodHardAntiAffinityTopology validation': {
    notInvolved: [
      [
        'an ephemeral container added to a pod spreading by zone',
        request('UPDATE', 'pods/ephemeralcontainers', pod(zoneAntiAffinity), { oldObject: pod() as KubeObject }),
        'nothing',
      ],
    ],
    involved: [['a pod create spreading by zone', request('CREATE', 'pods', pod(zoneAntiAffinity)), 'refused']],
  },
  'AlwaysPullImages mutation': {
    notInvolved: [
      ['an ephemeral container added', request('UPDATE', 'pods/ephemeralcontainers', pod(ifNotPresent), { oldObject: pod() as KubeObject }), 'nothing'],
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'nothing'],
    ],
    involved: [['a pod create', request('CREATE', 'pods', pod(ifNotPresent)), 'changed']],
  },
  'AlwaysPullImages validation': {
    notInvolved: [
      ['an ephemeral container added', request('UPDATE', 'pods/ephemeralcontainers', pod(ifNotPresent), { oldObject: pod() as KubeObject }), 'nothing'],
    ],
    involved: [['a pod create pulling IfNotPresent', request('CREATE', 'pods', pod(ifNotPresent)), 'refused']],
  },
  'PodNodeSelector mutation': {
    notInvolved: [['a pod update', request('UPDATE', 'pods', pod(), { oldObject: pod() as KubeObject }), 'nothing']],
    involved: [['a pod create', request('CREATE', 'pods', pod()), 'changed']],
  },
  'PodNodeSelector validation': {
    notInvolved: [
      ['a pod update outside the whitelist', request('UPDATE', 'pods', pod({ nodeSelector: { disk: 'ssd' } }), { oldObject: pod() as KubeObject }), 'nothing'],
    ],
    involved: [['a pod create outside the whitelist', request('CREATE', 'pods', pod({ nodeSelector: { disk: 'ssd' } })), 'refused']],
  },
  'PodTolerationRestriction mutation': {
    notInvolved: [['a pod status update', request('UPDATE', 'pods/status', pod(), { oldObject: pod() as KubeObject }), 'nothing']],
    involved: [['a pod create', request('CREATE', 'pods', pod()), 'changed']],
  },
  'PodTolerationRestriction validation': {
    notInvolved: [
      [
        'a pod status update tolerating what the whitelist lacks',
        request('UPDATE', 'pods/status', pod(otherToleration), { oldObject: pod() as KubeObject }),
        'nothing',
      ],
    ],
    involved: [['a pod create tolerating what the whitelist lacks', request('CREATE', 'pods', pod(otherToleration)), 'refused']],
  },
  'ExtendedResourceToleration mutation': {
    notInvolved: [['a pod status update requesting a GPU', request('UPDATE', 'pods/status', pod(gpu), { oldObject: pod() as KubeObject }), 'nothing']],
    involved: [['a pod create requesting a GPU', request('CREATE', 'pods', pod(gpu)), 'changed']],
  },
  'OwnerReferencesPermissionEnforcement validation': {
    notInvolved: [
      [
        'a pod status update adding an owner',
        request('UPDATE', 'pods/status', pod({}, { ownerReferences: [owner] }), { oldObject: pod() as KubeObject }),
        'nothing',
      ],
      ['a deletion', request('DELETE', 'configmaps', null, { oldObject: configMap as KubeObject }), 'nothing'],
    ],
    involved: [
      [
        'a configmap update adding an owner',
        request(
          'UPDATE',
          'configmaps',
          { ...configMap, metadata: { name: 'settings', namespace: 'shop', ownerReferences: [owner] } },
          { oldObject: configMap as KubeObject },
        ),
        'refused',
      ],
    ],
  },
  'EventRateLimit validation': {
    notInvolved: [
      ['an Event deleted', request('DELETE', 'events', null, { oldObject: event as KubeObject }), 'nothing'],
      ['an events.k8s.io Event created', request('CREATE', 'events.events.k8s.io', { ...event, apiVersion: 'events.k8s.io/v1' }), 'nothing'],
      ['an Event created in a dry run', request('CREATE', 'events', event, { dryRun: true }), 'nothing'],
    ],
    involved: [
      ['an Event created', request('CREATE', 'events', event), 'counted'],
      ['an Event updated', request('UPDATE', 'events', event, { oldObject: event as KubeObject }), 'counted'],
    ],
  },
  'DenyServiceExternalIPs validation': {
    notInvolved: [
      [
        'a service status update with external IPs',
        request('UPDATE', 'services/status', service, { oldObject: { ...service, spec: {} } as KubeObject }),
        'nothing',
      ],
    ],
    involved: [['a service create with external IPs', request('CREATE', 'services', service), 'refused']],
  },
  'PodTopologyLabels mutation': {
    notInvolved: [
      ['a pod create naming no node', request('CREATE', 'pods', pod()), 'nothing'],
      ['a pod update naming a node', request('UPDATE', 'pods', pod({ nodeName: 'n1' }), { oldObject: pod({ nodeName: 'n1' }) as KubeObject }), 'nothing'],
    ],
    involved: [
      ['a pod create naming a node', request('CREATE', 'pods', pod({ nodeName: 'n1' })), 'changed'],
      [
        'a Binding',
        request(
          'CREATE',
          'pods/binding',
          { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web', namespace: 'shop' }, target: { kind: 'Node', name: 'n1' } },
          { kind: { group: '', version: 'v1', kind: 'Binding' } },
        ),
        'changed',
      ],
    ],
  },
  'DefaultIngressClass mutation': {
    notInvolved: [
      [
        'an Ingress update',
        request('UPDATE', 'ingresses.networking.k8s.io', {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'web', namespace: 'shop' },
          spec: {},
        }),
        'nothing',
      ],
    ],
    involved: [
      [
        'an Ingress create',
        request('CREATE', 'ingresses.networking.k8s.io', {
          apiVersion: 'networking.k8s.io/v1',
          kind: 'Ingress',
          metadata: { name: 'web', namespace: 'shop' },
          spec: {},
        }),
        'changed',
      ],
    ],
  },
  'PodSecurity validation': {
    notInvolved: [
      ['a privileged pod’s status update', request('UPDATE', 'pods/status', pod(privileged), { oldObject: pod() as KubeObject }), 'nothing'],
      ['a privileged pod’s deletion', request('DELETE', 'pods', null, { oldObject: pod(privileged) as KubeObject }), 'nothing'],
      [
        'a deployment’s scale',
        request('UPDATE', 'deployments.apps/scale', {
          apiVersion: 'autoscaling/v1',
          kind: 'Scale',
          metadata: { name: 'web', namespace: 'shop' },
          spec: { replicas: 3 },
        }),
        'nothing',
      ],
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'nothing'],
    ],
    involved: [
      ['a privileged pod', request('CREATE', 'pods', pod(privileged)), 'refused'],
      [
        'a deployment with a privileged template',
        request('CREATE', 'deployments.apps', {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'shop' },
          spec: { template: { spec: privileged } },
        }),
        'warned',
      ],
      [
        'a namespace with an invalid level',
        request('CREATE', 'namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'lab', labels: { 'pod-security.kubernetes.io/enforce': 'strictest' } },
        }),
        'refused',
      ],
    ],
  },
  'PersistentVolumeClaimResize validation': {
    notInvolved: [
      ['a claim create', request('CREATE', 'persistentvolumeclaims', claim('5Gi')), 'nothing'],
      ['a status update', request('UPDATE', 'persistentvolumeclaims/status', claim('5Gi'), { oldObject: claim('1Gi') as KubeObject }), 'nothing'],
    ],
    involved: [
      [
        'growing an unbound claim',
        request('UPDATE', 'persistentvolumeclaims', claim('5Gi'), { oldObject: claim('1Gi', { phase: 'Pending' }) as KubeObject }),
        'refused',
      ],
    ],
  },
  'ResourceQuota validation': {
    notInvolved: [
      ['a configmap update', request('UPDATE', 'configmaps', configMap, { oldObject: configMap as KubeObject }), 'nothing'],
      ['an event create', request('CREATE', 'events', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1', namespace: 'shop' } }), 'nothing'],
      ['a pod update that changes no scope', request('UPDATE', 'pods', pod(), { oldObject: pod() as KubeObject }), 'nothing'],
      ['a claim deletion', request('DELETE', 'persistentvolumeclaims', null, { oldObject: claim('1Gi') as KubeObject }), 'nothing'],
    ],
    involved: [
      ['a configmap create', request('CREATE', 'configmaps', configMap), 'refused'],
      ['a pod create', request('CREATE', 'pods', pod()), 'refused'],
      ['a claim update that grows it', request('UPDATE', 'persistentvolumeclaims', claim('5Gi'), { oldObject: claim('1Gi') as KubeObject }), 'refused'],
    ],
  },
};

const context: InvolvementContext = { namespaceExists: (name) => name === 'shop' || name === 'closing' };

describe('pluginInvolvement agrees with each plugin', () => {
  it('covers every plugin of the chain', () => {
    expect(Object.keys(CASES).sort()).toEqual(PLUGIN_CHAIN.map((s) => `${s.plugin} ${s.phase}`).sort());
  });

  describe.each(Object.entries(CASES))('%s', (key, { notInvolved, involved }) => {
    const [plugin, phase] = key.split(' ') as [string, AdmissionPhase];
    it.each(notInvolved)('not involved: %s — the plugin does nothing', (_title, attributes, expected) => {
      expect(pluginInvolvement(plugin, phase, attributes, context)).toMatchObject({ involved: false });
      expect(effect(plugin, phase, attributes)).toBe(expected);
    });
    it.each(involved)('involved: %s — the plugin acts', (_title, attributes, expected) => {
      expect(pluginInvolvement(plugin, phase, attributes, context)).toMatchObject({ involved: true });
      expect(effect(plugin, phase, attributes)).toBe(expected);
    });
  });
});

describe('the reasons', () => {
  it('NamespaceLifecycle refuses, by the attributes alone, a request in a namespace that is not there and the deletion of kube-system', () => {
    expect(pluginInvolvement('NamespaceLifecycle', 'mutation', request('CREATE', 'configmaps', configMap, { namespace: 'gone' }), context)).toEqual({
      involved: true,
      refuses: true,
      reason: 'namespaces "gone" not found (404): the request stops here; the steps below are judged as if it existed',
    });
    expect(pluginInvolvement('NamespaceLifecycle', 'mutation', request('DELETE', 'namespaces', { metadata: { name: 'kube-system' } }), context)).toMatchObject({
      refuses: true,
    });
    // A create in a namespace being terminated is refused too, but explain knows no namespace's phase.
    expect(pluginInvolvement('NamespaceLifecycle', 'mutation', request('CREATE', 'configmaps', configMap), context)).toEqual({
      involved: true,
      reason: 'namespace "shop" exists; creating in a namespace being terminated is refused',
    });
  });

  it('ServiceAccount says what it does to a pod create, and to a mirror pod', () => {
    expect(pluginInvolvement('ServiceAccount', 'mutation', request('CREATE', 'pods', pod())).reason).toBe(
      'defaults serviceAccountName, requires the account to exist, mounts the kube-api-access token volume',
    );
    expect(
      pluginInvolvement('ServiceAccount', 'mutation', request('CREATE', 'pods', pod({}, { annotations: { 'kubernetes.io/config.mirror': 'x' } }))).reason,
    ).toBe('a mirror pod: only checks it references no service account, secret or token volume');
    // What a mirror pod references decides from the object alone, in both phases.
    const mirror = request('CREATE', 'pods', pod({ serviceAccountName: 'default' }, { annotations: { 'kubernetes.io/config.mirror': 'x' } }));
    for (const phase of ['mutation', 'validation'] as const) {
      expect(pluginInvolvement('ServiceAccount', phase, mirror)).toEqual({
        involved: true,
        refuses: true,
        reason: 'a mirror pod may not reference service accounts (403): the request stops here',
      });
    }
  });

  it('ResourceQuota names what it charges', () => {
    expect(pluginInvolvement('ResourceQuota', 'validation', request('CREATE', 'configmaps', configMap)).reason).toBe(
      "charges count/configmaps to the namespace's ResourceQuotas (if it has any)",
    );
    expect(pluginInvolvement('ResourceQuota', 'validation', request('CREATE', 'deployments.apps', { metadata: { name: 'web' } })).reason).toBe(
      "charges count/deployments.apps to the namespace's ResourceQuotas (if it has any)",
    );
    const claim = { metadata: { name: 'gpu' }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } } };
    for (const operation of ['CREATE', 'UPDATE'] as const) {
      expect(pluginInvolvement('ResourceQuota', 'validation', request(operation, 'resourceclaims.resource.k8s.io', claim, { oldObject: claim })).reason).toBe(
        "charges the claim's count and the devices it may take per device class to the namespace's ResourceQuotas (if it has any)",
      );
    }
    expect(
      pluginInvolvement('ResourceQuota', 'validation', request('UPDATE', 'resourceclaims.resource.k8s.io/status', claim, { oldObject: claim })).reason,
    ).toBe('resourceclaims/status changes no quota usage');
  });

  it('a plugin in a phase it has no part in is not involved', () => {
    expect(pluginInvolvement('PodSecurity', 'mutation', request('CREATE', 'pods', pod()))).toEqual({
      involved: false,
      reason: 'PodSecurity has no part in the mutation phase',
    });
  });
});

describe('PLUGIN_CHAIN', () => {
  it('lists the plugins the harness runs, in kube-apiserver’s order (k8s.io/kubernetes/pkg/kubeapiserver/options/plugins.go)', () => {
    const order = (phase: AdmissionPhase) => PLUGIN_CHAIN.filter((s) => s.phase === phase).map((s) => s.plugin);
    // As a v1.36.2 kube-apiserver with them all enabled loads them (environment.admissionPluginsLoaded of
    // test/plugins/fixtures/podnodeselector-mutation.json), less the plugins the harness does not run.
    expect(order('mutation')).toEqual(['NamespaceLifecycle', ...ALL_MUTATION_PLUGINS.map((p) => p.name)]);
    expect(order('mutation')).toEqual([
      'NamespaceLifecycle',
      'LimitRanger',
      'ServiceAccount',
      'TaintNodesByCondition',
      'AlwaysPullImages',
      'PodNodeSelector',
      'Priority',
      'DefaultTolerationSeconds',
      'PodTolerationRestriction',
      'ExtendedResourceToleration',
      'DefaultStorageClass',
      'StorageObjectInUseProtection',
      'RuntimeClass',
      'DefaultIngressClass',
      'PodTopologyLabels',
    ]);
    expect(order('validation')).toEqual([
      'LimitPodHardAntiAffinityTopology',
      'LimitRanger',
      'ServiceAccount',
      'AlwaysPullImages',
      'PodSecurity',
      'PodNodeSelector',
      'Priority',
      'PodTolerationRestriction',
      'EventRateLimit',
      'OwnerReferencesPermissionEnforcement',
      'PersistentVolumeClaimResize',
      'RuntimeClass',
      'DenyServiceExternalIPs',
      'ResourceQuota',
    ]);
    expect(new Set(PLUGIN_CHAIN.map((s) => s.plugin))).toEqual(new Set(BUILTIN_PLUGIN_NAMES));
    expect(PLUGIN_CHAIN.filter((s) => s.position === 'after-webhooks').map((s) => s.plugin)).toEqual(['ResourceQuota']);
  });
});
