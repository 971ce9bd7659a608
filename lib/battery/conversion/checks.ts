import type { ConversionError, ConversionReview } from '../../conversion';
import { diffJson, formatChanges } from '../../diff/json-diff';
import type { KubeObject } from '../../kube/admission';
import { parseReplyType } from '../backend/reply-type';

/** Stable ids of the conversion webhook checks; `--only` and `--skip` take them. */
export const CONVERSION_CHECK_IDS = [
  'conversion-tls',
  'conversion-no-server-error',
  'conversion-review-kind',
  'conversion-uid-echo',
  'conversion-response-valid',
  'conversion-api-version',
  'conversion-metadata',
  'conversion-round-trip',
  'conversion-list',
  'conversion-timeout-budget',
] as const;
export type ConversionCheckId = (typeof CONVERSION_CHECK_IDS)[number];

/** One ConversionReview of a scenario: what was sent and answered, and kube's verdict on it. */
export interface ConversionLeg {
  url: string;
  review?: ConversionReview;
  httpStatus?: number;
  reply?: string;
  transport?: string;
  certificate?: string;
  error?: ConversionError;
  durationMs: number;
}

export interface ConversionCheckInput {
  type: 'round-trip' | 'list';
  legs: ConversionLeg[];
  /** A round trip whose legs both converted: the object sent and the one that came back. */
  sent?: KubeObject;
  back?: KubeObject;
  /** kube-apiserver's conversion deadline (30 s), in real milliseconds. */
  deadlineMs: number;
}

type Verdict = { pass: boolean; detail?: string } | undefined;

export interface ConversionBatteryCheck {
  id: ConversionCheckId;
  title: string;
  verify(input: ConversionCheckInput): Verdict;
}

/** The first leg that failed one of kube's `checks`, as a failed verdict; a pass when an answer was checked. */
function failedCheck(input: ConversionCheckInput, checks: readonly string[]): Verdict {
  const failed = input.legs.find((leg) => leg.error && checks.includes(leg.error.check));
  if (failed?.error) return { pass: false, detail: failed.error.message };
  return input.legs.some((leg) => leg.httpStatus !== undefined) ? { pass: true } : undefined;
}

const good = (status: number | undefined) => status !== undefined && status >= 200 && status <= 206;

/** The checks of one scenario, in the order a failing webhook is best diagnosed. */
export const CONVERSION_CHECKS: readonly ConversionBatteryCheck[] = [
  {
    id: 'conversion-tls',
    title: 'serving certificate chains to the caBundle and carries the clientConfig host',
    verify: ({ legs }) => {
      const refused = legs.find((leg) => leg.transport === 'tls' || leg.certificate !== undefined);
      return refused ? { pass: false, detail: refused.error?.message ?? '' } : { pass: true };
    },
  },
  {
    id: 'conversion-no-server-error',
    title: 'answers without a server error (every read of the object fails with a 500 otherwise)',
    verify: ({ legs }) => {
      const failed = legs.find((leg) => leg.httpStatus !== undefined && leg.httpStatus >= 500);
      return failed ? { pass: false, detail: `HTTP ${failed.httpStatus}: ${failed.error?.message ?? ''}` } : { pass: true };
    },
  },
  {
    id: 'conversion-review-kind',
    title: 'answers a ConversionReview of the apiVersion sent',
    verify: ({ legs }) => {
      const answered = legs.filter((leg) => good(leg.httpStatus) && leg.reply !== undefined && leg.review);
      for (const leg of answered) {
        const type = parseReplyType(leg.reply as string);
        const expected = leg.review?.apiVersion ?? '';
        if (type && (type.apiVersion !== expected || type.kind !== 'ConversionReview'))
          return {
            pass: false,
            detail: `expected ${expected} ConversionReview, got ${type.apiVersion || '(no apiVersion)'} ${type.kind || '(no kind)'}: ${leg.error?.message ?? ''}`,
          };
      }
      return answered.length > 0 ? { pass: true } : undefined;
    },
  },
  { id: 'conversion-uid-echo', title: 'response.uid echoes request.uid', verify: (input) => failedCheck(input, ['uid']) },
  {
    id: 'conversion-response-valid',
    title: 'the answer passes kube-apiserver’s checks (else reads fail with its 500)',
    verify: ({ legs, type }) => {
      if (type === 'list') return undefined;
      const failed = legs.find((leg) => leg.error);
      return failed?.error ? { pass: false, detail: failed.error.message } : { pass: true };
    },
  },
  {
    id: 'conversion-api-version',
    title: "each converted object has request.desiredAPIVersion and the object's kind",
    verify: (input) => failedCheck(input, ['api-version', 'kind']),
  },
  {
    id: 'conversion-metadata',
    title: 'name, namespace and uid unchanged; only labels and annotations may change, and stay valid',
    verify: (input) => failedCheck(input, ['identity', 'metadata']),
  },
  {
    id: 'conversion-round-trip',
    title: 'converted to another version and back, the object comes back as it was',
    verify: ({ type, sent, back }) => {
      if (type !== 'round-trip' || !sent || !back) return undefined;
      const changes = diffJson(sent, back);
      return changes.length === 0 ? { pass: true } : { pass: false, detail: `changed on the way (sent → back):\n${formatChanges(changes, '  ')}` };
    },
  },
  {
    id: 'conversion-list',
    title: 'several objects in one review: each converted, in order',
    verify: ({ type, legs }) => {
      if (type !== 'list') return undefined;
      const failed = legs.find((leg) => leg.error);
      return failed?.error ? { pass: false, detail: failed.error.message } : { pass: true };
    },
  },
  {
    id: 'conversion-timeout-budget',
    title: "answers within kube-apiserver's 30 s (?timeout=30s)",
    verify: ({ legs, deadlineMs }) => {
      const late = legs.find((leg) => leg.transport === 'deadline' || leg.durationMs > deadlineMs);
      if (!late) return { pass: true };
      return { pass: false, detail: late.transport === 'deadline' ? (late.error?.message ?? '') : `took ${late.durationMs.toFixed(0)} ms of ${deadlineMs} ms` };
    },
  },
];
