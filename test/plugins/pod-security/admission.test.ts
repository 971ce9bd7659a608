// podSecurityAdmit, the PodSecurity plugin's decision on a request (plugin/pkg/admission/security/
// podsecurity/admission.go over pod-security-admission's admission.go and response.go): replayed from
// test/fixtures/apiserver-policies/psa-restricted-sidecar.json (a real kube-apiserver v1.36.2), then
// checked for exemptions, workloads, pod subresources and updates, and namespace label changes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WarningRecorder } from '../../../lib/kube/warning-recorder';
import type { AdmissionReview, KubeObject } from '../../../lib/kube/admission';
import type { JsonRecord } from '../../../lib/kube/record';
import { applyJsonPatch } from '../../../lib/patch/apply';
import {
  podSecurityAdmit,
  resolveConfiguration,
  type PodSecurityAttributes,
  type PodSecurityConfiguration,
  type PodSecurityRequest,
} from '../../../lib/plugins/pod-security';
import { restrictedContainer, restrictedPod } from './pods';

interface Recording {
  namespace: string;
  objectsCreated: { method: string; stored: KubeObject }[];
  requests: {
    label: string;
    clientRequest: { body: KubeObject };
    response: { status: number; body: Record<string, unknown>; warnings: string[] };
    webhookCalls: { admissionReviewReceived: AdmissionReview; patchOpsDecoded: unknown[] }[];
    storedObjectAfter: { body: KubeObject };
    auditAnnotations: Record<string, string>;
  }[];
}

const recording = JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/apiserver-policies/psa-restricted-sidecar.json'), 'utf8')) as Recording;

const PSA = 'pod-security.kubernetes.io/';
const psaAnnotations = (annotations: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(annotations).filter(([key]) => key.startsWith(PSA)));
const headers = (warnings: readonly string[]): string[] => {
  const recorder = new WarningRecorder();
  for (const warning of warnings) recorder.add(warning);
  return recorder.headers;
};

const NS = 'team';
const RESOURCES = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
} as const;

function attributes(overrides: Partial<PodSecurityAttributes> = {}): PodSecurityAttributes {
  return {
    operation: 'CREATE',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: RESOURCES.pods,
    subResource: '',
    name: 'p',
    namespace: NS,
    userInfo: { username: 'alice' },
    object: null,
    oldObject: null,
    ...overrides,
  };
}

const labels = (enforce?: string, warn?: string, audit?: string, extra: Record<string, string> = {}): Record<string, string> => ({
  ...(enforce ? { 'pod-security.kubernetes.io/enforce': enforce } : {}),
  ...(warn ? { 'pod-security.kubernetes.io/warn': warn } : {}),
  ...(audit ? { 'pod-security.kubernetes.io/audit': audit } : {}),
  ...extra,
});

const asPod = (pod: { metadata: JsonRecord; spec: JsonRecord }): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', ...pod });
/** A pod that fails baseline (privileged) and so restricted too. */
const privilegedPod = asPod(restrictedPod({ spec: { containers: [restrictedContainer('app', { securityContext: { privileged: true } })] } }));
const PRIVILEGED_DETAIL = 'privileged (container "app" must not set securityContext.privileged=true)';

function admitPod(
  pod: KubeObject,
  namespaceLabels: Record<string, string> | null,
  more: Partial<PodSecurityRequest> & { attrs?: Partial<PodSecurityAttributes> } = {},
) {
  const { attrs, ...rest } = more;
  return podSecurityAdmit({ attributes: attributes({ object: pod, ...attrs }), namespaceLabels, ...rest });
}

