// Pods for the PodSecurity tests: one that passes restricted (so a test adds exactly the violation it
// means), and a short way to evaluate a pod at `level:version`.
import type { JsonRecord } from '../../../lib/kube/record';
import { evaluatePod, parseLevel, parseVersion, type FailedCheck, type LevelVersion, type PodEvaluation } from '../../../lib/plugins/pod-security';

export interface TestPod {
  metadata: JsonRecord;
  spec: JsonRecord;
}

/** A container that satisfies every restricted check on its own. */
export function restrictedContainer(name: string, extra: JsonRecord = {}): JsonRecord {
  const { securityContext, ...rest } = extra;
  return {
    name,
    image: 'registry.example.com/app:1.0',
    ...rest,
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, ...(securityContext as JsonRecord | undefined) },
  };
}

/** A pod passing restricted:latest; `spec` members replace the base's, `podSecurityContext` merges into it. */
export function restrictedPod(options: { metadata?: JsonRecord; spec?: JsonRecord; podSecurityContext?: JsonRecord } = {}): TestPod {
  return {
    metadata: { name: 'p', ...options.metadata },
    spec: {
      containers: [restrictedContainer('app')],
      ...options.spec,
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, ...options.podSecurityContext },
    },
  };
}

/** `restricted:latest` → LevelVersion (throws on a typo, so tests cannot pass by accident). */
export function lv(text: string): LevelVersion {
  const [level = '', version = 'latest'] = text.split(':');
  const parsedLevel = parseLevel(level);
  const parsedVersion = parseVersion(version);
  if (parsedLevel.error !== undefined || parsedVersion.error !== undefined) throw new Error(`bad level:version ${text}`);
  return { level: parsedLevel.value, version: parsedVersion.value };
}

export function evaluateAt(levelVersion: string, pod: TestPod): PodEvaluation {
  return evaluatePod(lv(levelVersion), pod.metadata, pod.spec);
}

/** The failed checks as `[id, reason, detail]`, the shape most assertions compare. */
export function failures(levelVersion: string, pod: TestPod): [string, string, string][] {
  return evaluateAt(levelVersion, pod).failed.map((f: FailedCheck) => [f.id, f.forbiddenReason, f.forbiddenDetail]);
}
