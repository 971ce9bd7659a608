export { quotaAdmit } from './quota-admit';
export type { QuotaAdmitResult, QuotaUsageUpdate } from './quota-admit';
export type { QuotaAttributes, QuotaContext } from './evaluator';
