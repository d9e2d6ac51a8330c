// A logger that records every line by level, for asserting what a host would see.
import type { Logger } from '../../src/engine/logger.js';

export interface CaptureLogger extends Logger {
  lines: { level: 'warn' | 'info' | 'debug'; message: string }[];
  at(level: 'warn' | 'info' | 'debug'): string[];
}

export function captureLogger(): CaptureLogger {
  const lines: CaptureLogger['lines'] = [];
  return {
    lines,
    warn: (message) => void lines.push({ level: 'warn', message }),
    info: (message) => void lines.push({ level: 'info', message }),
    debug: (message) => void lines.push({ level: 'debug', message }),
    at: (level) => lines.filter((l) => l.level === level).map((l) => l.message),
  };
}
