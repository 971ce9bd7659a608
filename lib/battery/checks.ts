import { parseReply } from './backend/reply-type';
import type { CallOutcome } from '../call/call-webhook';
import type { CallingError } from '../call/calling-error';
import type { PatchedOutcome } from '../harness';
import type { ScenarioKind } from './requests';
import type { KubeObject } from '../kube/admission';
import type { JsonRecord } from '../kube/record';
import { evaluatePod, extractPodTemplate, hasPodSpec, LATEST } from '../plugins/pod-security';

/** Stable ids of the conformance checks; CI configurations and `--only` refer to them. */
export type CheckId =
  | 'tls-chain'
  | 'tls-san'
  | 'response-valid'
  | 'uid-echo'
  | 'review-version'
  | 'patch-type'
  | 'patch-applies'
  | 'patch-on-delete'
  | 'deny-status'
  | 'no-server-error'
  | 'timeout-budget'
  | 'connect-handled'
  | 'delete-handled'
  | 'subresource-handled'
  | 'idempotent-reinvocation'
  | 'idempotent-preset'
  | 'dryrun-honored'
  | 'object-valid'
  | 'pod-security'
  | 'delete-repeatable';

export interface CheckVerdict {
  pass: boolean;
  /** Why it failed (or what was skipped), in one line. */
  detail?: string;
}

/** What the checks know besides the outcome. */
export interface CheckContext {
  timeoutMs: number;
  kind: ScenarioKind;
  /** What kube-apiserver makes of an allowed mutating answer's patch (decoded, defaulted, validated), worked out once for every check. */
  applied?: PatchedOutcome;
}

export interface Check {
  id: CheckId;
  /** What the check proves, for reports. */
  title: string;
  /** undefined: the check does not apply to this outcome. */
  verify(outcome: CallOutcome, context: CheckContext): CheckVerdict | undefined;
}

// A request of this kind was answered: no calling error, no server error.
const handled =
  (kind: ScenarioKind) =>
  (o: CallOutcome, context: { kind: ScenarioKind }): CheckVerdict | undefined => {
    if (context.kind !== kind) return undefined;
    return o.error ? { pass: false, detail: o.error.message } : { pass: true };
  };

const transportText = (o: CallOutcome): string => o.error?.reason ?? '';

// The verdicts read the failure's kind, which the transport sets where it translates the error: never its text.
const refusedCertificate = (o: CallOutcome, ...why: readonly NonNullable<CallingError['certificate']>[]): CheckVerdict =>
  o.error?.certificate !== undefined && why.includes(o.error.certificate) ? { pass: false, detail: transportText(o) } : { pass: true };

