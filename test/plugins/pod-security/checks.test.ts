// Every Pod Security Standards check of pod-security-admission v1.36 (policy/check_*.go): a pod that
// passes and one that fails at each level the check runs at, the exact reason and detail upstream words,
// and the pinned versions where a check's revision changes. Expected texts follow upstream's own check
// tests (policy/check_*_test.go) where they have one.
import { restrictedContainer, restrictedPod, failures, type TestPod } from './pods';

const container = restrictedContainer;

/** The failures of a pod that only differs from restrictedPod by the check under test. */
const only = (id: string, reason: string, detail: string): [string, string, string][] => [[id, reason, detail]];

describe('appArmorProfile (baseline, 1.0)', () => {
  it('passes the runtime default and localhost profiles, by field or annotation', () => {
    const pod = restrictedPod({
      metadata: {
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/app': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/b': 'localhost/sec-profile01',
          'container.apparmor.security.beta.kubernetes.io/c': '',
          env: 'prod',
        },
      },
      podSecurityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
      spec: { containers: [container('app', { securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'x' } } })] },
    });
    expect(failures('baseline:latest', pod)).toEqual([]);
    expect(failures('restricted:latest', pod)).toEqual([]);
  });

  it('refuses an Unconfined pod profile at baseline and restricted', () => {
    const pod = restrictedPod({ podSecurityContext: { appArmorProfile: { type: 'Unconfined' } } });
    const expected = only('appArmorProfile', 'forbidden AppArmor profile', 'pod must not set AppArmor profile type to "Unconfined"');
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });

  it('names containers and annotations, the field types first (upstream "multiple containers" case)', () => {
    const pod = restrictedPod({
      metadata: {
        annotations: {
          'container.apparmor.security.beta.kubernetes.io/': 'bogus',
          'container.apparmor.security.beta.kubernetes.io/a': '',
          'container.apparmor.security.beta.kubernetes.io/b': 'runtime/default',
          'container.apparmor.security.beta.kubernetes.io/c': 'localhost/',
          'container.apparmor.security.beta.kubernetes.io/d': 'localhost/foo',
          'container.apparmor.security.beta.kubernetes.io/e': 'unconfined',
          'container.apparmor.security.beta.kubernetes.io/f': 'unknown',
        },
      },
      spec: { initContainers: [container('bar', { securityContext: { appArmorProfile: { type: 'Unconfined' } } })] },
    });
    expect(failures('baseline:latest', pod)).toEqual(
      only(
        'appArmorProfile',
        'forbidden AppArmor profiles',
        'container "bar" and annotations must not set AppArmor profile type to "Unconfined", ' +
          '"container.apparmor.security.beta.kubernetes.io/="bogus"", "container.apparmor.security.beta.kubernetes.io/e="unconfined"", "container.apparmor.security.beta.kubernetes.io/f="unknown""',
      ),
    );
  });

  it('checks the fields even at a version pinned before they existed (the 1.0 revision was amended)', () => {
    const pod = restrictedPod({ spec: { containers: [container('foo', { securityContext: { appArmorProfile: { type: 'Unconfined' } } })] } });
    expect(failures('baseline:v1.0', pod)).toEqual(
      only('appArmorProfile', 'forbidden AppArmor profile', 'container "foo" must not set AppArmor profile type to "Unconfined"'),
    );
  });
});

describe('capabilities_baseline (baseline, 1.0)', () => {
  const adding = (a: string[], b: string[]): TestPod =>
    restrictedPod({
      spec: {
        containers: [
          container('a', { securityContext: { capabilities: { drop: ['ALL'], add: a } } }),
          container('b', { securityContext: { capabilities: { drop: ['ALL'], add: b } } }),
        ],
      },
    });

  it('passes capabilities from the default set', () => {
    expect(failures('baseline:latest', adding(['NET_BIND_SERVICE', 'CHOWN'], ['KILL']))).toEqual([]);
  });

  it('refuses capabilities beyond the default set, listed sorted', () => {
    expect(failures('baseline:latest', adding(['NET_RAW'], ['SYS_ADMIN', 'CHOWN', 'NET_RAW']))).toEqual(
      only(
        'capabilities_baseline',
        'non-default capabilities',
        'containers "a", "b" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add',
      ),
    );
  });

  it('runs at restricted before capabilities_restricted existed (v1.21), and is overridden by it from v1.22', () => {
    const pod = adding(['NET_RAW'], []);
    expect(failures('restricted:v1.21', pod)).toEqual(
      only('capabilities_baseline', 'non-default capabilities', 'container "a" must not include "NET_RAW" in securityContext.capabilities.add'),
    );
    expect(failures('restricted:v1.22', pod)).toEqual(
      only('capabilities_restricted', 'unrestricted capabilities', 'container "a" must not include "NET_RAW" in securityContext.capabilities.add'),
    );
  });
});

