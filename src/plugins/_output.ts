// A line a plugin printed goes to the logger's `output` (shown by default), else to `info`.
import type { Logger } from '../types.js';

export function pluginOutput(logger: Logger, line: string): void {
  if (logger.output) logger.output(line);
  else logger.info?.(line);
}
