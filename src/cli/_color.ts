// Colour only on a TTY, never with NO_COLOR (any non-empty value) or TERM=dumb; FORCE_COLOR forces it.

import type { CliIO } from './_io.js';

export type Paint = (style: 'red' | 'green' | 'yellow' | 'dim' | 'bold' | 'cyan', text: string) => string;

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22] } as const;

export function painter(io: CliIO, stream: 'stdout' | 'stderr' = 'stdout'): Paint {
  const env = io.env;
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  const on = !env.NO_COLOR && env.TERM !== 'dumb' && (forced || Boolean(io[stream].isTTY));
  if (!on) return (_s, t) => t;
  return (style, text) => `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m`;
}
