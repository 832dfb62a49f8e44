import { createWebhookReceiver, Notification, ThinNotification } from './webhook-receiver';

/**
 * `npm run example:receiver`: the receiver of examples/webhook-receiver.ts, listening on
 * 127.0.0.1:$RECEIVER_PORT (4000 by default) for the endpoint $WEBHOOK_ENDPOINT_ID signed with
 * $WEBHOOK_SECRET, printing one line per verified notification. It prints the event, the object's id
 * and its status only: a full notification carries the case, and a case is PHI.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} first (README, "Your first case").`);
    process.exit(2);
  }
  return value;
}

const endpoint = { endpointId: required('WEBHOOK_ENDPOINT_ID'), secret: required('WEBHOOK_SECRET') };
const port = Number(process.env.RECEIVER_PORT ?? 4000);

function summary({ type, data }: Notification | ThinNotification): string {
  const status = 'status' in data ? data.status : undefined;
  return [type, data.id, status].filter((part) => part !== undefined).join(' ');
}

createWebhookReceiver({
  endpoint,
  seen: new Set(),
  onNotification: async (notification) => console.log(`verified: ${summary(notification)}`),
  onRejected: (reason) => console.log(`refused: ${reason}`),
}).listen(port, '127.0.0.1', () =>
  console.log(`Receiving notifications for ${endpoint.endpointId} on http://127.0.0.1:${port}/`),
);
