import { proxyActivities } from '@temporalio/workflow';

import type { createWebhookActivities } from '../activities/webhooks.activities';

type WebhookActivities = ReturnType<typeof createWebhookActivities>;

const { verifyWebhookTarget } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  // DNS can fail for a moment; three tries, then the endpoint stays inactive with the reason.
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/** Recording the verdict must happen, or the endpoint would stay `activating`: retried until it does. */
const { completeWebhookActivation } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/** `activating` → `active`, or back to `inactive` with a reason, after the SSRF and DNS check. */
export async function webhookActivationWorkflow(input: {
  endpointId: string;
}): Promise<{ allowed: boolean }> {
  const verdict = await verifyWebhookTarget(input).catch(() => ({
    allowed: false,
    reason: 'the URL could not be verified',
  }));
  await completeWebhookActivation({ endpointId: input.endpointId, ...verdict });
  return { allowed: verdict.allowed };
}
