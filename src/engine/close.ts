// close(): teardown hooks first, while the engine still runs hooks — pending human-input requests
// withdrawn, open sessions finalized — then stop: abort running hooks, flush webhooks, stop
// gateway and plugin workers. Idempotent.

import type { FinalizeNotice } from '../types.js';
import { emitEvent, emitPrepared, finalizeOnOwn } from './emit-event.js';
import type { EngineState } from './_state.js';

export async function closeEngine(st: EngineState, opts: { finalize?: boolean } = {}): Promise<{ notifications: string[]; notices: FinalizeNotice[] }> {
  if (st.closed) return { notifications: [], notices: [] };
  await st.reloading.catch(() => undefined);
  st.sessions.stop();
  // resolveAll already marks them resolved; emit directly so the tracker does not drop them as repeats.
  for (const resolved of st.tracker.resolveAll('withdrawn')) {
    await emitPrepared(st, 'on_human_input_resolved', resolved, {}).catch(() => undefined);
  }
  const open = st.sessions.drain();
  const notices = opts.finalize !== false ? await finalizeOpenSessions(st, open) : [];
  st.closed = true;
  st.abort.abort();
  await Promise.allSettled([st.gen.dispatcher?.close(), st.gateway?.close(), st.gen.closePlugins()]);
  return { notifications: notices.map((n) => n.message), notices };
}

/** Every open session finalized (`shutdown`); none ever seen: once with none, so on_session_finalize hooks still run at exit. */
async function finalizeOpenSessions(st: EngineState, open: ReturnType<EngineState['sessions']['drain']>): Promise<FinalizeNotice[]> {
  const notices: FinalizeNotice[] = [];
  if (open.length === 0 && !st.sessions.seenAny()) {
    const e = await emitEvent(st, 'on_session_finalize', { session_id: null, reason: 'shutdown' }).catch(() => null);
    notices.push(...(e?.decision.notices ?? []));
  }
  for (const s of open) notices.push(...(await finalizeOnOwn(st, s.session_id, s.session_key, 'shutdown')));
  return notices;
}