describe('PodSecurity as a real kube-apiserver v1.36.2 runs it (fixtures/apiserver-policies/psa-restricted-sidecar.json)', () => {
  const [privilegedSidecar, plainSidecar, control] = recording.requests;
  const created = recording.objectsCreated.find((o) => o.method === 'POST' && o.stored.kind === 'Namespace')!.stored;
  const relabelled = recording.objectsCreated.find((o) => o.method === 'PUT' && o.stored.kind === 'Namespace')!.stored;

  /** The pod PodSecurity judged: what the webhook received, with the webhook's patch applied. */
  function judgedPod(request: Recording['requests'][number]): KubeObject {
    const call = request.webhookCalls[0]!;
    const patched = applyJsonPatch(call.admissionReviewReceived.request!.object, call.patchOpsDecoded);
    if (!patched.ok) throw new Error(patched.error);
    return patched.document as KubeObject;
  }

  const attrsOf = (object: KubeObject): PodSecurityAttributes =>
    attributes({ name: object.metadata!.name!, namespace: recording.namespace, userInfo: { username: 'admin' }, object });

  it(`${privilegedSidecar!.label}: the recorded 403`, () => {
    const pod = judgedPod(privilegedSidecar!);
    const decision = podSecurityAdmit({ attributes: attrsOf(pod), namespaceLabels: created.metadata!.labels! });
    expect(decision.allowed).toBe(false);
    expect(decision.status).toEqual(privilegedSidecar!.response.body);
    expect(headers(decision.warnings)).toEqual(privilegedSidecar!.response.warnings);
    expect(decision.auditAnnotations).toEqual(psaAnnotations(privilegedSidecar!.auditAnnotations));
  });

  it(`${plainSidecar!.label}: allowed with the recorded warning`, () => {
    const pod = judgedPod(plainSidecar!);
    const decision = podSecurityAdmit({ attributes: attrsOf(pod), namespaceLabels: relabelled.metadata!.labels! });
    expect(decision.allowed).toBe(true);
    expect(decision.status).toBeUndefined();
    expect(headers(decision.warnings)).toEqual(plainSidecar!.response.warnings);
    expect(decision.auditAnnotations).toEqual(psaAnnotations(plainSidecar!.auditAnnotations));
  });

  it(`${control!.label}: allowed, no warning`, () => {
    const pod = control!.storedObjectAfter.body;
    const decision = podSecurityAdmit({ attributes: attrsOf(pod), namespaceLabels: relabelled.metadata!.labels! });
    expect(decision).toEqual({ allowed: true, warnings: control!.response.warnings, auditAnnotations: psaAnnotations(control!.auditAnnotations) });
  });

  it('the namespace relabel (enforce restricted → baseline) warns about nothing, as recorded', () => {
    const decision = podSecurityAdmit({
      attributes: attributes({
        operation: 'UPDATE',
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: RESOURCES.namespaces,
        name: recording.namespace,
        namespace: recording.namespace,
        object: relabelled,
        oldObject: created,
      }),
      namespaceLabels: null,
      existingPods: [control!.storedObjectAfter.body as JsonRecord],
    });
    expect(decision).toEqual({ allowed: true, warnings: [], auditAnnotations: {} });
  });
});

