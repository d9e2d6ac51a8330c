// `doctor` dispatch: with --agent, the agent-config check (doctor-agent.ts); otherwise the profile
// doctor (doctor-command.ts). Kept apart so neither module needs to know the other's options.

import type { CliIO } from './_io.js';

export async function doctorRoute(args: string[], io: CliIO): Promise<number> {
  if (args.some((a) => a === '--agent' || a.startsWith('--agent='))) {
    return (await import('./doctor-agent.js')).doctorAgentCommand(args, io);
  }
  return (await import('./doctor-command.js')).doctorCommand(args, io);
}
