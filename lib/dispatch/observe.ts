import type { AdmissionMetrics, WebhookType } from './metrics';

/** How one matched webhook's turn ended, in the dispatcher's own classes. */
export type TurnResult =
  | { kind: 'ok' }
  | { kind: 'calling-error'; code: number; failedOpen: boolean }
  | { kind: 'denied'; code: number }
  /** Anything else that rejects: dryRun unsupported, a patch that does not apply, … */
  | { kind: 'internal' };

/** Records a webhook's turn as the dispatchers' metric calls do (apiserver mutating/validating dispatchers). */
export function observeTurn(metrics: AdmissionMetrics, name: string, type: WebhookType, operation: string, seconds: number, result: TurnResult): void {
  switch (result.kind) {
    case 'ok':
      metrics.webhookCall(name, type, operation, seconds, false, 200);
      return;
    case 'calling-error':
      if (result.failedOpen) metrics.webhookFailOpen(name, type);
      else metrics.webhookRejection(name, type, operation, 'calling_webhook_error', result.code);
      metrics.webhookCall(name, type, operation, seconds, !result.failedOpen, result.code);
      return;
    case 'denied':
      metrics.webhookRejection(name, type, operation, 'no_error', result.code);
      metrics.webhookCall(name, type, operation, seconds, true, result.code);
      return;
    case 'internal':
      metrics.webhookRejection(name, type, operation, 'apiserver_internal_error', 0);
      metrics.webhookCall(name, type, operation, seconds, true, 0);
  }
}
