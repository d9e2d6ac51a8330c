// Node twin of the long-task-alert example: one Telegram message when a run reaches 10 steps.
const THRESHOLD = 10;
const BOT_TOKEN = process.env.TELEGRAM_BOT_TOKEN;
const CHAT_ID = process.env.TELEGRAM_HOME_CHANNEL;
const API = process.env.TELEGRAM_API_BASE ?? 'https://api.telegram.org';

export async function handle(eventType, context) {
  const iteration = context.iteration ?? 0;
  if (iteration === THRESHOLD && BOT_TOKEN && CHAT_ID) {
    const tools = (context.tool_names ?? []).join(', ');
    const text = `⚠️ Agent has been running for ${iteration} steps. Last tools: ${tools}`;
    await fetch(`${API}/bot${BOT_TOKEN}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: CHAT_ID, text }),
      signal: AbortSignal.timeout(10_000),
    });
  }
}