describe('pods: enforce, audit and warn (admission.go ValidatePod, EvaluatePod)', () => {
  it('allows everything in a namespace without labels, naming privileged:latest as the enforced policy', () => {
    expect(admitPod(privilegedPod, {})).toEqual({ allowed: true, warnings: [], auditAnnotations: { [`${PSA}enforce-policy`]: 'privileged:latest' } });
    // The shared privileged answer names latest whatever version the labels pin.
    expect(admitPod(privilegedPod, { 'pod-security.kubernetes.io/enforce-version': 'v1.30' }).auditAnnotations).toEqual({
      [`${PSA}enforce-policy`]: 'privileged:latest',
    });
  });

  it('refuses with 403 Forbidden, the enforced level quoted as labelled', () => {
    const decision = admitPod(privilegedPod, labels('baseline', undefined, undefined, { 'pod-security.kubernetes.io/enforce-version': 'v1.30' }));
    expect(decision.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `pods "p" is forbidden: violates PodSecurity "baseline:v1.30": ${PRIVILEGED_DETAIL}`,
      reason: 'Forbidden',
      details: { name: 'p', kind: 'pods' },
      code: 403,
    });
    expect(decision.auditAnnotations).toEqual({ [`${PSA}enforce-policy`]: 'baseline:v1.30' });
  });

  it('audits without refusing: audit-violations, no warning', () => {
    const decision = admitPod(privilegedPod, labels(undefined, undefined, 'restricted'));
    expect(decision).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {
        [`${PSA}enforce-policy`]: 'privileged:latest',
        [`${PSA}audit-violations`]: `would violate PodSecurity "restricted:latest": ${PRIVILEGED_DETAIL}`,
      },
    });
  });

  it('gives no warning on a request it refuses, but still audits it', () => {
    const decision = admitPod(privilegedPod, labels('baseline', 'restricted', 'restricted'));
    expect(decision.allowed).toBe(false);
    expect(decision.warnings).toEqual([]);
    expect(decision.auditAnnotations[`${PSA}audit-violations`]).toBe(`would violate PodSecurity "restricted:latest": ${PRIVILEGED_DETAIL}`);
  });

  it('enforces restricted on an invalid enforce label, and says why in the error annotation', () => {
    const decision = admitPod(asPod(restrictedPod({ podSecurityContext: { runAsNonRoot: undefined } })), labels('Restricted'));
    expect(decision.status?.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "app" must set securityContext.runAsNonRoot=true)',
    );
    expect(decision.auditAnnotations).toEqual({
      [`${PSA}error`]:
        'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "Restricted": must be one of privileged, baseline, restricted',
      [`${PSA}enforce-policy`]: 'restricted:latest',
    });
  });

  it('brackets several label errors, and evaluates even when the invalid labels leave every mode privileged', () => {
    const decision = admitPod(privilegedPod, labels(undefined, 'loud', 'quiet'));
    expect(decision).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {
        [`${PSA}error`]:
          'Failed to parse policy: [metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "quiet": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn]: Invalid value: "loud": must be one of privileged, baseline, restricted]',
        [`${PSA}enforce-policy`]: 'privileged:latest',
      },
    });
  });

  it('uses the configured defaults for a namespace without labels', () => {
    const configuration: PodSecurityConfiguration = { defaults: { enforce: 'baseline', 'enforce-version': 'v1.33' } };
    expect(admitPod(privilegedPod, {}, { configuration }).status?.message).toBe(
      `pods "p" is forbidden: violates PodSecurity "baseline:v1.33": ${PRIVILEGED_DETAIL}`,
    );
    expect(admitPod(privilegedPod, {}, { configuration: resolveConfiguration(configuration) }).allowed).toBe(false);
  });

  it('answers 500 when the namespace cannot be found', () => {
    const decision = admitPod(privilegedPod, null);
    expect(decision.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Internal error occurred: failed to lookup namespace "team"',
      reason: 'InternalError',
      details: { causes: [{ message: 'failed to lookup namespace "team"' }] },
      code: 500,
    });
    expect(decision.auditAnnotations).toEqual({ [`${PSA}error`]: 'Internal error occurred: failed to lookup namespace "team": namespaces "team" not found' });
  });

  it("answers 400 for a request without its pod, with the plugin's Forbidden details", () => {
    const decision = podSecurityAdmit({ attributes: attributes({ object: null }), namespaceLabels: labels('baseline') });
    expect(decision.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'failed to decode object',
      reason: 'BadRequest',
      details: { name: 'p', kind: 'pods' },
      code: 400,
    });
    expect(decision.auditAnnotations).toEqual({ [`${PSA}error`]: 'failed to decode object: unexpected type <nil>' });
  });
});

