import type { BackendReply } from '../../imagepolicy/backend';
import { parseReplyType } from '../backend/reply-type';

/** Stable ids of the ImagePolicyWebhook backend checks; `--only` and `--skip` take them. */
export const IMAGE_POLICY_CHECK_IDS = [
  'image-tls',
  'image-no-server-error',
  'image-review-kind',
  'image-response-valid',
  'image-deny-reason',
  'image-timeout-budget',
  'image-consistent',
] as const;
export type ImagePolicyCheckId = (typeof IMAGE_POLICY_CHECK_IDS)[number];

/** One request to the backend and its reply, as the checks read it. */
export interface ImagePolicyCall {
  reply: BackendReply;
  durationMs: number;
  /** The reply to the same ImageReview sent again. */
  again?: BackendReply;
}

export interface ImagePolicyCheckContext {
  /** The client's deadline in real milliseconds (30 s, scaled). */
  deadlineMs: number;
  /** What kube-apiserver makes of a failed call (its retries, then the refusal or defaultAllow), for the detail. */
  consequence: () => Promise<string>;
}

export interface ImagePolicyCheck {
  id: ImagePolicyCheckId;
  title: string;
  /** undefined: the check does not apply to this call. */
  verify(call: ImagePolicyCall, context: ImagePolicyCheckContext): Promise<{ pass: boolean; detail?: string } | undefined>;
}

const API_VERSION = 'imagepolicy.k8s.io/v1alpha1';
const good = (status: number | undefined) => status !== undefined && status >= 200 && status <= 206;

/** The checks of one ImageReview call, in the order a failing backend is best diagnosed. */
export const IMAGE_POLICY_CHECKS: readonly ImagePolicyCheck[] = [
  {
    id: 'image-tls',
    title: "serving certificate verifies against the kubeconfig's certificate-authority and server host",
    verify: async ({ reply }) => (reply.transport === 'tls' || reply.certificate !== undefined ? { pass: false, detail: reply.error ?? '' } : { pass: true }),
  },
  {
    id: 'image-no-server-error',
    title: 'answers without a server error (kube-apiserver retries a 5xx with backoff, then refuses or fails open)',
    verify: async ({ reply }, context) =>
      reply.httpStatus !== undefined && reply.httpStatus >= 500
        ? { pass: false, detail: `HTTP ${reply.httpStatus}; ${await context.consequence()}` }
        : { pass: true },
  },
  {
    id: 'image-review-kind',
    title: `answers an ImageReview of ${API_VERSION}`,
    verify: async ({ reply }) => {
      if (!good(reply.httpStatus) || reply.body === undefined) return undefined;
      const type = parseReplyType(reply.body);
      if (!type) return undefined;
      // kube-apiserver's decoder fills in missing ones from the type it decodes into; a wrong one fails.
      const apiVersion = type.apiVersion || API_VERSION;
      const kind = type.kind || 'ImageReview';
      return apiVersion === API_VERSION && kind === 'ImageReview'
        ? { pass: true }
        : {
            pass: false,
            detail: `expected ${API_VERSION} ImageReview, got ${type.apiVersion || '(no apiVersion)'} ${type.kind || '(no kind)'}: ${reply.error ?? ''}`,
          };
    },
  },
  {
    id: 'image-response-valid',
    title: 'the answer decodes as kube-apiserver decodes it (status.allowed a bool, reason a string)',
    verify: async ({ reply }, context) =>
      reply.error === undefined ? { pass: true } : { pass: false, detail: `${reply.error}; ${await context.consequence()}` },
  },
  {
    id: 'image-deny-reason',
    title: 'a denial says why (status.reason)',
    verify: async ({ reply }) => {
      if (!reply.status || reply.status.allowed) return undefined;
      return reply.status.reason
        ? { pass: true }
        : { pass: false, detail: 'denied without status.reason: users see only "one or more images rejected by webhook backend"' };
    },
  },
  {
    id: 'image-timeout-budget',
    title: "answers within the client's 30 s (?timeout=30s)",
    verify: async ({ reply, durationMs }, context) => {
      if (reply.transport === 'deadline') return { pass: false, detail: `${reply.error ?? ''}; ${await context.consequence()}` };
      return durationMs <= context.deadlineMs ? { pass: true } : { pass: false, detail: `took ${durationMs.toFixed(0)} ms of ${context.deadlineMs} ms` };
    },
  },
  {
    id: 'image-consistent',
    title: 'the same ImageReview gets the same answer (kube-apiserver caches it by spec for allowTTL/denyTTL)',
    verify: async ({ reply, again }) => {
      if (!reply.status || !again?.status) return undefined;
      return reply.status.allowed === again.status.allowed
        ? { pass: true }
        : {
            pass: false,
            detail: `answered allowed=${reply.status.allowed}, then allowed=${again.status.allowed}: kube-apiserver keeps the first answer for every pod with these images, annotations and namespace until its TTL ends`,
          };
    },
  },
];
