// Many profiles, one serve (serve --profiles): a request names its profile, absent = the profile
// serve was started for. Each other profile of the Hermes root (<root>/profiles/NAME, where the
// CLI's --profile looks) gets its own engine on its first request — its config, allowlist,
// plugins and gateway hooks, its sessions and guardrail counts — reloaded when its files change,
// and closed with the server.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEngine } from '../engine/create-engine.js';
import type { FinalizeNotice, Logger } from '../types.js';
import { errorText } from '../errors.js';
import { createServeApi, RequestError, type ServeApi } from './api.js';
import { watchEngine } from './engine-watch.js';
import type { FileWatch } from './watch.js';

/** A profile serve hosts: its engine, the API over it, the watch that reloads it. */
export interface HostedProfile {
  name: string;
  engine: HookEngine;
  api: ServeApi;
}

export interface ProfileRouterOptions {
  /** Where profiles live: <root>/profiles/NAME. */
  root: string;
  /** The profile serve was started for (a request naming no profile, or this name, gets it). */
  defaultName: string;
  surface: 'cli' | 'gateway';
  log: Logger;
  /** Builds a routed profile's engine (its location, config and environment are the opener's); `others`: every other known profile. */
  open(name: string, others: string[]): Promise<HookEngine>;
}

export interface ProfileRouter {
  /** The profile a request names; null = the default profile. Unknown or malformed names are refused. */
  route(name: unknown): Promise<HostedProfile | null>;
  /** The profiles with an engine now, the default first. */
  loaded(): string[];
  /** Every profile directory under <root>/profiles, and the default. */
  known(): string[];
  /** The routed profiles' engines created so far (not the default's). */
  engines(): HookEngine[];
  /** Stop watching and close every routed engine (finalizing its sessions); their notices. */
  close(): Promise<FinalizeNotice[]>;
}

interface RouterState {
  opts: ProfileRouterOptions;
  /** By name; a promise while the engine is being built, so two first requests build one. */
  hosted: Map<string, Promise<HostedProfile>>;
  ready: Map<string, HostedProfile>;
  watches: FileWatch[];
  closed: boolean;
}

export function createProfileRouter(opts: ProfileRouterOptions): ProfileRouter {
  const st: RouterState = { opts, hosted: new Map(), ready: new Map(), watches: [], closed: false };
  return {
    route: (name) => route(st, name),
    loaded: () => [opts.defaultName, ...[...st.ready.keys()].sort()],
    known: () => knownProfiles(st),
    engines: () => [...st.ready.values()].map((p) => p.engine),
    close: () => closeRouter(st),
  };
}

/** The directories under <root>/profiles, and the default profile's name. */
function knownProfiles(st: RouterState): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(st.opts.root, 'profiles'), { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name);
  } catch {
    // No profiles/ directory: the default profile is the only one.
  }
  return [...new Set([st.opts.defaultName, ...names.sort()])];
}

async function route(st: RouterState, name: unknown): Promise<HostedProfile | null> {
  if (name === undefined || name === null || name === '') return null;
  if (typeof name !== 'string') throw new RequestError(`"profile" must be a profile name (a string), not ${JSON.stringify(name)}`);
  if (name.includes('/') || name.includes('\\') || name.includes('\0') || name === '.' || name === '..') {
    throw new RequestError(
      `invalid profile name ${JSON.stringify(name)}: a profile name is one directory under ${join(st.opts.root, 'profiles')}, without '/', '\\', NUL, ` +
        `'.' or '..'`,
    );
  }
  if (name === st.opts.defaultName) return null;
  if (st.closed) throw new RequestError('the server is shutting down');
  const known = knownProfiles(st);
  if (!known.includes(name)) {
    throw new RequestError(
      `unknown profile '${name}' (profiles: ${known.join(', ')}; a profile is a directory under ${join(st.opts.root, 'profiles')})`,
      'not_found',
    );
  }
  let pending = st.hosted.get(name);
  if (pending === undefined) {
    pending = host(st, name);
    st.hosted.set(name, pending);
    // A profile that failed to open is retried by its next request (its config may be fixed by then).
    pending.catch(() => st.hosted.delete(name));
  }
  return pending;
}

/** A routed profile's engine built, its API made, its files watched. */
async function host(st: RouterState, name: string): Promise<HostedProfile> {
  let engine: HookEngine;
  try {
    engine = await st.opts.open(
      name,
      knownProfiles(st).filter((n) => n !== name),
    );
  } catch (e) {
    throw new RequestError(`profile '${name}' cannot be served: ${errorText(e)}`);
  }
  if (st.closed) {
    await engine.close({ finalize: false });
    throw new RequestError('the server is shutting down');
  }
  const hosted: HostedProfile = { name, engine, api: createServeApi(engine, { surface: st.opts.surface }) };
  st.watches.push(watchEngine(engine, st.opts.log));
  st.ready.set(name, hosted);
  st.opts.log.info?.(`profile '${name}' loaded from ${engine.home}`);
  return hosted;
}

async function closeRouter(st: RouterState): Promise<FinalizeNotice[]> {
  st.closed = true;
  for (const w of st.watches) w.close();
  // Engines still being built are closed by host() once they are.
  const closing = [...st.ready.values()].map(async (p) => {
    try {
      return (await p.engine.close()).notices;
    } catch (e) {
      st.opts.log.warn(`closing profile '${p.name}' failed: ${errorText(e)}`);
      return [] as FinalizeNotice[];
    }
  });
  return (await Promise.all(closing)).flat();
}