describe('exemptions (PodSecurityConfiguration.exemptions)', () => {
  const configuration: PodSecurityConfiguration = {
    exemptions: { namespaces: ['kube-system'], usernames: ['system:serviceaccount:kube-system:replicaset-controller'], runtimeClasses: ['kata'] },
  };
  const enforced = labels('restricted');

  it('skips an exempt namespace, before even reading its labels', () => {
    expect(admitPod(privilegedPod, null, { configuration, attrs: { namespace: 'kube-system' } })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: { [`${PSA}exempt`]: 'namespace' },
    });
  });

  it('skips an exempt user', () => {
    expect(
      admitPod(privilegedPod, enforced, { configuration, attrs: { userInfo: { username: 'system:serviceaccount:kube-system:replicaset-controller' } } }),
    ).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: { [`${PSA}exempt`]: 'user' },
    });
  });

  it('skips a pod with an exempt runtime class, but not one with another', () => {
    const kata = asPod({ ...restrictedPod(), spec: { ...(privilegedPod.spec as JsonRecord), runtimeClassName: 'kata' } });
    expect(admitPod(kata, enforced, { configuration })).toEqual({ allowed: true, warnings: [], auditAnnotations: { [`${PSA}exempt`]: 'runtimeClass' } });
    const runc = asPod({ ...restrictedPod(), spec: { ...(privilegedPod.spec as JsonRecord), runtimeClassName: 'runc' } });
    expect(admitPod(runc, enforced, { configuration }).allowed).toBe(false);
  });

  it('exempts nothing for an empty name', () => {
    expect(admitPod(privilegedPod, enforced, { configuration: { exemptions: { usernames: [''] } }, attrs: { userInfo: {} } }).allowed).toBe(false);
  });
});

