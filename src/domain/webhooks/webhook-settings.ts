/** How webhooks are delivered (NOK_WEBHOOK_…; docs/webhooks.md). */
export interface WebhookSettings {
  /** This process delivers (NOK_WEBHOOKS). */
  readonly deliver: boolean;
  readonly batchMax: number;
  readonly batchWaitMs: number;
  readonly timeoutMs: number;
  readonly retryWindowMs: number;
  readonly secretOverlapMs: number;
  readonly concurrency: number;
  readonly allowPrivateTargets: boolean;
}
