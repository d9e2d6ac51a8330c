// `doctor --agent claude`: who holds the port an http wiring calls (pure: the listeners are a probe).
// A loopback TCP port has no owner check on the connecting side: Claude Code sends each call, with
// its bearer token, to whoever listens. Another user's listener there answers for serve (an
// "allow" to every tool call) and collects the token and every tool input: ✗. Nothing listening:
// calls are blocked (onFailure) until serve runs, and the port is free for anyone to take: a warning.

import type { AgentCheck } from '../dialects/agents/module.js';

export interface PortHolder {
  address: string;
  uid: number;
  user: string | null;
}

/** Who listens where a loopback connection to `port` lands; null when this system cannot say. */
export type ListenersProbe = (port: number) => PortHolder[] | null;

const who = (h: PortHolder): string => (h.user === null ? `uid ${h.uid}` : `uid ${h.uid} (${h.user})`);

/** The loopback port of an http hook URL, or null when it is not a loopback http URL. */
export function loopbackPort(url: string): number | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' || !/^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(u.hostname)) return null;
  return u.port === '' ? 80 : Number(u.port);
}

/** One check per distinct loopback port among the http entries' URLs. */
export function httpPortChecks(urls: readonly string[], listeners: ListenersProbe | undefined, me: number): AgentCheck[] {
  const ports = [...new Set(urls.map(loopbackPort).filter((p): p is number => p !== null))];
  return ports.map((port) => portCheck(port, listeners?.(port) ?? null, me));
}

function portCheck(port: number, held: PortHolder[] | null, me: number): AgentCheck {
  const takeBack = "the default wiring ('hermes-hooks print-config claude', no --http) talks to serve only over a socket it checked is yours";
  const orDefault =
    "or wire Claude Code the default way ('hermes-hooks print-config claude', no --http): the client talks to serve only " +
    'over a socket it checked is yours';
  if (held === null) {
    return {
      ok: null,
      message:
        `cannot tell who listens on port ${port} here (no /proc/net/tcp): make sure it is your serve — whoever holds it answers the http ` +
        `hooks and receives the token; ${takeBack}`,
    };
  }
  const other = held.find((h) => h.uid !== me && h.uid !== 0);
  if (other) {
    return {
      ok: false,
      message:
        `port ${port} is held by ${who(other)}, not you: it could answer for serve (allow every call) and receives the bearer token ` +
        'and every tool input Claude Code sends. ' +
        `Find it (ss -ltnp 'sport = :${port}'), have it stopped and start your serve there, ${orDefault}`,
    };
  }
  if (held.length === 0) {
    return {
      ok: null,
      message:
        `nothing listens on port ${port}: Claude Code's http tool calls are blocked (onFailure) until serve runs, and any local user may ` +
        'bind the port first and answer for it — keep serve --http running (print-config claude --http prints a systemd user unit)',
    };
  }
  return { ok: true, message: `port ${port} is held by ${who(held[0]!)}${held[0]!.uid === me ? ' (you)' : ''}: your serve, not another user's` };
}
