/**
 * How a face takes part in a run, whatever its kind: the user's answer to a gated suggestion and
 * the writing of accepted edits. The prompt loop, code search, the daemon and the wire contracts
 * share these words, so they live with the run's record rather than in one engine.
 */

export interface Suggestion {
  candidateId: string;
  file: string;
  baseText: string;
  newText: string;
}

/** How a face takes part in a run: the user's decisions and the writing of accepted edits. */
export interface RunControl {
  /** Suggest mode: the user's answer to a gated suggestion. */
  decide(s: Suggestion, signal: AbortSignal): Promise<'accept' | 'reject'>;
  /** Write the accepted text; 'stale' when the file no longer holds `baseText` (never overwritten). */
  apply(s: Suggestion, by: 'autopilot' | 'user'): Promise<'applied' | 'dry-run' | 'stale'>;
}

/** Events carry what is needed to render a version, never a cross-reference the face must resolve. */
export type EventPayload<E> = E extends { runId: string; at: number } ? Omit<E, 'runId' | 'at'> : never;
