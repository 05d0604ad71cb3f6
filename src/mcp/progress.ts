/**
 * Progress of a long tool call, as MCP carries it: `notifications/progress` with the request's
 * `_meta.progressToken` (none sent when the client gave no token), counting the dev items a test
 * has consumed of those it may use, or the items scored, with the evidence so far in words.
 * Numbers and gate words only: never an item's text or output (A1).
 */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { JournaledEvent } from '../core/journal/events';
import { formatFactor } from '../protocol/factor';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * One notification per step of a judge's test (`steps`: its e-process moving item by item), or per
 * item an evaluation scored (`scored`); the total, what the work consumes at most, is the items the
 * run loaded (its `dataset/loaded`).
 *
 * `sent()` resolves once every notification so far is written: a tool awaits it before it answers,
 * since a client drops a progress notification that arrives after the result it belongs to.
 */
export interface Progress {
  onEvent: (e: JournaledEvent) => void;
  sent: () => Promise<void>;
}

export function progressOf(extra: ToolExtra, count: 'steps' | 'scored'): Progress {
  const token = extra._meta?.progressToken;
  let pending: Promise<void> = Promise.resolve();
  if (token === undefined) return { onEvent: () => undefined, sent: () => pending };
  let total = 0;
  let scored = 0;
  const send = (progress: number, message: string) => {
    const sending = extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } }).catch(() => undefined);
    pending = pending.then(() => sending);
  };
  const onEvent = (e: JournaledEvent) => {
    if (e.type === 'dataset/loaded') total = e.items.length;
    else if (count === 'steps' && e.type === 'wealth/step') {
      send(e.k, `item ${e.k} of at most ${total}: evidence ×${formatFactor(Math.exp(e.logWealth))} (needs ×${formatFactor(Math.exp(e.logThreshold))})`);
    } else if (count === 'scored' && e.type === 'item/evaluated') {
      scored += 1;
      send(Math.min(scored, total), `${scored} of ${total} items scored`);
    }
  };
  return { onEvent, sent: () => pending };
}
