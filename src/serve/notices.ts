// Finalize notices of sessions the server finalized on its own (idle, evicted), kept for hosts
// that poll (GET /v1/notices) and pushed to --stdio hosts as `session_finalized` notifications.
// Bounded: past the limit the oldest is dropped, with a warning.

import type { FinalizeNotice } from '../types.js';

export interface NoticeQueue {
  push(notices: readonly FinalizeNotice[]): void;
  /** Everything queued, oldest first; the queue is empty afterwards. */
  take(): FinalizeNotice[];
}

export function createNoticeQueue(limit: number, warn: (m: string) => void): NoticeQueue {
  let queue: FinalizeNotice[] = [];
  return {
    push(notices) {
      queue.push(...notices);
      if (queue.length > limit) {
        const dropped = queue.length - limit;
        queue = queue.slice(dropped);
        warn(`${dropped} finalize notice(s) dropped: nobody fetched GET /v1/notices (limit ${limit})`);
      }
    },
    take() {
      const out = queue;
      queue = [];
      return out;
    },
  };
}
