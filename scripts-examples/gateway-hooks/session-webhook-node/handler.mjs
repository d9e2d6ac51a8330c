// Node twin of the session-webhook example: POSTs {event, ...context} on session start/reset.
// Runs in-process in the gateway (same trust as the gateway itself). Needs no packages: Node's fetch.
const WEBHOOK_URL = process.env.SESSION_WEBHOOK_URL ?? 'https://your-service.example.com/hermes-events';

export async function handle(eventType, context) {
  const res = await fetch(WEBHOOK_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event: eventType, ...context }),
    signal: AbortSignal.timeout(5000),
  });
  if (!res.ok) throw new Error(`webhook answered HTTP ${res.status}`);
}
