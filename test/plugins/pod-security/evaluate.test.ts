// The evaluator (policy/registry.go) and the texts built from its results (policy/checks.go,
// admission/admission.go): which checks run at a level and version, their order, and the aggregate
// `violates PodSecurity …` / `would violate PodSecurity …` texts.
import {
  createEvaluator,
  DEFAULT_CHECKS,
  DEFAULT_EVALUATOR,
  evaluatePod,
  forbidden,
  violatesMessage,
  wouldViolateMessage,
  type Check,
} from '../../../lib/plugins/pod-security';
import { evaluateAt, failures, lv, restrictedContainer, restrictedPod } from './pods';

/** Checks that fail unconditionally, to see which run and in what order. */
const alwaysFails = (id: string, level: Check['level'], minimumVersion = 0, overrides?: string[]): Check => ({
  id,
  level,
  versions: [{ minimumVersion, checkPod: () => forbidden(id, ''), ...(overrides ? { overrides } : {}) }],
});

describe('which checks run (policy/registry.go)', () => {
  it('runs nothing at privileged', () => {
    const pod = restrictedPod({ spec: { hostNetwork: true, containers: [{ name: 'x', securityContext: { privileged: true } }] } });
    expect(evaluateAt('privileged:latest', pod)).toMatchObject({ allowed: true, failed: [], forbiddenReason: '', forbiddenDetail: '' });
    expect(DEFAULT_EVALUATOR.evaluatePod(lv('privileged:v1.0'), pod.metadata, pod.spec)).toEqual([]);
  });

  it('runs the 12 baseline checks at baseline:latest, and the 7 restricted ones in place of the overridden baseline ones at restricted:latest', () => {
    const pod = restrictedPod();
    expect(DEFAULT_EVALUATOR.evaluatePod(lv('baseline:latest'), pod.metadata, pod.spec).map((r) => r.id)).toEqual([
      'appArmorProfile',
      'capabilities_baseline',
      'hostNamespaces',
      'hostPathVolumes',
      'hostPorts',
      'hostProbesAndHostLifecycle',
      'privileged',
      'procMount',
      'seLinuxOptions',
      'seccompProfile_baseline',
      'sysctls',
      'windowsHostProcess',
    ]);
    expect(DEFAULT_EVALUATOR.evaluatePod(lv('restricted:latest'), pod.metadata, pod.spec).map((r) => r.id)).toEqual([
      'appArmorProfile',
      'hostNamespaces',
      'hostPorts',
      'hostProbesAndHostLifecycle',
      'privileged',
      'seLinuxOptions',
      'sysctls',
      'windowsHostProcess',
      'allowPrivilegeEscalation',
      'capabilities_restricted',
      'procMount_restricted',
      'restrictedVolumes',
      'runAsNonRoot',
      'runAsUser',
      'seccompProfile_restricted',
    ]);
  });

  it('runs at restricted:v1.0 only the checks 1.0 had, with the baseline ones not yet overridden', () => {
    const pod = restrictedPod();
    expect(DEFAULT_EVALUATOR.evaluatePod(lv('restricted:v1.0'), pod.metadata, pod.spec).map((r) => r.id)).toEqual([
      'appArmorProfile',
      'capabilities_baseline',
      'hostNamespaces',
      'hostPorts',
      'privileged',
      'procMount',
      'seLinuxOptions',
      'seccompProfile_baseline',
      'sysctls',
      'windowsHostProcess',
      'restrictedVolumes',
      'runAsNonRoot',
    ]);
  });

  it('reads latest, v1.36 and any newer version as v1.35, the newest check revision v1.36 has', () => {
    expect(DEFAULT_EVALUATOR.maxVersion).toBe(35);
    const userns = restrictedPod({ podSecurityContext: { runAsNonRoot: undefined }, spec: { hostUsers: false } });
    for (const version of ['latest', 'v1.35', 'v1.36', 'v1.99']) expect(failures(`restricted:${version}`, userns)).toEqual([]);
    expect(failures('restricted:v1.34', userns).map(([id]) => id)).toEqual(['runAsNonRoot']);
  });

  it('lowers the newest version to an older emulated version (--emulated-version=1.33)', () => {
    const emulating = createEvaluator(DEFAULT_CHECKS, 33);
    expect(emulating.maxVersion).toBe(33);
    const pod = restrictedPod({ spec: { containers: [restrictedContainer('a', { livenessProbe: { httpGet: { host: 'h', port: 80 } } })] } });
    expect(evaluatePod(lv('baseline:latest'), pod.metadata, pod.spec, emulating).allowed).toBe(true);
    expect(evaluatePod(lv('baseline:latest'), pod.metadata, pod.spec).allowed).toBe(false);
  });

  it('orders by ID, baseline first, in Go string order (uppercase before lowercase)', () => {
    const evaluator = createEvaluator([
      alwaysFails('b', 'restricted'),
      alwaysFails('seccomp', 'baseline'),
      alwaysFails('seLinux', 'baseline'),
      alwaysFails('a', 'restricted'),
    ]);
    expect(evaluatePod(lv('restricted:latest'), {}, {}, evaluator).failed.map((f) => f.id)).toEqual(['seLinux', 'seccomp', 'a', 'b']);
  });

  it('drops a baseline check only while an overriding restricted revision is active', () => {
    const evaluator = createEvaluator([alwaysFails('base', 'baseline'), alwaysFails('strict', 'restricted', 5, ['base'])]);
    expect(evaluatePod(lv('restricted:v1.4'), {}, {}, evaluator).failed.map((f) => f.id)).toEqual(['base']);
    expect(evaluatePod(lv('restricted:v1.5'), {}, {}, evaluator).failed.map((f) => f.id)).toEqual(['strict']);
    expect(evaluatePod(lv('baseline:v1.5'), {}, {}, evaluator).failed.map((f) => f.id)).toEqual(['base']);
  });

  it('refuses check lists upstream refuses', () => {
    expect(() => createEvaluator([alwaysFails('x', 'baseline'), alwaysFails('x', 'restricted')])).toThrow('multiple checks registered for ID x');
    expect(() => createEvaluator([{ id: 'x', level: 'baseline', versions: [] }])).toThrow('check x: empty');
    const twice: Check = {
      id: 'x',
      level: 'baseline',
      versions: [
        { minimumVersion: 3, checkPod: () => forbidden('x', '') },
        { minimumVersion: 3, checkPod: () => forbidden('x', '') },
      ],
    };
    expect(() => createEvaluator([twice])).toThrow('check x: versions must be strictly increasing');
    expect(() => createEvaluator([alwaysFails('x', 'baseline', 0, ['y'])])).toThrow('check x: only restricted checks may set overrides');
    expect(() => createEvaluator([alwaysFails('y', 'restricted'), alwaysFails('x', 'restricted', 0, ['y'])])).toThrow('check x: overrides restricted check y');
  });
});

