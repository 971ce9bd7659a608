/** A Backup as JSON: apiVersion, kind, metadata and a spec of either version. */
export type Backup = { apiVersion: string; kind: string; metadata?: Record<string, unknown>; spec?: Record<string, unknown> } & Record<string, unknown>;

const GROUP = 'example.com';

type V1Spec = { bucket?: string; retentionDays?: number };
type V2Spec = { target?: { bucket?: string }; retention?: { days?: number } };

function toV2(spec: V1Spec): V2Spec {
  const { bucket, retentionDays, ...rest } = spec;
  return { ...rest, ...(bucket !== undefined ? { target: { bucket } } : {}), ...(retentionDays !== undefined ? { retention: { days: retentionDays } } : {}) };
}

function toV1(spec: V2Spec): V1Spec {
  const { target, retention, ...rest } = spec;
  return {
    ...rest,
    ...(target?.bucket !== undefined ? { bucket: target.bucket } : {}),
    ...(retention?.days !== undefined ? { retentionDays: retention.days } : {}),
  };
}

/**
 * One Backup at `desiredAPIVersion`: the spec reshaped, everything else (metadata included) kept as sent,
 * since kube-apiserver refuses a changed name, namespace or uid and keeps only labels and annotations.
 */
export function convertBackup(object: Backup, desiredAPIVersion: string): Backup {
  const [group, to] = desiredAPIVersion.split('/');
  const from = object.apiVersion.split('/')[1];
  if (group !== GROUP || (to !== 'v1' && to !== 'v2')) throw new Error(`cannot convert to ${desiredAPIVersion}`);
  if (from === to) return object;
  const spec = (object.spec ?? {}) as V1Spec & V2Spec;
  return { ...object, apiVersion: desiredAPIVersion, spec: to === 'v2' ? toV2(spec) : toV1(spec) };
}
