/**
 * How the journal, a resume and the faces treat each event: incidental (left out of a replay's
 * comparison), a resumable failure (the endpoint's, not the run's), replayed, or terminal. The
 * events themselves are stated once, in events.ts.
 */
import type { EngineEvent } from './events';

/**
 * Events whose number and place depend on the endpoint's behaviour rather than on the run's seed
 * (rate limits, retries). A resume replays a run event by event; these are left out of that
 * comparison on both sides, so a run resumed against a flakier endpoint still matches its journal.
 */
export function isIncidental(e: EngineEvent): boolean {
  // A cluster's events follow its queue and its clock (which task finishes when, whether the
  // controller answers), not the run's seed: a resume neither replays nor checks them.
  // The sandbox's pre-flight says what this process's machine offers, which a resume elsewhere need not match.
  return e.type === 'llm/waiting' || e.type === 'run/resumed' || e.type.startsWith('slurm/') || e.type === 'sandbox/preflight';
}

/**
 * Failures of the endpoint, not of the run: the run stopped where it was and can go on from its
 * journal once the endpoint answers again (`ratchet runs resume`), paying nothing twice.
 */
const RESUMABLE_FAILURES: ReadonlySet<string> = new Set(['llmHttp', 'llmNetwork', 'llmTimeout', 'llmMalformed', 'llmRetriesExhausted']);

export function isResumableFailure(e: EngineEvent): boolean {
  return e.type === 'run/failed' && RESUMABLE_FAILURES.has(e.error.code);
}

/** The events a resume re-executes and checks one by one: neither incidental nor a resumable failure. */
export function isReplayed(e: EngineEvent): boolean {
  return !isIncidental(e) && !isResumableFailure(e);
}

/** Terminal events: after one of these a run's journal receives nothing more. */
export function isTerminal(e: EngineEvent): boolean {
  return e.type === 'run/finished' || e.type === 'run/failed' || e.type === 'run/cancelled';
}