describe('the aggregate texts (checks.go, admission.go)', () => {
  it('joins reasons with their details in parentheses, a missing detail leaving the reason alone', () => {
    const evaluator = createEvaluator([
      { id: 'a', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: () => forbidden('host ports', '8080, 9090') }] },
      { id: 'b', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: () => forbidden('privileged containers', '') }] },
      { id: 'c', level: 'baseline', versions: [{ minimumVersion: 0, checkPod: () => forbidden('', 'x') }] },
    ]);
    const result = evaluatePod(lv('baseline:v1.30'), {}, {}, evaluator);
    expect(result.forbiddenReason).toBe('host ports, privileged containers, unknown forbidden reason');
    expect(result.forbiddenDetail).toBe('host ports (8080, 9090), privileged containers, unknown forbidden reason (x)');
    expect(violatesMessage(result)).toBe('violates PodSecurity "baseline:v1.30": host ports (8080, 9090), privileged containers, unknown forbidden reason (x)');
    expect(wouldViolateMessage(result)).toBe(
      'would violate PodSecurity "baseline:v1.30": host ports (8080, 9090), privileged containers, unknown forbidden reason (x)',
    );
  });

  it('reproduces a v1.32 kube-apiserver denial of a pod failing six checks, in its order', () => {
    // kubectl's output against a restricted:v1.32 namespace, as published; the 1.32 revisions are still
    // v1.36's at that pinned version.
    const pod = {
      metadata: { name: 'sysctlpod' },
      spec: {
        securityContext: {
          seLinuxOptions: { user: 'system_u', role: 'system_r' },
          sysctls: [
            { name: 'net.core.somaxconn', value: '1024' },
            { name: 'kernel.msgmax', value: '65536' },
          ],
        },
        containers: [{ name: 'my-pod', image: 'busybox' }],
      },
    };
    expect(violatesMessage(evaluateAt('restricted:v1.32', pod))).toBe(
      'violates PodSecurity "restricted:v1.32": seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: user may not be set; role may not be set), ' +
        'forbidden sysctls (net.core.somaxconn, kernel.msgmax), allowPrivilegeEscalation != false (container "my-pod" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "my-pod" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "my-pod" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "my-pod" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('quotes the level and version as the namespace labels gave them, not the version evaluated', () => {
    const pod = restrictedPod({ spec: { hostPID: true } });
    expect(violatesMessage(evaluateAt('baseline:v1.99', pod))).toBe('violates PodSecurity "baseline:v1.99": host namespaces (hostPID)');
  });
});
