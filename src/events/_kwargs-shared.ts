// What every family's synthetic kwargs share. Pure data.

import type { EventName } from './names.js';

export type Kwargs = Record<string, unknown>;
/** One family's synthetic kwargs, keyed by event. */
export type FamilyKwargs = Partial<Record<EventName, Kwargs>>;

export const TEST_SESSION = 'test-session';
