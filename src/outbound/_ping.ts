// ping (`doctor --ping`): one signed (when a secret is set) test delivery now, one attempt,
// outside the queue, with its outcome reported rather than logged.

import { errorText } from '../errors.js';
import { describeAttempt, outcomeOf } from './_attempt.js';
import { newDeliveryId, outboundBodyJson } from './body.js';
import { postOnce, type AttemptResult } from './_post.js';
import { headersFor, type DispatchSettings } from './_state.js';
import type { DeliveryResult, OutboundTarget } from './types.js';

export async function pingTarget(settings: DispatchSettings, target: OutboundTarget): Promise<DeliveryResult> {
  const started = performance.now();
  const deliveryId = newDeliveryId();
  const kwargs = { ping: true, message: 'hermes-hooks doctor test delivery', target: target.name ?? null };
  const body = Buffer.from(outboundBodyJson('ping', kwargs, settings.ctx, deliveryId), 'utf8');
  let result: AttemptResult;
  try {
    result = await postOnce({
      url: target.url,
      body,
      headers: headersFor(target, 'ping', deliveryId, body, settings.userAgent),
      timeoutMs: target.timeout * 1000,
    });
  } catch (e) {
    result = { kind: 'connection_error', error: errorText(e) };
  }
  const outcome = outcomeOf(result);
  return {
    ok: outcome === 'delivered',
    outcome,
    status_code: result.kind === 'status' ? result.status : null,
    error: outcome === 'delivered' ? null : describeAttempt(result),
    attempts: 1,
    delivery_id: deliveryId,
    signed: target.secret !== null,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
  };
}