describe('hostNamespaces (baseline, 1.0)', () => {
  it('passes explicit false', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { hostNetwork: false, hostPID: false, hostIPC: false } }))).toEqual([]);
  });

  it('refuses each host namespace, sorted', () => {
    const pod = restrictedPod({ spec: { hostNetwork: true, hostPID: true, hostIPC: true } });
    const expected = only('hostNamespaces', 'host namespaces', 'hostIPC, hostNetwork, hostPID');
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });
});

describe('hostPathVolumes (baseline, 1.0)', () => {
  const pod = restrictedPod({
    spec: {
      volumes: [
        { name: 'a', hostPath: { path: '/a' } },
        { name: 'c', configMap: { name: 'c' } },
        { name: 'b', hostPath: { path: '/b' } },
      ],
    },
  });

  it('passes other volume types', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }] } }))).toEqual([]);
  });

  it('refuses hostPath volumes at baseline', () => {
    expect(failures('baseline:latest', pod)).toEqual(only('hostPathVolumes', 'hostPath volumes', 'volumes "a", "b"'));
  });

  it('is overridden by restrictedVolumes at restricted, at every version', () => {
    const expected = only('restrictedVolumes', 'restricted volume types', 'volumes "a", "b" use restricted volume type "hostPath"');
    expect(failures('restricted:latest', pod)).toEqual(expected);
    expect(failures('restricted:v1.0', pod)).toEqual(expected);
  });
});

describe('hostPorts (baseline, 1.0)', () => {
  it('passes hostPort 0 and unset', () => {
    expect(
      failures(
        'baseline:latest',
        restrictedPod({ spec: { containers: [container('a', { ports: [{ containerPort: 80, hostPort: 0 }, { containerPort: 81 }] })] } }),
      ),
    ).toEqual([]);
  });

  it('refuses host ports, as a string set (upstream case)', () => {
    const pod = restrictedPod({
      spec: {
        containers: [
          container('a', { ports: [{ hostPort: 0 }] }),
          container('b', { ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 20 }] }),
          container('c', { ports: [{ hostPort: 0 }, { hostPort: 10 }, { hostPort: 30 }] }),
        ],
      },
    });
    expect(failures('baseline:latest', pod)).toEqual(only('hostPorts', 'hostPort', 'containers "b", "c" use hostPorts 10, 20, 30'));
    expect(failures('restricted:latest', pod)).toEqual(only('hostPorts', 'hostPort', 'containers "b", "c" use hostPorts 10, 20, 30'));
  });

  it('words one container and one port in the singular, and sorts ports as strings', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { containers: [container('a', { ports: [{ hostPort: 8080 }] })] } }))).toEqual(
      only('hostPorts', 'hostPort', 'container "a" uses hostPort 8080'),
    );
    expect(failures('baseline:latest', restrictedPod({ spec: { containers: [container('a', { ports: [{ hostPort: 9 }, { hostPort: 10 }] })] } }))).toEqual(
      only('hostPorts', 'hostPort', 'container "a" uses hostPorts 10, 9'),
    );
  });
});