describe('pod subresources and updates (ignoredPodSubresources, isSignificantPodUpdate)', () => {
  const enforced = labels('baseline');

  it.each(['status', 'binding', 'eviction', 'exec', 'attach', 'log', 'portforward', 'proxy'])('does not evaluate pods/%s', (subResource) => {
    expect(admitPod(privilegedPod, enforced, { attrs: { subResource, operation: 'UPDATE', oldObject: privilegedPod } })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
  });

  it('evaluates pods/ephemeralcontainers adding a privileged debug container', () => {
    const pod = asPod(restrictedPod());
    const debugged = {
      ...pod,
      spec: { ...(pod.spec as JsonRecord), ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] },
    };
    const decision = admitPod(debugged, enforced, { attrs: { operation: 'UPDATE', subResource: 'ephemeralcontainers', oldObject: pod } });
    expect(decision.status?.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)',
    );
  });

  it('allows an update that changes nothing the checks read, without evaluating it', () => {
    const relabelled = { ...privilegedPod, metadata: { ...privilegedPod.metadata, labels: { tier: 'web' } } };
    expect(admitPod(relabelled, enforced, { attrs: { operation: 'UPDATE', oldObject: privilegedPod } })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
  });

  it('evaluates an update that changes an image, or a container seccomp annotation', () => {
    const spec = privilegedPod.spec as JsonRecord;
    const newImage = { ...privilegedPod, spec: { ...spec, containers: [{ ...(spec.containers as JsonRecord[])[0], image: 'registry.example.com/app:2.0' }] } };
    expect(admitPod(newImage, enforced, { attrs: { operation: 'UPDATE', oldObject: privilegedPod } }).allowed).toBe(false);
    const annotated = {
      ...privilegedPod,
      metadata: { ...privilegedPod.metadata, annotations: { 'container.seccomp.security.alpha.kubernetes.io/app': 'runtime/default' } },
    };
    expect(admitPod(annotated, enforced, { attrs: { operation: 'UPDATE', oldObject: privilegedPod } }).allowed).toBe(false);
  });

  it('ignores DELETE and CONNECT, and resources without pods', () => {
    expect(admitPod(privilegedPod, labels('restricted'), { attrs: { operation: 'DELETE', oldObject: privilegedPod } })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
    expect(admitPod(privilegedPod, labels('restricted'), { attrs: { operation: 'CONNECT', subResource: 'exec' } })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
    expect(
      admitPod({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }, labels('restricted'), {
        attrs: { resource: RESOURCES.configmaps, kind: { group: '', version: 'v1', kind: 'ConfigMap' } },
      }),
    ).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
  });

  // The in-tree plugin converts only a Pod for ValidatePod (plugin/pkg/admission/security/podsecurity/
  // admission.go convert); ValidatePod answers the conversion error as 400, keeping the forbidden error's details.
  it('refuses a pod subresource whose object is not a Pod: 400 "failed to decode object"', () => {
    const scale: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'p' }, spec: { replicas: 2 } };
    expect(admitPod(scale, enforced, { attrs: { operation: 'UPDATE', subResource: 'future', oldObject: scale } })).toEqual({
      allowed: false,
      status: {
        apiVersion: 'v1',
        kind: 'Status',
        metadata: {},
        status: 'Failure',
        message: 'failed to decode object',
        reason: 'BadRequest',
        details: { name: 'p', kind: 'pods' },
        code: 400,
      },
      warnings: [],
      auditAnnotations: { 'pod-security.kubernetes.io/error': 'failed to decode object: unexpected type *autoscaling.Scale' },
    });
  });

  it('refuses an update whose old object is not a Pod: 400 "failed to decode old object"', () => {
    const pod = asPod(restrictedPod());
    const binding: KubeObject = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n' } };
    const decision = admitPod(pod, enforced, { attrs: { operation: 'UPDATE', subResource: 'future', oldObject: binding } });
    expect([decision.status?.code, decision.status?.message, decision.auditAnnotations]).toEqual([
      400,
      'failed to decode old object',
      { 'pod-security.kubernetes.io/error': 'failed to decode old object: unexpected type *core.Binding' },
    ]);
  });

  it('still evaluates the Pod the checked subresources carry (ephemeralcontainers, resize), and a body without apiVersion and kind', () => {
    const pod = asPod(restrictedPod());
    const spec = pod.spec as JsonRecord;
    const debugged = { ...pod, spec: { ...spec, ephemeralContainers: [{ name: 'debug', image: 'busybox', securityContext: { privileged: true } }] } };
    const violation = 'violates PodSecurity "baseline:latest": privileged (container "debug" must not set securityContext.privileged=true)';
    for (const subResource of ['ephemeralcontainers', 'resize']) {
      const decision = admitPod(debugged, enforced, { attrs: { operation: 'UPDATE', subResource, oldObject: pod } });
      expect([decision.status?.code, decision.status?.message]).toEqual([403, `pods "p" is forbidden: ${violation}`]);
    }
    const { apiVersion: _apiVersion, kind: _kind, ...bare } = debugged;
    const bareDecision = admitPod(bare as KubeObject, enforced, { attrs: { operation: 'UPDATE', subResource: 'ephemeralcontainers', oldObject: pod } });
    expect(bareDecision.status?.message).toBe(`pods "p" is forbidden: ${violation}`);
    expect(admitPod(pod, enforced, { attrs: { operation: 'UPDATE', subResource: 'ephemeralcontainers', oldObject: pod } }).allowed).toBe(true);
  });
});

