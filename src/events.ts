// The event catalogue: every Hermes hook event with what a hook can do on it, and the synthetic
// kwargs `hermes-hooks test` uses when stdin is empty. Pure data; no I/O. The data lives in
// events/, one module per concern (names, catalogue, synthetic kwargs by event family); this
// index keeps one import for all of it.

export { EVENT_NAMES, type EventName, isEventName, SORTED_EVENT_NAMES } from './events/names.js';
export { EVENTS, type EventInfo } from './events/catalogue.js';
export { syntheticKwargs, syntheticKwargKeys } from './events/synthetic-kwargs.js';