describe('hostProbesAndHostLifecycle (baseline, from 1.34)', () => {
  const pod = restrictedPod({
    spec: {
      containers: [
        container('b', { livenessProbe: { httpGet: { host: 'h2', port: 80 } }, lifecycle: { preStop: { tcpSocket: { host: 'h2', port: 80 } } } }),
        container('a', { startupProbe: { tcpSocket: { host: 'h1', port: 80 } } }),
      ],
    },
  });

  it('passes probes and handlers without a host', () => {
    const clean = restrictedPod({
      spec: { containers: [container('a', { readinessProbe: { httpGet: { port: 80, host: '' } }, lifecycle: { postStart: { httpGet: { port: 80 } } } })] },
    });
    expect(failures('baseline:latest', clean)).toEqual([]);
  });

  it('refuses a host, containers and hosts both as sorted sets', () => {
    const expected = only('hostProbesAndHostLifecycle', 'probe or lifecycle host', 'containers "a", "b" use probe or lifecycle hosts "h1", "h2"');
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });

  it('words one container and one host in the singular', () => {
    const one = restrictedPod({ spec: { initContainers: [container('i', { lifecycle: { postStart: { httpGet: { host: 'evil', port: 80 } } } })] } });
    expect(failures('baseline:latest', one)).toEqual(
      only('hostProbesAndHostLifecycle', 'probe or lifecycle host', 'container "i" uses probe or lifecycle host "evil"'),
    );
  });

  it('does not run at a version pinned before v1.34', () => {
    expect(failures('baseline:v1.33', pod)).toEqual([]);
    expect(failures('baseline:v1.34', pod)).toHaveLength(1);
  });
});

describe('privileged (baseline, 1.0)', () => {
  it('passes privileged: false', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { containers: [container('a', { securityContext: { privileged: false } })] } }))).toEqual([]);
  });

  it('refuses privileged containers, ephemeral ones included', () => {
    const pod = restrictedPod({
      spec: {
        initContainers: [container('i', { securityContext: { privileged: true } })],
        ephemeralContainers: [container('debug', { securityContext: { privileged: true } })],
      },
    });
    const expected = only('privileged', 'privileged', 'containers "i", "debug" must not set securityContext.privileged=true');
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });
});

describe('procMount (baseline; relaxed for user namespaces from 1.35) and procMount_restricted (restricted, from 1.35)', () => {
  const pod = (hostUsers?: boolean): TestPod =>
    restrictedPod({
      spec: {
        ...(hostUsers === undefined ? {} : { hostUsers }),
        containers: [
          container('a'),
          container('b', { securityContext: {} }),
          container('c', { securityContext: { procMount: 'Default' } }),
          container('d', { securityContext: { procMount: 'Unmasked' } }),
          container('e', { securityContext: { procMount: 'other' } }),
        ],
      },
    });
  const detail = 'containers "d", "e" must not set securityContext.procMount to "Unmasked", "other"';

  it('passes Default and unset', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { containers: [container('c', { securityContext: { procMount: 'Default' } })] } }))).toEqual([]);
  });

  it('refuses other values at baseline, and once (not twice) at restricted', () => {
    expect(failures('baseline:latest', pod(true))).toEqual(only('procMount', 'procMount', detail));
    expect(failures('restricted:latest', pod(true))).toEqual(only('procMount_restricted', 'procMount', detail));
    expect(failures('restricted:v1.34', pod(true))).toEqual(only('procMount', 'procMount', detail));
  });

  it('allows any value for a user-namespace pod at baseline from v1.35 only', () => {
    expect(failures('baseline:latest', pod(false))).toEqual([]);
    expect(failures('baseline:v1.35', pod(false))).toEqual([]);
    expect(failures('baseline:v1.34', pod(false))).toEqual(only('procMount', 'procMount', detail));
  });

  it('keeps restricted strict for a user-namespace pod', () => {
    expect(failures('restricted:latest', pod(false))).toEqual(only('procMount_restricted', 'procMount', detail));
  });
});

