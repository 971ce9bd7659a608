import type { AuditAnnotations } from '../dispatch/annotations';
import type { AdmitResult } from '../dispatch/result';
import type { AdmissionTrace } from '../dispatch/trace';
import type { WarningRecorder } from '../kube/warning-recorder';
import type { KubeObject, Status } from '../kube/admission';
import type { WriteRecord } from '../mockapi/write-log';

/** What a client sees of a request the chain (or one policy of it) judged: the one shape of h.admit and policy.evaluate. */
export function admitResult(
  judged: { object: KubeObject | null; rejection: Status | undefined; exempt?: string | undefined; writes?: WriteRecord[] | undefined },
  records: { warnings: WarningRecorder; annotations: AuditAnnotations; trace: AdmissionTrace; seed: number },
): AdmitResult {
  const { warnings, annotations, trace, seed } = records;
  return {
    allowed: !judged.rejection,
    object: judged.object,
    ...(judged.rejection ? { status: judged.rejection } : {}),
    warnings: warnings.texts(),
    warningHeaders: warnings.headers,
    auditAnnotations: annotations.values,
    dropped: { warnings: warnings.dropped, auditAnnotations: annotations.dropped },
    ...(judged.exempt ? { exempt: judged.exempt } : {}),
    ...(judged.writes ? { writes: judged.writes } : {}),
    trace,
    seed,
  };
}
