export { auditEventsFrom } from './parse';
export { reviewsFromAudit } from './convert';
export type { AuditConversion, AuditReview } from './convert';
export type { AuditEvent, AuditEventList, AuditLevel, AuditObjectReference, AuditResponseStatus, AuditStage, AuditUserInfo } from './event';
export type { SkippedRequest, SkipReason } from './skip';
export { fixtureFileName, fixturesToYaml, writeFixtures } from './fixture';
export type { WriteFixturesOptions } from './fixture';
export { recordedReview, RECORDED_ADMISSION_KIND, RECORDED_REVIEW_API_VERSION, RECORDED_REVIEW_KIND } from './recorded-review';
export type {
  AuditSource,
  ObjectOrigin,
  ObjectsSource,
  Recordable,
  RecordedAdmission,
  RecordedAnswer,
  RecordedReview,
  RecordedSource,
} from './recorded-review';
export * as auditLimits from './limits';
