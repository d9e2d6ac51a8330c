import { didYouMean } from '../config/hooks.js';
import { SORTED_EVENT_NAMES } from '../events.js';
import { CliError } from './_io.js';

/** "Unknown event" with a did-you-mean, or the list of valid events. */
export function unknownEventError(event: string): CliError {
  const guess = didYouMean(event);
  return new CliError(
    guess
      ? `Unknown event: '${event}' — did you mean '${guess}'?`
      : `Unknown event: '${event}'\nValid events: ${SORTED_EVENT_NAMES.join(', ')}`,
  );
}