describe('seLinuxOptions (baseline; container_engine_t from 1.31)', () => {
  it('passes the allowed types', () => {
    const pod = restrictedPod({
      podSecurityContext: { seLinuxOptions: { type: 'container_t', level: 's0:c123,c456' } },
      spec: {
        containers: [
          container('a', { securityContext: { seLinuxOptions: { type: 'container_init_t' } } }),
          container('b', { securityContext: { seLinuxOptions: { type: 'container_kvm_t' } } }),
        ],
      },
    });
    expect(failures('baseline:latest', pod)).toEqual([]);
  });

  it('refuses bad types, users and roles (upstream "invalid pod and containers" case)', () => {
    const pod = restrictedPod({
      podSecurityContext: { seLinuxOptions: { type: 'foo', user: 'bar', role: 'baz' } },
      spec: {
        containers: [
          container('a', { securityContext: { seLinuxOptions: { type: 'container_t' } } }),
          container('d', { securityContext: { seLinuxOptions: { type: 'bar' } } }),
          container('e', { securityContext: { seLinuxOptions: { user: 'bar' } } }),
          container('f', { securityContext: { seLinuxOptions: { role: 'baz' } } }),
        ],
      },
    });
    const expected = only(
      'seLinuxOptions',
      'seLinuxOptions',
      'pod and containers "d", "e", "f" set forbidden securityContext.seLinuxOptions: types "bar", "foo"; user may not be set; role may not be set',
    );
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });

  it('reports a user alone without a type', () => {
    expect(failures('baseline:latest', restrictedPod({ podSecurityContext: { seLinuxOptions: { user: 'bad' } } }))).toEqual(
      only('seLinuxOptions', 'seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: user may not be set'),
    );
  });

  it('allows container_engine_t from v1.31 on', () => {
    const pod = restrictedPod({ podSecurityContext: { seLinuxOptions: { type: 'container_engine_t' } } });
    expect(failures('baseline:v1.31', pod)).toEqual([]);
    expect(failures('baseline:v1.30', pod)).toEqual(
      only('seLinuxOptions', 'seLinuxOptions', 'pod set forbidden securityContext.seLinuxOptions: type "container_engine_t"'),
    );
  });
});

describe('seccompProfile_baseline (baseline; annotations before 1.19, fields from 1.19)', () => {
  it('passes RuntimeDefault, Localhost and unset', () => {
    const pod = restrictedPod({
      podSecurityContext: { seccompProfile: undefined },
      spec: { containers: [container('a', { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'p.json' } } }), container('b')] },
    });
    expect(failures('baseline:latest', pod)).toEqual([]);
  });

  it('refuses an Unconfined field from v1.19', () => {
    const pod = restrictedPod({
      podSecurityContext: { seccompProfile: { type: 'Unconfined' } },
      spec: { containers: [container('c', { securityContext: { seccompProfile: { type: 'Unconfined' } } })] },
    });
    expect(failures('baseline:v1.19', pod)).toEqual(
      only('seccompProfile_baseline', 'seccompProfile', 'pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined"'),
    );
    expect(failures('baseline:v1.18', pod)).toEqual([]);
  });

  it('refuses the alpha annotations before v1.19 only', () => {
    const pod = restrictedPod({
      metadata: {
        annotations: {
          'seccomp.security.alpha.kubernetes.io/pod': 'unconfined',
          'container.seccomp.security.alpha.kubernetes.io/app': 'docker/default',
          'container.seccomp.security.alpha.kubernetes.io/x': 'unconfined',
        },
      },
    });
    expect(failures('baseline:v1.18', pod)).toEqual(
      only('seccompProfile_baseline', 'seccompProfile', 'forbidden annotation seccomp.security.alpha.kubernetes.io/pod="unconfined"'),
    );
    // At restricted the baseline revision runs until seccompProfile_restricted takes over at 1.19.
    expect(failures('restricted:v1.18', pod).map(([id]) => id)).toEqual(['seccompProfile_baseline']);
    expect(failures('baseline:v1.19', pod)).toEqual([]);
  });
});

