/**
 * After a window reload the server keeps running its runs, but the new RunStore is empty: a hosted
 * run's past comes from its journal, its present from `ratchet/runEvent`. Both overlap (an event is
 * journaled before it is notified), so notifications that arrived while the journal was being read
 * are kept only when the journal did not already hold them. Pure; unit-tested.
 */
import type { EngineEvent } from '../../core/run/events';

export function mergeReplay(journal: readonly EngineEvent[], buffered: readonly EngineEvent[]): EngineEvent[] {
  // Events carry no sequence number; a whole event (its time and content) identifies it.
  const seen = new Set(journal.map((e) => JSON.stringify(e)));
  return [...journal, ...buffered.filter((e) => !seen.has(JSON.stringify(e)))];
}
