/**
 * Resume replays, it does not patch: the run is executed again from the start with the same seed,
 * every LLM call made before the interruption is answered by the response cache, and the events the
 * engine emits are checked against the journal one by one (same type, same candidate) instead of
 * being written twice. Only the replayed kinds take part (`isReplayed`): rate-limit waits, resume
 * markers and an earlier endpoint failure depend on the endpoint, not on the seed.
 */
import { RatchetError } from '../errors';
import { isReplayed, isTerminal } from './eventClasses';
import type { EngineEvent } from './events';
import type { RunControl } from './control';

export interface Replaying {
  /** The `emit` the resumed run's engine calls. */
  emit(e: EngineEvent): Promise<void>;
  /** Whether the engine is still inside the part of the run its journal already holds. */
  replaying(): boolean;
}

/**
 * The `emit` a resumed run's engine calls: an event the journal already holds is checked and
 * dropped; past the journal's end (or when the run ends early, e.g. the endpoint is still down)
 * events are written through `write`.
 */
export function replayingEmitter(runId: string, journaled: readonly EngineEvent[], write: (e: EngineEvent) => Promise<void>): Replaying {
  const expected = journaled.filter(isReplayed);
  let index = 0;
  const emit = async (e: EngineEvent) => {
    if (index < expected.length && isReplayed(e) && !isTerminal(e)) {
      const old = expected[index]!;
      if (old.type !== e.type || candidateOf(old) !== candidateOf(e)) {
        throw new RatchetError('journalCorrupt', `Resuming run ${runId} diverged at event ${index + 1} (journal: ${old.type}, now: ${e.type}); the run cannot be resumed.`, { runId });
      }
      index++;
      return;
    }
    await write(e);
  };
  return { emit, replaying: () => index < expected.length };
}

/**
 * The run's control on resume: the user is never asked twice. An answer the journal holds is given
 * again, an edit it says was written (or found stale) is not written again, and a code search's
 * suggestion it says a newer best withdrew waits, unasked, to be withdrawn again at the same point.
 */
export function replayingControl(control: RunControl, replayed: readonly EngineEvent[]): RunControl {
  const answered = new Map<string, 'accept' | 'reject'>();
  const landed = new Map<string, 'applied' | 'stale'>();
  const withdrawn = new Set<string>();
  for (const e of replayed) {
    if (e.type === 'edit/applied') {
      landed.set(e.candidateId, 'applied');
      if (e.by === 'user') answered.set(e.candidateId, 'accept');
    }
    if (e.type !== 'edit/rejected') continue;
    if (e.by === 'user') answered.set(e.candidateId, 'reject');
    else if (e.reason === 'superseded') withdrawn.add(e.candidateId);
    else {
      // Stale: it was accepted (or found stale before anyone answered), and not written.
      answered.set(e.candidateId, 'accept');
      landed.set(e.candidateId, 'stale');
    }
  }
  return {
    decide: (s, signal) => {
      const known = answered.get(s.candidateId);
      if (known) return Promise.resolve(known);
      return withdrawn.has(s.candidateId) ? untilAborted(signal) : control.decide(s, signal);
    },
    apply: (s, by) => {
      const known = landed.get(s.candidateId);
      return known ? Promise.resolve(known) : control.apply(s, by);
    },
  };
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

function candidateOf(e: EngineEvent): string | undefined {
  return 'candidateId' in e ? e.candidateId : e.type === 'decision' ? e.record.candidateId : undefined;
}

/**
 * The run's active time in its journal: from each process's first event to its last, summed over
 * the processes (split at `run/resumed`). The time a run lay interrupted is not counted, so a
 * wall-time budget means time spent running.
 */
export function activeElapsedMs(events: readonly EngineEvent[]): number {
  let total = 0;
  let first: number | undefined;
  let last = 0;
  for (const e of events) {
    if (e.type === 'run/resumed') {
      if (first !== undefined) total += last - first;
      first = e.at;
    }
    first ??= e.at;
    last = Math.max(last, e.at);
  }
  return first === undefined ? 0 : total + (last - first);
}
