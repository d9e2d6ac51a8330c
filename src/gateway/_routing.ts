// Which gateway handlers an event reaches, in order. Pure. Hermes: handlers registered for the
// exact event first, then those registered for `<prefix>:*` where prefix is the text before the
// first `:` (`command:*` matches `command:model`). A bare `agent` subscription matches nothing.

export function handlersFor<T extends { events: readonly string[] }>(handlers: readonly T[], eventType: string): T[] {
  const exact = handlers.filter((h) => h.events.includes(eventType));
  const colon = eventType.indexOf(':');
  if (colon < 0) return exact;
  const wildcard = `${eventType.slice(0, colon)}:*`;
  if (wildcard === eventType) return exact;
  return [...exact, ...handlers.filter((h) => h.events.includes(wildcard))];
}