describe('sysctls (baseline; allowed set grows at 1.27, 1.29, 1.32)', () => {
  const withSysctls = (...names: string[]): TestPod => restrictedPod({ podSecurityContext: { sysctls: names.map((name) => ({ name, value: '1' })) } });

  it('passes the safe sysctls', () => {
    expect(
      failures(
        'baseline:latest',
        withSysctls(
          'kernel.shm_rmid_forced',
          'net.ipv4.ip_local_port_range',
          'net.ipv4.tcp_syncookies',
          'net.ipv4.ping_group_range',
          'net.ipv4.ip_unprivileged_port_start',
        ),
      ),
    ).toEqual([]);
  });

  it("refuses others, in the pod's order", () => {
    const expected = only('sysctls', 'forbidden sysctls', 'net.core.somaxconn, kernel.msgmax');
    expect(failures('baseline:latest', withSysctls('net.core.somaxconn', 'kernel.msgmax'))).toEqual(expected);
    expect(failures('restricted:latest', withSysctls('net.core.somaxconn', 'kernel.msgmax'))).toEqual(expected);
  });

  it.each([
    ['net.ipv4.ip_local_reserved_ports', 27],
    ['net.ipv4.tcp_keepalive_time', 29],
    ['net.ipv4.tcp_fin_timeout', 29],
    ['net.ipv4.tcp_keepalive_intvl', 29],
    ['net.ipv4.tcp_keepalive_probes', 29],
    ['net.ipv4.tcp_rmem', 32],
    ['net.ipv4.tcp_wmem', 32],
  ])('%s is allowed from v1.%i', (name, minor) => {
    expect(failures(`baseline:v1.${minor}`, withSysctls(name))).toEqual([]);
    expect(failures(`baseline:v1.${minor - 1}`, withSysctls(name))).toEqual(only('sysctls', 'forbidden sysctls', name));
  });

  it('does not allow sysctls added after v1.36 (net.ipv4.tcp_slow_start_after_idle is 1.37)', () => {
    expect(failures('baseline:latest', withSysctls('net.ipv4.tcp_slow_start_after_idle'))).toEqual(
      only('sysctls', 'forbidden sysctls', 'net.ipv4.tcp_slow_start_after_idle'),
    );
  });
});

describe('windowsHostProcess (baseline, 1.0)', () => {
  it('passes hostProcess: false', () => {
    expect(failures('baseline:latest', restrictedPod({ podSecurityContext: { windowsOptions: { hostProcess: false } } }))).toEqual([]);
  });

  it('refuses the pod and containers setting it, the pod first', () => {
    const pod = restrictedPod({
      podSecurityContext: { windowsOptions: { hostProcess: true } },
      spec: {
        containers: [
          container('a', { securityContext: { windowsOptions: { hostProcess: true } } }),
          container('b', { securityContext: { windowsOptions: { hostProcess: true } } }),
        ],
      },
    });
    const expected = only('windowsHostProcess', 'hostProcess', 'pod and containers "a", "b" must not set securityContext.windowsOptions.hostProcess=true');
    expect(failures('baseline:latest', pod)).toEqual(expected);
    expect(failures('restricted:latest', pod)).toEqual(expected);
  });
});

describe('allowPrivilegeEscalation (restricted; from 1.8, Windows pods exempt from 1.25)', () => {
  const pod = restrictedPod({
    spec: {
      containers: [
        { name: 'a', image: 'i', securityContext: { capabilities: { drop: ['ALL'] } } },
        { name: 'b', image: 'i', securityContext: { allowPrivilegeEscalation: null, capabilities: { drop: ['ALL'] } } },
        container('c', { securityContext: { allowPrivilegeEscalation: true } }),
        container('d'),
      ],
    },
  });

  it('is not a baseline check', () => {
    expect(failures('baseline:latest', pod)).toEqual([]);
  });

  it('refuses unset, null and true (upstream "multiple containers" case)', () => {
    expect(failures('restricted:latest', pod)).toEqual(
      only('allowPrivilegeEscalation', 'allowPrivilegeEscalation != false', 'containers "a", "b", "c" must set securityContext.allowPrivilegeEscalation=false'),
    );
  });

  it('does not run before v1.8', () => {
    expect(failures('restricted:v1.7', pod).map(([id]) => id)).not.toContain('allowPrivilegeEscalation');
  });

  it('exempts a Windows pod from v1.25, not before', () => {
    const windows = restrictedPod({
      spec: { os: { name: 'windows' }, containers: [{ name: 'a', image: 'i', securityContext: { capabilities: { drop: ['ALL'] } } }] },
    });
    expect(failures('restricted:latest', windows)).toEqual([]);
    expect(failures('restricted:v1.24', windows)).toEqual(
      only('allowPrivilegeEscalation', 'allowPrivilegeEscalation != false', 'container "a" must set securityContext.allowPrivilegeEscalation=false'),
    );
  });
});