describe('workload resources: their pod templates are warned about and audited, never refused (ValidatePodController)', () => {
  const template = { metadata: { labels: { app: 'web' } }, spec: privilegedPod.spec };
  const WORKLOADS: [string, string, string, KubeObject][] = [
    ['', 'replicationcontrollers', 'ReplicationController', { spec: { template } }],
    ['', 'podtemplates', 'PodTemplate', { template }],
    ['apps', 'replicasets', 'ReplicaSet', { spec: { template } }],
    ['apps', 'deployments', 'Deployment', { spec: { template } }],
    ['apps', 'statefulsets', 'StatefulSet', { spec: { template } }],
    ['apps', 'daemonsets', 'DaemonSet', { spec: { template } }],
    ['batch', 'jobs', 'Job', { spec: { template } }],
    ['batch', 'cronjobs', 'CronJob', { spec: { schedule: '* * * * *', jobTemplate: { spec: { template } } } }],
  ];
  const admitWorkload = (
    [group, resource, kind, body]: [string, string, string, KubeObject],
    namespaceLabels: Record<string, string> | null,
    more: Partial<PodSecurityAttributes> = {},
    configuration?: PodSecurityConfiguration,
  ) =>
    podSecurityAdmit({
      attributes: attributes({
        kind: { group, version: 'v1', kind },
        resource: { group, version: 'v1', resource },
        name: 'w',
        object: { apiVersion: 'v1', kind, metadata: { name: 'w' }, ...body },
        ...more,
      }),
      namespaceLabels,
      ...(configuration ? { configuration } : {}),
    });

  it.each(WORKLOADS.map((w) => [w[2], w] as const))('%s: warns (warn level) and audits (audit level), whatever enforce says', (_kind, workload) => {
    expect(admitWorkload(workload, labels('restricted', 'baseline', 'restricted'))).toEqual({
      allowed: true,
      warnings: [`would violate PodSecurity "baseline:latest": ${PRIVILEGED_DETAIL}`],
      auditAnnotations: { [`${PSA}audit-violations`]: `would violate PodSecurity "restricted:latest": ${PRIVILEGED_DETAIL}` },
    });
  });

  it('on update too', () => {
    const deployment = WORKLOADS[3]!;
    expect(admitWorkload(deployment, labels(undefined, 'baseline'), { operation: 'UPDATE', oldObject: { kind: 'Deployment' } }).warnings).toEqual([
      `would violate PodSecurity "baseline:latest": ${PRIVILEGED_DETAIL}`,
    ]);
  });

  it('says nothing when only enforce is set', () => {
    expect(admitWorkload(WORKLOADS[3]!, labels('restricted'))).toEqual({ allowed: true, warnings: [], auditAnnotations: {} });
  });

  it('ignores subresources (deployments/scale)', () => {
    expect(admitWorkload(WORKLOADS[3]!, labels(undefined, 'restricted'), { subResource: 'scale' })).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
  });

  it("skips a ReplicationController without a template, but evaluates another workload's missing template as empty", () => {
    expect(admitWorkload(['', 'replicationcontrollers', 'ReplicationController', { spec: {} }], labels(undefined, 'restricted', 'restricted'))).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
    expect(admitWorkload(['apps', 'deployments', 'Deployment', { spec: {} }], labels(undefined, 'restricted', 'restricted'))).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
    const hostNetwork = admitWorkload(
      ['apps', 'deployments', 'Deployment', { spec: { template: { spec: { hostNetwork: true } } } }],
      labels(undefined, 'baseline'),
    );
    expect(hostNetwork.warnings).toEqual(['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork)']);
  });

  it('honours exemptions, the runtime class one read from the template', () => {
    const configuration: PodSecurityConfiguration = { exemptions: { namespaces: ['ops'], usernames: ['deployer'], runtimeClasses: ['kata'] } };
    expect(admitWorkload(WORKLOADS[3]!, labels(undefined, 'restricted'), { namespace: 'ops' }, configuration).auditAnnotations).toEqual({
      [`${PSA}exempt`]: 'namespace',
    });
    expect(admitWorkload(WORKLOADS[3]!, labels(undefined, 'restricted'), { userInfo: { username: 'deployer' } }, configuration).auditAnnotations).toEqual({
      [`${PSA}exempt`]: 'user',
    });
    const kata: [string, string, string, KubeObject] = [
      'apps',
      'deployments',
      'Deployment',
      { spec: { template: { spec: { ...(template.spec as JsonRecord), runtimeClassName: 'kata' } } } },
    ];
    expect(admitWorkload(kata, labels(undefined, 'restricted'), {}, configuration)).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: { [`${PSA}exempt`]: 'runtimeClass' },
    });
  });

  it('allows, with an error annotation, when the namespace cannot be found', () => {
    expect(admitWorkload(WORKLOADS[3]!, null)).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: { [`${PSA}error`]: 'failed to lookup namespace "team": namespaces "team" not found' },
    });
  });
});

