export { startRecorder } from './recorder';
export type { Recorder, RecorderOptions, RecordingSummary, StopReason } from './recorder';
export { recorderConfiguration, DEFAULT_CONFIGURATION_NAME, DEFAULT_WEBHOOK_NAME, EVERYTHING } from './configuration';
export type { RecorderConfiguration, RecorderConfigurationOptions } from './configuration';
export type { RecordSource } from '../audit/recorded-review';
export type { RecordedEntry } from './fixture-writer';
export type { UpstreamOptions } from './upstream';
export { REDACTED } from './redact';