describe('capabilities_restricted (restricted; from 1.22, Windows pods exempt from 1.25)', () => {
  it('passes drop ALL with NET_BIND_SERVICE added', () => {
    expect(
      failures(
        'restricted:latest',
        restrictedPod({ spec: { containers: [container('a', { securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } })] } }),
      ),
    ).toEqual([]);
  });

  it('is not a baseline check', () => {
    expect(
      failures('baseline:latest', restrictedPod({ spec: { containers: [{ name: 'a', image: 'i', securityContext: { allowPrivilegeEscalation: false } }] } })),
    ).toEqual([]);
  });

  it('refuses a missing drop ALL and forbidden adds, joined by "; "', () => {
    const pod = restrictedPod({
      spec: {
        containers: [
          { name: 'a', image: 'i', securityContext: { allowPrivilegeEscalation: false } },
          container('b', { securityContext: { capabilities: { drop: ['NET_RAW'] } } }),
          container('c', { securityContext: { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN', 'CHOWN'] } } }),
        ],
      },
    });
    expect(failures('restricted:latest', pod)).toEqual(
      only(
        'capabilities_restricted',
        'unrestricted capabilities',
        'containers "a", "b" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN", "SYS_ADMIN" in securityContext.capabilities.add',
      ),
    );
  });

  it('exempts a Windows pod from v1.25, and does not run before v1.22', () => {
    const windows = restrictedPod({
      spec: { os: { name: 'windows' }, containers: [{ name: 'a', image: 'i', securityContext: { allowPrivilegeEscalation: false } }] },
    });
    expect(failures('restricted:v1.25', windows)).toEqual([]);
    expect(failures('restricted:v1.24', windows).map(([id]) => id)).toEqual(['capabilities_restricted']);
    expect(failures('restricted:v1.21', windows)).toEqual([]);
  });
});

describe('restrictedVolumes (restricted, 1.0)', () => {
  it('passes the allowed inline sources, image included', () => {
    const volumes = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'].map((source) => ({
      name: source,
      [source]: {},
    }));
    expect(failures('restricted:latest', restrictedPod({ spec: { volumes } }))).toEqual([]);
    expect(failures('restricted:v1.25', restrictedPod({ spec: { volumes } }))).toEqual([]);
  });

  it('is not a baseline check (except hostPath, which hostPathVolumes covers)', () => {
    expect(failures('baseline:latest', restrictedPod({ spec: { volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }] } }))).toEqual([]);
  });

  it('refuses other sources, naming each volume and the sorted types (unknown for none)', () => {
    const pod = restrictedPod({
      spec: {
        volumes: [
          { name: 'c', nfs: { server: 's', path: '/' } },
          { name: 'a', hostPath: { path: '/' } },
          { name: 'ok', emptyDir: {} },
          { name: 'b' },
          { name: 'd', gitRepo: { repository: 'r' } },
        ],
      },
    });
    expect(failures('restricted:latest', pod)).toEqual(
      only('restrictedVolumes', 'restricted volume types', 'volumes "c", "a", "b", "d" use restricted volume types "gitRepo", "hostPath", "nfs", "unknown"'),
    );
  });

  it('words one volume in the singular', () => {
    expect(failures('restricted:latest', restrictedPod({ spec: { volumes: [{ name: 'x', cephfs: { monitors: ['m'] } }] } }))).toEqual(
      only('restrictedVolumes', 'restricted volume types', 'volume "x" uses restricted volume type "cephfs"'),
    );
  });
});

describe('runAsNonRoot (restricted; user-namespace pods exempt from 1.35)', () => {
  it('passes pod-level true, or true on every container', () => {
    expect(failures('restricted:latest', restrictedPod())).toEqual([]);
    expect(
      failures(
        'restricted:latest',
        restrictedPod({ podSecurityContext: { runAsNonRoot: undefined }, spec: { containers: [container('a', { securityContext: { runAsNonRoot: true } })] } }),
      ),
    ).toEqual([]);
  });

  it('is not a baseline check', () => {
    expect(failures('baseline:latest', restrictedPod({ podSecurityContext: { runAsNonRoot: false } }))).toEqual([]);
  });

  it('refuses an explicit false first, naming the pod and the containers', () => {
    const pod = restrictedPod({
      podSecurityContext: { runAsNonRoot: false },
      spec: { containers: [container('a'), container('b', { securityContext: { runAsNonRoot: false } })] },
    });
    expect(failures('restricted:latest', pod)).toEqual(
      only('runAsNonRoot', 'runAsNonRoot != true', 'pod and container "b" must not set securityContext.runAsNonRoot=false'),
    );
  });

  it('refuses containers left unset without a pod-level true', () => {
    const pod = restrictedPod({
      podSecurityContext: { runAsNonRoot: undefined },
      spec: { containers: [container('a'), container('b', { securityContext: { runAsNonRoot: true } }), container('c')] },
    });
    expect(failures('restricted:latest', pod)).toEqual(
      only('runAsNonRoot', 'runAsNonRoot != true', 'pod or containers "a", "c" must set securityContext.runAsNonRoot=true'),
    );
  });

  it('exempts a user-namespace pod from v1.35, not before', () => {
    const pod = restrictedPod({ podSecurityContext: { runAsNonRoot: undefined }, spec: { hostUsers: false } });
    expect(failures('restricted:latest', pod)).toEqual([]);
    expect(failures('restricted:v1.34', pod)).toEqual(
      only('runAsNonRoot', 'runAsNonRoot != true', 'pod or container "app" must set securityContext.runAsNonRoot=true'),
    );
  });
});