describe('namespaces: label validation and the existing pods of a tightened enforce level (ValidateNamespace)', () => {
  const namespace = (name: string, nsLabels: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...nsLabels } },
  });
  const admitNamespace = (operation: 'CREATE' | 'UPDATE', object: KubeObject, oldObject: KubeObject | null, more: Partial<PodSecurityRequest> = {}) =>
    podSecurityAdmit({
      attributes: attributes({
        operation,
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: RESOURCES.namespaces,
        name: object.metadata!.name!,
        namespace: object.metadata!.name!,
        object,
        oldObject,
      }),
      namespaceLabels: null,
      ...more,
    });

  const compliant = (name: string, extra: JsonRecord = {}): JsonRecord => ({ ...restrictedPod({ metadata: { name, ...extra } }) });
  const withoutDropAll = (name: string, extra: JsonRecord = {}): JsonRecord => ({
    metadata: { name, ...extra },
    spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'i', securityContext: { allowPrivilegeEscalation: false } }],
    },
  });
  const privileged = (name: string, extra: JsonRecord = {}): JsonRecord => ({ metadata: { name, ...extra }, spec: privilegedPod.spec as JsonRecord });

  it('refuses a namespace created with an invalid label: 422 Invalid, one cause per label', () => {
    const decision = admitNamespace(
      'CREATE',
      namespace('ns', labels('bogus', undefined, undefined, { 'pod-security.kubernetes.io/enforce-version': 'v1.x' })),
      null,
    );
    expect(decision.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Namespace "ns" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "bogus": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "v1.x": must be "latest" or "v1.x"]',
      reason: 'Invalid',
      details: {
        name: 'ns',
        kind: 'Namespace',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "bogus": must be one of privileged, baseline, restricted',
            field: 'metadata.labels[pod-security.kubernetes.io/enforce]',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "v1.x": must be "latest" or "v1.x"',
            field: 'metadata.labels[pod-security.kubernetes.io/enforce-version]',
          },
        ],
      },
      code: 422,
    });
  });

  it('allows valid labels on create', () => {
    expect(admitNamespace('CREATE', namespace('ns', labels('restricted', 'restricted')), null)).toEqual({ allowed: true, warnings: [], auditAnnotations: {} });
  });

  it('refuses an update that introduces or changes invalid labels, but not one that keeps them', () => {
    const bad = namespace('ns', labels('bogus'));
    expect(admitNamespace('UPDATE', bad, namespace('ns', labels('baseline'))).status?.code).toBe(422);
    expect(admitNamespace('UPDATE', namespace('ns', labels('bogus', undefined, undefined, { team: 'a' })), bad)).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
    expect(admitNamespace('UPDATE', namespace('ns', labels('worse')), bad).status?.code).toBe(422);
  });

  it('warns about existing pods when enforce gets stricter: one line per distinct failure, first pod name, count', () => {
    const pods = [withoutDropAll('b-web'), compliant('ok'), privileged('zz-priv'), withoutDropAll('a-web'), withoutDropAll('c-web')];
    const decision = admitNamespace('UPDATE', namespace('ns', labels('restricted')), namespace('ns', labels('baseline')), { existingPods: pods });
    expect(decision).toEqual({
      allowed: true,
      warnings: [
        'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
        'a-web (and 2 other pods): unrestricted capabilities',
        'zz-priv: privileged',
      ],
      auditAnnotations: {},
    });
    const two = admitNamespace('UPDATE', namespace('ns', labels('restricted')), namespace('ns', labels('baseline')), {
      existingPods: [withoutDropAll('y'), withoutDropAll('x')],
    });
    expect(two.warnings).toEqual([
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "restricted:latest"',
      'x (and 1 other pod): unrestricted capabilities',
    ]);
  });

  it('checks pods when only the enforce version changes, but not when enforce is relaxed, unchanged or privileged', () => {
    const pods = [privileged('p')];
    const pinned = namespace('ns', labels('baseline', undefined, undefined, { 'pod-security.kubernetes.io/enforce-version': 'v1.30' }));
    expect(admitNamespace('UPDATE', namespace('ns', labels('baseline')), pinned, { existingPods: pods }).warnings).toHaveLength(2);
    expect(admitNamespace('UPDATE', namespace('ns', labels('baseline')), namespace('ns', labels('restricted')), { existingPods: pods }).warnings).toEqual([]);
    expect(
      admitNamespace('UPDATE', namespace('ns', labels('baseline', 'restricted')), namespace('ns', labels('baseline')), { existingPods: pods }).warnings,
    ).toEqual([]);
    expect(admitNamespace('UPDATE', namespace('ns', labels('privileged')), namespace('ns', {}), { existingPods: pods }).warnings).toEqual([]);
  });

  it('skips pods with an exempt runtime class, and checks one pod per controller first (at most 3000)', () => {
    const configuration: PodSecurityConfiguration = { exemptions: { runtimeClasses: ['kata'] } };
    const owned = (i: number): JsonRecord =>
      compliant(`rs-${String(i).padStart(4, '0')}`, {
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true }],
      });
    const pods = [
      ...Array.from({ length: 3000 }, (_, i) => owned(i)),
      { ...privileged('kata'), spec: { ...(privilegedPod.spec as JsonRecord), runtimeClassName: 'kata' } },
      privileged('standalone'),
    ];
    const decision = admitNamespace('UPDATE', namespace('ns', labels('baseline')), namespace('ns', {}), { existingPods: pods, configuration });
    expect(decision.warnings).toEqual([
      'new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods',
      'existing pods in namespace "ns" violate the new PodSecurity enforce level "baseline:latest"',
      'standalone: privileged',
    ]);
  });

  it("warns that an exempt namespace's labels will be ignored, listing the modes explicitly set", () => {
    const configuration: PodSecurityConfiguration = { exemptions: { namespaces: ['ops'] } };
    const nsLabels = labels('restricted', undefined, undefined, {
      'pod-security.kubernetes.io/warn-version': 'v1.30',
      'pod-security.kubernetes.io/audit': 'privileged',
    });
    const warning = 'namespace "ops" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored';
    expect(admitNamespace('CREATE', namespace('ops', nsLabels), null, { configuration }).warnings).toEqual([warning]);
    expect(admitNamespace('UPDATE', namespace('ops', nsLabels), namespace('ops', {}), { configuration, existingPods: [privileged('p')] }).warnings).toEqual([
      warning,
    ]);
    expect(admitNamespace('CREATE', namespace('ops', labels('baseline', 'restricted')), null, { configuration }).warnings).toEqual([
      'namespace "ops" is exempt from Pod Security, and the policy (enforce=baseline:latest, warn=restricted:latest) will be ignored',
    ]);
    // Labels equivalent to the defaults, or fully privileged, say nothing.
    expect(admitNamespace('CREATE', namespace('ops', labels('privileged')), null, { configuration }).warnings).toEqual([]);
  });

  it('ignores namespace subresources', () => {
    expect(
      podSecurityAdmit({
        attributes: attributes({
          operation: 'UPDATE',
          resource: RESOURCES.namespaces,
          subResource: 'finalize',
          object: namespace('ns', labels('bogus')),
          oldObject: namespace('ns', {}),
        }),
        namespaceLabels: null,
      }),
    ).toEqual({
      allowed: true,
      warnings: [],
      auditAnnotations: {},
    });
  });
});
