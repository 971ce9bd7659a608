import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../../lib/errors';
import type { AdmissionRequest, GroupVersionKind, GroupVersionResource, Operation } from '../../lib/kube/admission';
import { splitApiVersion } from '../../lib/kube/api-version';
import {
  BUILTIN_RESOURCES,
  ResourceCatalog,
  equivalentResources,
  gvkOf,
  gvrOf,
  kindFor,
  registerCustomResourceDefinition,
  registerResource,
  resourceByName,
  resourceForKind,
  subresourceInfo,
  type ResourceInfo,
} from '../../lib/kube/catalog';
import { exemptionOf } from '../../lib/match/exempt';
import type { MatchAttributes } from '../../lib/match/request';

// Recorded on a real kube-apiserver v1.36.2, verbatim: test/fixtures/apiserver-captures (README.md there says how).
const CAPTURES = path.join(__dirname, '../fixtures/apiserver-captures');

interface Capture {
  clientResult?: { stdout: string };
  calls: { webhook: string; body: { request: AdmissionRequest } }[];
}

function capture(file: string): Capture {
  return JSON.parse(readFileSync(path.join(CAPTURES, file), 'utf8')) as Capture;
}

function requestsIn(file: string): AdmissionRequest[] {
  return capture(file).calls.map((call) => call.body.request);
}

/** `gvr('apps/v1', 'deployments')`. */
function gvr(apiVersion: string, resource: string): GroupVersionResource {
  const [group, version] = splitApiVersion(apiVersion);
  return { group, version, resource };
}

/** `gvk('autoscaling/v1', 'Scale')`. */
function gvk(apiVersion: string, kind: string): GroupVersionKind {
  const [group, version] = splitApiVersion(apiVersion);
  return { group, version, kind };
}

function entryOf(resource: GroupVersionResource) {
  return resourceByName(resource.group, resource.version, resource.resource);
}

function sameGvr(a: GroupVersionResource, b: GroupVersionResource): boolean {
  return a.group === b.group && a.version === b.version && a.resource === b.resource;
}

/** The `widgets.capture.example.com` CRD exactly as kubectl sent it. */
function widgetsCrd(): Record<string, unknown> {
  const request = requestsIn('customresourcedefinitions-create.json').find((r) => r.operation === 'CREATE' && r.kind.kind === 'CustomResourceDefinition');
  return structuredClone(request!.object!);
}

beforeAll(() => {
  // The widgets captures need the CRD, as the recording apiserver had it.
  registerCustomResourceDefinition(widgetsCrd());
});