describe('runAsUser (restricted; from 1.23, user-namespace pods exempt from 1.35)', () => {
  const root = restrictedPod({
    podSecurityContext: { runAsUser: 0 },
    spec: { containers: [container('a', { securityContext: { runAsUser: 0 } }), container('b', { securityContext: { runAsUser: 1000 } })] },
  });

  it('passes non-zero and unset', () => {
    expect(failures('restricted:latest', restrictedPod({ podSecurityContext: { runAsUser: 1000 } }))).toEqual([]);
  });

  it('is not a baseline check', () => {
    expect(failures('baseline:latest', root)).toEqual([]);
  });

  it('refuses runAsUser: 0 on the pod and containers', () => {
    expect(failures('restricted:latest', root)).toEqual(only('runAsUser', 'runAsUser=0', 'pod and container "a" must not set runAsUser=0'));
  });

  it('does not run before v1.23', () => {
    expect(failures('restricted:v1.22', root)).toEqual([]);
  });

  it('exempts a user-namespace pod from v1.35, not before', () => {
    const userns = { ...root, spec: { ...root.spec, hostUsers: false } };
    expect(failures('restricted:latest', userns)).toEqual([]);
    expect(failures('restricted:v1.34', userns)).toEqual(only('runAsUser', 'runAsUser=0', 'pod and container "a" must not set runAsUser=0'));
  });
});

describe('seccompProfile_restricted (restricted; from 1.19, Windows pods exempt from 1.25)', () => {
  const unset = restrictedPod({
    podSecurityContext: { seccompProfile: undefined },
    spec: {
      containers: [
        container('a'),
        container('b', { securityContext: {} }),
        container('d', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }),
      ],
    },
  });

  it('passes a pod-level profile, or one on every container', () => {
    expect(failures('restricted:latest', restrictedPod())).toEqual([]);
    expect(
      failures(
        'restricted:latest',
        restrictedPod({
          podSecurityContext: { seccompProfile: undefined },
          spec: { containers: [container('a', { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'x' } } })] },
        }),
      ),
    ).toEqual([]);
  });

  it('is not required at baseline', () => {
    expect(failures('baseline:latest', unset)).toEqual([]);
  });

  it('refuses containers without a profile when the pod has none (upstream "fallthrough" case)', () => {
    expect(failures('restricted:latest', unset)).toEqual(
      only(
        'seccompProfile_restricted',
        'seccompProfile',
        'pod or containers "a", "b" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
      ),
    );
  });

  it('refuses an explicit bad type, overriding the baseline check', () => {
    const pod = restrictedPod({
      spec: {
        containers: [
          container('c', { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
          container('d', { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
        ],
      },
    });
    expect(failures('restricted:latest', pod)).toEqual(
      only('seccompProfile_restricted', 'seccompProfile', 'containers "c", "d" must not set securityContext.seccompProfile.type to "Unconfined"'),
    );
  });

  it('exempts a Windows pod from v1.25, and does not run before v1.19', () => {
    const windows = { ...unset, spec: { ...unset.spec, os: { name: 'windows' } } };
    expect(failures('restricted:v1.25', windows)).toEqual([]);
    expect(failures('restricted:v1.24', windows).map(([id]) => id)).toEqual(['seccompProfile_restricted']);
    expect(failures('restricted:v1.18', unset)).toEqual([]);
  });
});
