export type {
  AnyOtherResourceCell,
  CellDimension,
  CellScope,
  ConditionCell,
  ConditionResult,
  ConversionCell,
  CoverageCell,
  DryRunCell,
  ImageReviewAnswer,
  ImageReviewCell,
  ResourceCell,
  SelectorCell,
} from './cell';
export { CoverageCollector, type CoverageOptions } from './collector';
export {
  webhookId,
  type ConditionOutcome,
  type CoverageDecision,
  type CoverageEvent,
  type CoverageRequest,
  type PredicateName,
  type PredicateResults,
  type SelectorResult,
  type WebhookRef,
} from './event';
export { directCallEvent, selectorResults, type SelectorResults } from './direct-call';
export { coverageStep, eventFromDecision, eventFromTraceStep, eventsFromTrace, type CoverageTraceStep } from './from-trace';
export { decisionFromWhy } from './from-why';
export { mergeSummaries } from './merge';
export { registrationCells } from './registration-cells';
export { matchRequest, type RuleMatch } from './request-match';
export { admissionWebhooksOf, summarize } from './summary';
export type { CellStatus, CoverageKind, CoverageSummary, WebhookSummary } from './summary';
export { ConversionCoverage, ImageReviewCoverage, type ImageReviewRecord, type KindCoverage } from './kind-coverage';
export { formatTable } from './table';
export { belowThreshold, meetsThreshold, type ThresholdOptions } from './threshold';
