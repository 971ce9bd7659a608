// The harness: createHarness composes one module per capability (see create-harness.ts).
export { createHarness } from './create-harness';
export type { HarnessOptions } from './options';
export type {
  Harness,
  AdmitOptions,
  InlineWebhook,
  HarnessCallOutcome,
  HarnessCallOptions,
  PatchedOutcome,
  WebhookHandle,
  LoadedPolicy,
  PolicyHandle,
  PolicyEvaluation,
} from './types';