/** The per-call checks, in the order a failing webhook is best diagnosed. */
export const CHECKS: readonly Check[] = [
  {
    id: 'tls-chain',
    title: 'serving certificate chains to the caBundle',
    verify: (o) => refusedCertificate(o, 'unknown-authority', 'expired'),
  },
  {
    id: 'tls-san',
    title: 'serving certificate carries the name kube-apiserver verifies',
    verify: (o) => refusedCertificate(o, 'name'),
  },
  {
    id: 'no-server-error',
    title: 'answers without a server error',
    verify: (o) =>
      o.httpStatus !== undefined && o.httpStatus >= 500 ? { pass: false, detail: `HTTP ${o.httpStatus}: ${o.error?.message ?? ''}` } : { pass: true },
  },
  {
    id: 'response-valid',
    title: 'response passes kube-apiserver’s checks',
    verify: (o) => (o.error ? { pass: false, detail: o.error.message } : { pass: true }),
  },
  {
    id: 'uid-echo',
    title: 'response.uid echoes request.uid',
    verify: (o) => {
      if (!o.response) return undefined;
      const sent = o.review.request?.uid;
      return o.response.uid === sent
        ? { pass: true }
        : { pass: false, detail: `expected ${JSON.stringify(sent)}, got ${JSON.stringify(o.response.uid ?? '')}` };
    },
  },
  {
    id: 'review-version',
    title: 'response apiVersion/kind match the request',
    verify: (o) => {
      // Only a successful reply is an AdmissionReview; error pages are no-server-error's business.
      if (o.body === undefined || o.httpStatus === undefined || o.httpStatus < 200 || o.httpStatus > 206) return undefined;
      // A body that is no object at all fails response-valid; this check reads the type fields only.
      const reply = parseReply(o.body);
      if (!reply) return undefined;
      const apiVersion = typeof reply.apiVersion === 'string' ? reply.apiVersion : '';
      const kind = typeof reply.kind === 'string' ? reply.kind : '';
      const ok = apiVersion === o.review.apiVersion && kind === 'AdmissionReview';
      return ok
        ? { pass: true }
        : { pass: false, detail: `expected ${o.review.apiVersion} AdmissionReview, got ${apiVersion || '(no apiVersion)'} ${kind || '(no kind)'}` };
    },
  },
  {
    id: 'patch-type',
    title: 'patches only from mutating webhooks, as base64 JSONPatch',
    verify: (o) => {
      if (!o.response) return undefined;
      const { patch, patchType } = o.response;
      if (o.type === 'validating') return patch || patchType ? { pass: false, detail: 'a validating webhook returned a patch' } : { pass: true };
      if (!patch && !patchType) return { pass: true };
      return patchType === 'JSONPatch' && o.patch !== undefined
        ? { pass: true }
        : { pass: false, detail: o.error?.message ?? `patchType ${JSON.stringify(patchType)}` };
    },
  },
  {
    id: 'patch-applies',
    title: 'the patch applies to the object as kube-apiserver applies it',
    verify: (o, { applied }) => {
      if (!o.patch || o.patch.length === 0 || !applied || !o.review.request?.object) return undefined;
      return applied.ok ? { pass: true } : { pass: false, detail: applied.status.message ?? '' };
    },
  },
  {
    id: 'patch-on-delete',
    title: 'no patch on DELETE (nothing to patch) or CONNECT (it would rewrite the connect options)',
    verify: (o, { kind }) => {
      if ((kind !== 'delete' && kind !== 'connect') || o.error || o.type !== 'mutating') return undefined;
      if (!o.patch || o.patch.length === 0) return { pass: true };
      const object = o.review.request?.object;
      return kind === 'delete'
        ? { pass: false, detail: `admission webhook "${o.webhook}" attempted to modify the object, which is not supported for this operation` }
        : {
            pass: false,
            detail: `a patch on CONNECT rewrites the ${String(object?.kind ?? 'connect options')} (e.g. the exec command), which kube-apiserver applies: ${JSON.stringify(o.patch)}`,
          };
    },
  },
  { id: 'connect-handled', title: 'CONNECT requests (exec, attach, port-forward, proxy) get a valid answer', verify: handled('connect') },
  { id: 'delete-handled', title: 'DELETE requests (object null, oldObject set) get a valid answer', verify: handled('delete') },
  { id: 'subresource-handled', title: 'subresource requests (status, scale, eviction, …) get a valid answer', verify: handled('subresource') },
  {
    id: 'deny-status',
    title: 'denials carry a code ≥ 400 and a message',
    verify: (o) => {
      if (o.response?.allowed !== false) return undefined;
      const status = o.response.status;
      if (!status?.message) return { pass: false, detail: 'denied without status.message: users see "denied the request without explanation"' };
      if (status.code !== undefined && status.code < 400) return { pass: false, detail: `status.code ${status.code} (kube-apiserver turns it into 400)` };
      return { pass: true };
    },
  },
  {
    id: 'timeout-budget',
    title: 'answers within timeoutSeconds',
    verify: (o, { timeoutMs }) =>
      o.error?.transport === 'deadline'
        ? { pass: false, detail: transportText(o) }
        : o.durationMs <= timeoutMs
          ? { pass: true }
          : { pass: false, detail: `took ${o.durationMs.toFixed(0)} ms of a ${timeoutMs} ms budget` },
  },
  {
    id: 'pod-security',
    title: 'a pod within the restricted Pod Security Standard is still within it after the webhook’s patch',
    verify: (o, context) => {
      if (!context.applied?.ok || !context.applied.object || !o.patch || o.patch.length === 0) return undefined;
      const request = o.review.request;
      const before = request && podTemplateOf(request.resource, request.object);
      const after = request && podTemplateOf(request.resource, context.applied.object);
      if (!before || !after) return undefined;
      const judge = (pod: PodTemplate, level: 'baseline' | 'restricted') => evaluatePod({ level, version: LATEST }, pod.metadata, pod.spec);
      // Judged only where the request was restricted: a webhook is not asked to fix a pod, only not to break one.
      if (!judge(before, 'restricted').allowed) return undefined;
      const added = judge(after, 'restricted').failed;
      if (added.length === 0) return { pass: true };
      const passesAt = judge(after, 'baseline').allowed ? 'baseline' : 'privileged';
      return {
        pass: false,
        detail: `the request's pod was within PodSecurity "restricted:latest"; patched, it violates: ${added.map((f) => `${f.forbiddenReason} (${f.forbiddenDetail})`).join(', ')}; it passes at ${passesAt}`,
      };
    },
  },
];

type PodTemplate = { metadata: JsonRecord; spec: JsonRecord };

/** A pod's metadata and spec, or a workload's pod template (as PodSecurity reads it); undefined for other kinds. */
function podTemplateOf(resource: { group: string; resource: string }, object: KubeObject | null | undefined): PodTemplate | undefined {
  if (!object) return undefined;
  const record = object as JsonRecord;
  if (resource.group === '' && resource.resource === 'pods')
    return { metadata: (record.metadata ?? {}) as JsonRecord, spec: (record.spec ?? {}) as JsonRecord };
  return hasPodSpec(resource) ? extractPodTemplate(resource, record) : undefined;
}