describe('resource lookups', () => {
  it.each<[string, string, string, boolean, string]>([
    // apiVersion, resource, kind, namespaced, singular
    ['v1', 'pods', 'Pod', true, 'pod'],
    ['v1', 'namespaces', 'Namespace', false, 'namespace'],
    ['v1', 'endpoints', 'Endpoints', true, 'endpoints'],
    ['v1', 'persistentvolumes', 'PersistentVolume', false, 'persistentvolume'],
    ['apps/v1', 'deployments', 'Deployment', true, 'deployment'],
    ['batch/v1', 'cronjobs', 'CronJob', true, 'cronjob'],
    ['autoscaling/v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, 'horizontalpodautoscaler'],
    ['autoscaling/v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, 'horizontalpodautoscaler'],
    ['policy/v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, 'poddisruptionbudget'],
    ['networking.k8s.io/v1', 'ingresses', 'Ingress', true, 'ingress'],
    ['networking.k8s.io/v1', 'ipaddresses', 'IPAddress', false, 'ipaddress'],
    ['rbac.authorization.k8s.io/v1', 'clusterroles', 'ClusterRole', false, 'clusterrole'],
    ['rbac.authorization.k8s.io/v1', 'rolebindings', 'RoleBinding', true, 'rolebinding'],
    ['storage.k8s.io/v1', 'storageclasses', 'StorageClass', false, 'storageclass'],
    ['storage.k8s.io/v1', 'csistoragecapacities', 'CSIStorageCapacity', true, 'csistoragecapacity'],
    ['scheduling.k8s.io/v1', 'priorityclasses', 'PriorityClass', false, 'priorityclass'],
    ['coordination.k8s.io/v1', 'leases', 'Lease', true, 'lease'],
    ['discovery.k8s.io/v1', 'endpointslices', 'EndpointSlice', true, 'endpointslice'],
    ['certificates.k8s.io/v1', 'certificatesigningrequests', 'CertificateSigningRequest', false, 'certificatesigningrequest'],
    ['admissionregistration.k8s.io/v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, 'validatingwebhookconfiguration'],
    ['apiextensions.k8s.io/v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, 'customresourcedefinition'],
    ['apiregistration.k8s.io/v1', 'apiservices', 'APIService', false, 'apiservice'],
    ['node.k8s.io/v1', 'runtimeclasses', 'RuntimeClass', false, 'runtimeclass'],
    ['flowcontrol.apiserver.k8s.io/v1', 'flowschemas', 'FlowSchema', false, 'flowschema'],
    ['authentication.k8s.io/v1', 'tokenreviews', 'TokenReview', false, 'tokenreview'],
    ['authorization.k8s.io/v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true, 'localsubjectaccessreview'],
    ['events.k8s.io/v1', 'events', 'Event', true, 'event'],
    ['resource.k8s.io/v1', 'resourceclaims', 'ResourceClaim', true, 'resourceclaim'],
  ])('%s %s is %s (namespaced %s, singular %s), both ways', (apiVersion, resource, kind, namespaced, singular) => {
    const { group, version } = gvr(apiVersion, resource);
    const entry = resourceByName(group, version, resource);
    expect(entry).toMatchObject({ group, version, kind, resource, namespaced, singular });
    expect(resourceForKind(gvk(apiVersion, kind))).toBe(entry);
    expect(kindFor(gvr(apiVersion, resource))).toEqual(gvk(apiVersion, kind));
  });

  it.each([
    // Removed from kube-apiserver long before v1.36; only tests that register them see them.
    ['extensions/v1beta1', 'deployments'],
    ['apps/v1beta1', 'deployments'],
    ['apps/v1beta2', 'deployments'],
    ['extensions/v1beta1', 'ingresses'],
    ['networking.k8s.io/v1beta1', 'ingresses'],
    ['batch/v1beta1', 'cronjobs'],
    ['policy/v1beta1', 'poddisruptionbudgets'],
    ['autoscaling/v2beta2', 'horizontalpodautoscalers'],
    ['discovery.k8s.io/v1beta1', 'endpointslices'],
    ['coordination.k8s.io/v1beta1', 'leases'],
    ['events.k8s.io/v1beta1', 'events'],
  ])('%s %s is not served', (apiVersion, resource) => {
    const { group, version } = gvr(apiVersion, resource);
    expect(resourceByName(group, version, resource)).toBeUndefined();
  });

  it('gives undefined for what it does not know', () => {
    expect(resourceByName('', 'v1', 'widgets')).toBeUndefined();
    expect(resourceByName('apps', 'v1', 'deployments/scale')).toBeUndefined();
    expect(resourceForKind(gvk('v1', 'Scale'))).toBeUndefined();
    expect(kindFor(gvr('v1', 'nothings'))).toBeUndefined();
    expect(kindFor(gvr('v1', 'pods'), 'nothing')).toBeUndefined();
    expect(subresourceInfo(gvr('v1', 'configmaps'), 'status')).toBeUndefined();
  });

  it('serves each kind of each group version from exactly one built-in resource', () => {
    const kinds = BUILTIN_RESOURCES.map((info) => `${info.group}/${info.version}/${info.kind}`);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const info of BUILTIN_RESOURCES) expect(gvrOf(resourceForKind(gvkOf(info))!)).toEqual(gvrOf(info));
  });

  it('hands out frozen entries, so callers cannot change the catalog', () => {
    const pods = resourceByName('', 'v1', 'pods')!;
    expect(Object.isFrozen(pods)).toBe(true);
    expect(Object.isFrozen(pods.subresources)).toBe(true);
    expect(Object.isFrozen(pods.subresources[0])).toBe(true);
    const kind = kindFor(gvr('apps/v1', 'deployments'), 'scale')!;
    kind.kind = 'Changed';
    expect(kindFor(gvr('apps/v1', 'deployments'), 'scale')).toEqual(gvk('autoscaling/v1', 'Scale'));
  });
});

describe('scope, as the captured requests show it', () => {
  it.each<[string, string, string, boolean]>([
    ['nodes-create.json', 'v1', 'nodes', false],
    ['namespaces-create.json', 'v1', 'namespaces', false],
    ['services-create.json', 'v1', 'services', true],
    // The ClusterIP allocation the apiserver made while creating the Service.
    ['services-create.json', 'networking.k8s.io/v1', 'ipaddresses', false],
    ['customresourcedefinitions-create.json', 'apiextensions.k8s.io/v1', 'customresourcedefinitions', false],
    // The APIServices kube-aggregator created for the new CRD's versions.
    ['customresourcedefinitions-create.json', 'apiregistration.k8s.io/v1', 'apiservices', false],
    ['widgets-create-v1.json', 'capture.example.com/v1', 'widgets', true],
  ])('%s: %s %s namespaced %s', (file, apiVersion, resource, namespaced) => {
    const requests = requestsIn(file).filter((r) => sameGvr(r.resource, gvr(apiVersion, resource)));
    expect(requests.length).toBeGreaterThan(0);
    expect(entryOf(gvr(apiVersion, resource))?.namespaced).toBe(namespaced);
    for (const request of requests) {
      // A namespace's own requests carry its name as their namespace; other cluster-scoped requests carry none.
      if (resource === 'namespaces') expect(request.namespace).toBe(request.name);
      else if (namespaced) expect(request.namespace).toBeTruthy();
      else expect(request.namespace ?? '').toBe('');
    }
  });
});

describe('subresources and the kinds they carry', () => {
  it.each<[string, string, string, string, string, Operation]>([
    // capture file, apiVersion, resource, subresource, kind (apiVersion Kind), operation
    ['deployments-scale-kubectl.json', 'apps/v1', 'deployments', 'scale', 'autoscaling/v1 Scale', 'UPDATE'],
    ['deployments-status-patch.json', 'apps/v1', 'deployments', 'status', 'apps/v1 Deployment', 'UPDATE'],
    ['pods-status-patch.json', 'v1', 'pods', 'status', 'v1 Pod', 'UPDATE'],
    ['pods-eviction.json', 'v1', 'pods', 'eviction', 'policy/v1 Eviction', 'CREATE'],
    ['pods-binding.json', 'v1', 'pods', 'binding', 'v1 Binding', 'CREATE'],
    ['bindings-create-legacy.json', 'v1', 'bindings', '', 'v1 Binding', 'CREATE'],
    ['serviceaccounts-token.json', 'v1', 'serviceaccounts', 'token', 'authentication.k8s.io/v1 TokenRequest', 'CREATE'],
    ['pods-ephemeralcontainers.json', 'v1', 'pods', 'ephemeralcontainers', 'v1 Pod', 'UPDATE'],
    ['namespaces-finalize.json', 'v1', 'namespaces', 'finalize', 'v1 Namespace', 'UPDATE'],
    [
      'customresourcedefinitions-create.json',
      'apiextensions.k8s.io/v1',
      'customresourcedefinitions',
      'status',
      'apiextensions.k8s.io/v1 CustomResourceDefinition',
      'UPDATE',
    ],
    ['widgets-scale-v2.json', 'capture.example.com/v2', 'widgets', 'scale', 'autoscaling/v1 Scale', 'UPDATE'],
    ['widgets-status-v2.json', 'capture.example.com/v2', 'widgets', 'status', 'capture.example.com/v2 Widget', 'UPDATE'],
  ])('%s: %s %s/%s carries %s', (file, apiVersion, resource, subresource, kind, operation) => {
    const target = gvr(apiVersion, resource);
    const [kindApiVersion = '', kindName = ''] = kind.split(' ');
    const requests = requestsIn(file).filter((r) => sameGvr(r.resource, target) && (r.subResource ?? '') === subresource);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request.kind).toEqual(gvk(kindApiVersion, kindName));
      expect(request.operation).toBe(operation);
    }
    expect(kindFor(target, subresource)).toEqual(gvk(kindApiVersion, kindName));
    const info = subresource ? subresourceInfo(target, subresource)! : entryOf(target)!;
    expect(info.operations).toContain(operation);
    if (subresource) expect(subresourceInfo(target, subresource)).toMatchObject({ connect: false, admitted: true });
  });

  it.each([
    // Same kinds by the same REST storage, not separately captured.
    ['apps/v1', 'statefulsets', 'scale', 'autoscaling/v1 Scale'],
    ['apps/v1', 'replicasets', 'scale', 'autoscaling/v1 Scale'],
    ['v1', 'replicationcontrollers', 'scale', 'autoscaling/v1 Scale'],
    ['v1', 'pods', 'resize', 'v1 Pod'],
    ['v1', 'nodes', 'status', 'v1 Node'],
    ['autoscaling/v1', 'horizontalpodautoscalers', 'status', 'autoscaling/v1 HorizontalPodAutoscaler'],
    ['autoscaling/v2', 'horizontalpodautoscalers', 'status', 'autoscaling/v2 HorizontalPodAutoscaler'],
    ['certificates.k8s.io/v1', 'certificatesigningrequests', 'approval', 'certificates.k8s.io/v1 CertificateSigningRequest'],
    ['policy/v1', 'poddisruptionbudgets', 'status', 'policy/v1 PodDisruptionBudget'],
  ])('%s %s/%s carries %s', (apiVersion, resource, subresource, kind) => {
    const [kindApiVersion = '', kindName = ''] = kind.split(' ');
    expect(kindFor(gvr(apiVersion, resource), subresource)).toEqual(gvk(kindApiVersion, kindName));
    expect(subresourceInfo(gvr(apiVersion, resource), subresource)).toMatchObject({ operations: ['UPDATE'], connect: false, admitted: true });
  });

  it.each<[string, string, string, string]>([
    // capture file, resource, subresource, kind of the options object
    ['pods-exec.json', 'pods', 'exec', 'PodExecOptions'],
    ['pods-attach.json', 'pods', 'attach', 'PodAttachOptions'],
    ['pods-portforward.json', 'pods', 'portforward', 'PodPortForwardOptions'],
    ['pods-proxy.json', 'pods', 'proxy', 'PodProxyOptions'],
    ['services-proxy.json', 'services', 'proxy', 'ServiceProxyOptions'],
    ['nodes-proxy.json', 'nodes', 'proxy', 'NodeProxyOptions'],
  ])('%s: %s/%s is CONNECT with a v1 %s', (file, resource, subresource, kind) => {
    const requests = requestsIn(file);
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) {
      expect(request).toMatchObject({ operation: 'CONNECT', kind: gvk('v1', kind), resource: gvr('v1', resource), subResource: subresource, options: null });
      expect(request.object).toMatchObject({ apiVersion: 'v1', kind });
    }
    expect(subresourceInfo(gvr('v1', resource), subresource)).toEqual({
      name: subresource,
      kind: gvk('v1', kind),
      operations: ['CONNECT'],
      connect: true,
      admitted: true,
    });
  });

  it('marks what never reaches admission, so builders can refuse it', () => {
    // pods/log is GET-only; kube-apiserver admits no reads.
    expect(subresourceInfo(gvr('v1', 'pods'), 'log')).toEqual({ name: 'log', kind: gvk('v1', 'Pod'), operations: [], connect: false, admitted: false });
    expect(resourceByName('', 'v1', 'componentstatuses')?.operations).toEqual([]);
    expect(resourceByName('authorization.k8s.io', 'v1', 'subjectaccessreviews')?.operations).toEqual(['CREATE']);
    expect(resourceByName('', 'v1', 'configmaps')?.operations).toEqual(['CREATE', 'UPDATE', 'DELETE']);
  });

  it('lists the subresources of pods', () => {
    expect(
      resourceByName('', 'v1', 'pods')!
        .subresources.map((sub) => sub.name)
        .sort(),
    ).toEqual(['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'proxy', 'resize', 'status']);
  });
});

describe('every captured call agrees with the catalog', () => {
  const files = readdirSync(CAPTURES).filter((file) => file.endsWith('.json'));
  // Recordings of client actions that reached no webhook: nothing in them for the catalog to agree with.
  const withoutCalls = files.filter((file) => requestsIn(file).length === 0);

  it('covers every recording that reached a webhook; the two that reached none did so for reasons of their own', () => {
    expect(withoutCalls).toEqual(['mutatingwebhookconfigurations-create.json', 'namespaces-deletecollection.json']);
    // Webhook configurations are exempt from admission webhooks, whatever the catalog serves.
    const configurations = entryOf(gvr('admissionregistration.k8s.io/v1', 'mutatingwebhookconfigurations'))!;
    expect(exemptionOf({ kind: gvkOf(configurations), resource: gvrOf(configurations) } as MatchAttributes)).toBe(
      'MutatingWebhookConfiguration objects are never sent to admission webhooks',
    );
    // Namespaces have no deletecollection: the apiserver refused the request before admission.
    expect(capture('namespaces-deletecollection.json')).toMatchObject({ clientResult: { stdout: expect.stringContaining('"code": 405') } });
  });

  it.each(files.filter((file) => !withoutCalls.includes(file)))('%s', (file) => {
    expect(requestsIn(file).length).toBeGreaterThan(0);
    for (const request of requestsIn(file)) {
      const subResource = request.subResource ?? '';
      const entry = entryOf(request.resource);
      expect(entry).toBeDefined();
      expect(kindFor(request.resource, subResource)).toEqual(request.kind);
      expect(kindFor(request.requestResource!, request.requestSubResource ?? '')).toEqual(request.requestKind);
      expect(subResource ? subresourceInfo(request.resource, subResource)!.operations : entry!.operations).toContain(request.operation);
      // A webhook matched through matchPolicy Equivalent gets a resource other than the requested one.
      if (!sameGvr(request.resource, request.requestResource!)) {
        expect(equivalentResources(request.requestResource!, request.requestSubResource ?? '')).toContainEqual(request.resource);
      }
    }
  });
});

describe('storage-equivalent resources (matchPolicy Equivalent)', () => {
  it.each<[string, string, string, string[]]>([
    // apiVersion, resource, subresource, equivalents in order
    ['v1', 'events', '', ['events.k8s.io/v1 events']],
    ['events.k8s.io/v1', 'events', '', ['v1 events']],
    ['autoscaling/v1', 'horizontalpodautoscalers', '', ['autoscaling/v2 horizontalpodautoscalers']],
    ['autoscaling/v2', 'horizontalpodautoscalers', '', ['autoscaling/v1 horizontalpodautoscalers']],
    ['autoscaling/v1', 'horizontalpodautoscalers', 'status', ['autoscaling/v2 horizontalpodautoscalers']],
    ['capture.example.com/v2', 'widgets', '', ['capture.example.com/v1 widgets']],
    ['capture.example.com/v1', 'widgets', 'scale', ['capture.example.com/v2 widgets']],
    // One version each in v1.36: nothing to convert to.
    ['apps/v1', 'deployments', '', []],
    ['apps/v1', 'deployments', 'scale', []],
    ['networking.k8s.io/v1', 'ingresses', '', []],
    ['discovery.k8s.io/v1', 'endpointslices', '', []],
    ['coordination.k8s.io/v1', 'leases', '', []],
    ['v1', 'pods', 'status', []],
    // events.k8s.io events have no status, so core events' would have no equivalent either.
    ['v1', 'events', 'status', []],
    ['v1', 'nothings', '', []],
    // Like kube-apiserver's registry (keyed by group/resource), a version it does not serve still finds its group/resource.
    ['apps/v1beta2', 'deployments', '', ['apps/v1 deployments']],
  ])('%s %s/%s → %j', (apiVersion, resource, subresource, expected) => {
    expect(equivalentResources(gvr(apiVersion, resource), subresource)).toEqual(expected.map((name) => gvr(...(name.split(' ') as [string, string]))));
  });

  it('finds the kind of each equivalent', () => {
    expect(kindFor(gvr('events.k8s.io/v1', 'events'))).toEqual(gvk('events.k8s.io/v1', 'Event'));
    expect(kindFor(gvr('v1', 'events'))).toEqual(gvk('v1', 'Event'));
    expect(kindFor(gvr('autoscaling/v2', 'horizontalpodautoscalers'), 'status')).toEqual(gvk('autoscaling/v2', 'HorizontalPodAutoscaler'));
  });

  describe('the matchPolicy test table (k8s.io/apiserver/pkg/admission/plugin/webhook/generic/webhook_test.go), with the old deployments registered', () => {
    // As webhook_test.go registers them: extensions/v1beta1 first, then apps v1, v1beta1, v1alpha1.
    const old = (apiVersion: string, scale: GroupVersionKind): ResourceInfo => ({
      ...gvr(apiVersion, 'deployments'),
      kind: 'Deployment',
      namespaced: true,
      subresources: [{ name: 'scale', kind: scale }, { name: 'status' }],
      storageKey: 'deployments.apps',
    });
    const catalog = new ResourceCatalog([]);
    catalog.register(old('extensions/v1beta1', gvk('extensions/v1beta1', 'Scale')));
    catalog.register(resourceByName('apps', 'v1', 'deployments')!);
    catalog.register(old('apps/v1beta1', gvk('apps/v1beta1', 'Scale')));
    catalog.register(old('apps/v1alpha1', gvk('apps/v1alpha1', 'Scale')));

    /** matchPolicy Equivalent's second pass: rules in order, each against every equivalent in registry order. */
    function equivalentMatch(ruleVersions: string[], request: GroupVersionResource, subresource: string) {
      for (const rule of ruleVersions) {
        for (const equivalent of catalog.equivalentResources(request, subresource)) {
          if (`${equivalent.group}/${equivalent.version}` === rule) return { resource: equivalent, kind: catalog.kindFor(equivalent, subresource) };
        }
      }
      return undefined;
    }

    const appsV1 = gvr('apps/v1', 'deployments');

    it('lists the other three in registration order, for the resource and for scale', () => {
      const others = [gvr('extensions/v1beta1', 'deployments'), gvr('apps/v1beta1', 'deployments'), gvr('apps/v1alpha1', 'deployments')];
      expect(catalog.equivalentResources(appsV1, '')).toEqual(others);
      expect(catalog.equivalentResources(appsV1, 'scale')).toEqual(others);
      expect(catalog.kindFor(appsV1, 'scale')).toEqual(gvk('autoscaling/v1', 'Scale'));
    });

    it.each<[string[], string, string | undefined]>([
      // rules' apiVersions in order, subresource, the kind the webhook is called with
      [['extensions/v1beta1', 'apps/v1beta1'], '', 'extensions/v1beta1 Deployment'],
      [['apps/v1beta1', 'extensions/v1beta1'], '', 'apps/v1beta1 Deployment'],
      [['extensions/v1beta1', 'apps/v1beta1'], 'scale', 'extensions/v1beta1 Scale'],
      [['apps/v1beta1', 'extensions/v1beta1'], 'scale', 'apps/v1beta1 Scale'],
      [['batch/v1'], '', undefined],
    ])('rules %j on apps/v1 deployments/%s → %s', (rules, subresource, expected) => {
      const [apiVersion = '', kind = ''] = expected?.split(' ') ?? [];
      expect(equivalentMatch(rules, appsV1, subresource)).toEqual(expected && { resource: gvr(apiVersion, 'deployments'), kind: gvk(apiVersion, kind) });
    });

    it('does not touch the default catalog', () => {
      expect(equivalentResources(appsV1)).toEqual([]);
    });
  });
});

describe('registerResource', () => {
  it('accepts the original five-field shape and fills in the rest', () => {
    registerResource({ group: 'example.com', version: 'v1', kind: 'Gadget', resource: 'gadgets', namespaced: true });
    expect(resourceForKind(gvk('example.com/v1', 'Gadget'))).toEqual({
      group: 'example.com',
      version: 'v1',
      kind: 'Gadget',
      resource: 'gadgets',
      namespaced: true,
      singular: 'gadget',
      operations: ['CREATE', 'UPDATE', 'DELETE'],
      subresources: [],
      storageKey: 'gadgets.example.com',
    });
  });

  it('makes versions of a group/resource equivalent unless given different storage keys', () => {
    const catalog = new ResourceCatalog([]);
    catalog.register({ ...gvr('example.com/v1', 'gizmos'), kind: 'Gizmo', namespaced: false });
    catalog.register({ ...gvr('example.com/v2', 'gizmos'), kind: 'Gizmo', namespaced: false });
    catalog.register({ ...gvr('example.com/v3', 'gizmos'), kind: 'Gizmo', namespaced: false, storageKey: 'elsewhere' });
    expect(catalog.equivalentResources(gvr('example.com/v2', 'gizmos'))).toEqual([gvr('example.com/v1', 'gizmos')]);
    expect(catalog.equivalentResources(gvr('example.com/v3', 'gizmos'))).toEqual([]);
  });

  it('replaces a resource in place, keeping its position among equivalents', () => {
    const catalog = new ResourceCatalog([]);
    for (const version of ['v1', 'v2', 'v3']) catalog.register({ ...gvr(`example.com/${version}`, 'gizmos'), kind: 'Gizmo', namespaced: false });
    catalog.register({ ...gvr('example.com/v1', 'gizmos'), kind: 'Gizmo', namespaced: false, subresources: [{ name: 'status' }] });
    expect(catalog.equivalentResources(gvr('example.com/v3', 'gizmos')).map((r) => r.version)).toEqual(['v1', 'v2']);
    expect(catalog.kindFor(gvr('example.com/v1', 'gizmos'), 'status')).toEqual(gvk('example.com/v1', 'Gizmo'));
  });

  it.each<[string, ResourceInfo, string]>([
    ['no kind', { group: 'example.com', version: 'v1', kind: '', resource: 'gadgets', namespaced: true }, 'kind is required'],
    ['no version', { group: 'example.com', version: '', kind: 'Gadget', resource: 'gadgets', namespaced: true }, 'version is required'],
    ['a subresource as resource', { group: 'apps', version: 'v1', kind: 'Scale', resource: 'deployments/scale', namespaced: true }, 'without "/"'],
    [
      'a subresource twice',
      { group: 'example.com', version: 'v1', kind: 'Gadget', resource: 'gadgets', namespaced: true, subresources: [{ name: 'status' }, { name: 'status' }] },
      'subresource status is declared twice',
    ],
  ])('refuses %s', (_, info, message) => {
    expect(() => registerResource(info)).toThrow(HarnessError);
    expect(() => registerResource(info)).toThrow(message);
  });
});

describe('registerCustomResourceDefinition (widgets.capture.example.com from customresourcedefinitions-create.json)', () => {
  it('registers every served version with its scope, names and subresources', () => {
    const catalog = new ResourceCatalog();
    const entries = catalog.registerCustomResourceDefinition(widgetsCrd());
    expect(entries.map((entry) => entry.version)).toEqual(['v1', 'v2']);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        group: 'capture.example.com',
        kind: 'Widget',
        resource: 'widgets',
        singular: 'widget',
        namespaced: true,
        operations: ['CREATE', 'UPDATE', 'DELETE'],
      });
      expect(entry.subresources).toEqual([
        { name: 'status', kind: gvk(`capture.example.com/${entry.version}`, 'Widget'), operations: ['UPDATE'], connect: false, admitted: true },
        { name: 'scale', kind: gvk('autoscaling/v1', 'Scale'), operations: ['UPDATE'], connect: false, admitted: true },
      ]);
      expect(catalog.resourceForKind(gvk(`capture.example.com/${entry.version}`, 'Widget'))).toBe(entry);
    }
  });

  it('makes the versions equivalent, as widgets-create-v2.json shows: a v1-only Equivalent webhook got v1', () => {
    const calls = capture('widgets-create-v2.json').calls;
    const converted = calls.find((call) => call.webhook === 'crd-equivalent.capture.local')!.body.request;
    expect(converted).toMatchObject({ kind: gvk('capture.example.com/v1', 'Widget'), requestKind: gvk('capture.example.com/v2', 'Widget') });
    expect(calls.some((call) => call.webhook === 'crd-exact.capture.local')).toBe(false);
    expect(equivalentResources(converted.requestResource!)).toEqual([converted.resource]);
    expect(kindFor(converted.resource)).toEqual(converted.kind);
  });

  it('leaves out versions that are not served, and subresources a version does not declare', () => {
    const crd = widgetsCrd() as { spec: { scope: string; versions: { served: boolean; subresources?: unknown }[] } };
    crd.spec.scope = 'Cluster';
    crd.spec.versions[1]!.served = false;
    delete crd.spec.versions[0]!.subresources;
    const catalog = new ResourceCatalog();
    expect(catalog.registerCustomResourceDefinition(crd).map((entry) => [entry.version, entry.namespaced, entry.subresources])).toEqual([['v1', false, []]]);
    expect(catalog.resourceByName('capture.example.com', 'v2', 'widgets')).toBeUndefined();
  });

  it('defaults the singular name to the lower-cased kind', () => {
    const crd = widgetsCrd() as { spec: { names: { singular?: string } } };
    delete crd.spec.names.singular;
    expect(new ResourceCatalog().registerCustomResourceDefinition(crd)[0]?.singular).toBe('widget');
  });

  it('replaces an earlier registration whole', () => {
    const catalog = new ResourceCatalog();
    catalog.registerCustomResourceDefinition(widgetsCrd());
    const crd = widgetsCrd() as { spec: { versions: { served: boolean }[] } };
    crd.spec.versions[0]!.served = false;
    catalog.registerCustomResourceDefinition(crd);
    expect(catalog.resourceByName('capture.example.com', 'v1', 'widgets')).toBeUndefined();
    expect(catalog.resourceForKind(gvk('capture.example.com/v1', 'Widget'))).toBeUndefined();
    expect(catalog.equivalentResources(gvr('capture.example.com/v2', 'widgets'))).toEqual([]);
  });

  type Crd = Record<string, unknown> & { spec: Record<string, unknown> & { names: Record<string, unknown>; versions: Record<string, unknown>[] } };
  it.each<[string, (crd: Crd) => unknown, string]>([
    ['not an object', () => 'widgets', '(root): must be an object'],
    ['no apiVersion', (crd) => ({ ...crd, apiVersion: undefined }), 'apiVersion: Required value'],
    ['a v1beta1 CRD', (crd) => ({ ...crd, apiVersion: 'apiextensions.k8s.io/v1beta1' }), 'apiVersion: Unsupported value: "apiextensions.k8s.io/v1beta1"'],
    ['another kind', (crd) => ({ ...crd, kind: 'APIService' }), 'kind: Unsupported value: "APIService"'],
    ['no spec', (crd) => ({ ...crd, spec: undefined }), 'spec: Required value'],
    ['no group', (crd) => ({ ...crd, spec: { ...crd.spec, group: '' } }), 'spec.group: Required value'],
    ['no names', (crd) => ({ ...crd, spec: { ...crd.spec, names: undefined } }), 'spec.names: Required value'],
    ['no plural', (crd) => ({ ...crd, spec: { ...crd.spec, names: { ...crd.spec.names, plural: undefined } } }), 'spec.names.plural: Required value'],
    ['no kind name', (crd) => ({ ...crd, spec: { ...crd.spec, names: { ...crd.spec.names, kind: undefined } } }), 'spec.names.kind: Required value'],
    ['a bad scope', (crd) => ({ ...crd, spec: { ...crd.spec, scope: 'Global' } }), 'spec.scope: Unsupported value: "Global"'],
    ['no versions', (crd) => ({ ...crd, spec: { ...crd.spec, versions: [] } }), 'spec.versions: Required value: must have at least one version'],
    [
      'a version without a name',
      (crd) => ({ ...crd, spec: { ...crd.spec, versions: [crd.spec.versions[0], { ...crd.spec.versions[1], name: undefined }] } }),
      'spec.versions[1].name: Required value',
    ],
    [
      'a version without served',
      (crd) => ({ ...crd, spec: { ...crd.spec, versions: [{ ...crd.spec.versions[0], served: undefined }, crd.spec.versions[1]] } }),
      'spec.versions[0].served: Required value',
    ],
    [
      'two storage versions',
      (crd) => ({ ...crd, spec: { ...crd.spec, versions: crd.spec.versions.map((version) => ({ ...version, storage: true })) } }),
      'spec.versions: Invalid value: must have exactly one version marked as storage version, found 2',
    ],
  ])('refuses %s, naming the field', (_, mutate, message) => {
    const crd = mutate(widgetsCrd() as Crd);
    const catalog = new ResourceCatalog();
    let error: unknown;
    try {
      catalog.registerCustomResourceDefinition(crd);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('MANIFEST_INVALID');
    expect((error as HarnessError).message).toContain(message);
    expect(catalog.resourceByName('capture.example.com', 'v1', 'widgets')).toBeUndefined();
  });

  it('names the CRD in its errors', () => {
    const crd = widgetsCrd() as Crd;
    expect(() => new ResourceCatalog().registerCustomResourceDefinition({ ...crd, spec: { ...crd.spec, group: undefined } })).toThrow(
      'CustomResourceDefinition "widgets.capture.example.com": spec.group: Required value',
    );
  });
});
