/**
 * The latest `ratchet/runStatus` of each run: the one place the extension holds run status, for
 * whoever shows it (status bar, Runs view, notices). The daemon owns the status and pushes every
 * change; this only keeps the newest, so nothing here counts, times or infers a state from events.
 *
 * What the relay cannot say is settled here from two other facts, never guessed: a status not over
 * is the word of the server that relayed it, so it is dropped when that server goes (the next one
 * re-sends the statuses of the runs still going); and a run whose daemon died gets no last status,
 * so the server's listing (`ratchet/listRuns`) ends it. No VS Code import: unit-tested as is.
 */
import { endStatus, isOver } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import type { RunListEntry, RunStatusParams } from '../../protocol/lsp';

export interface StatusChange {
  runId: string;
  /** undefined: the status was dropped (see `forgetLive`, `settle`). */
  status: RunStatusParams | undefined;
  previous: LiveRunStatus | undefined;
}

export type StatusListener = (change: StatusChange) => void;

export class RunStatuses {
  /** In the order the runs began (a resumed run begins again), so the last is the newest. */
  private readonly byRun = new Map<string, RunStatusParams>();
  private readonly listeners = new Set<StatusListener>();

  /** Ended runs beyond `maxEnded` are forgotten oldest first (their journals keep how they ended). */
  constructor(private readonly maxEnded = 20) {}

  /** A status the server relayed; the latest wins. */
  set(p: RunStatusParams): void {
    const runId = p.status.runId;
    const previous = this.byRun.get(runId)?.status;
    // A run that begins (again) moves to the newest place.
    if (previous === undefined || (isOver(previous) && !isOver(p.status))) this.byRun.delete(runId);
    this.byRun.set(runId, p);
    if (isOver(p.status)) this.evict();
    this.changed({ runId, status: p, previous });
  }

  get(runId: string): RunStatusParams | undefined {
    return this.byRun.get(runId);
  }

  /** Every held status, newest first. */
  all(): RunStatusParams[] {
    return [...this.byRun.values()].reverse();
  }

  /** The runs going on, newest first. */
  live(): RunStatusParams[] {
    return this.all().filter((p) => !isOver(p.status));
  }

  /** The server that relayed the statuses is gone: those not over may be out of date. */
  forgetLive(): void {
    for (const p of this.live()) this.drop(p.status.runId);
  }

  /**
   * The server's listing, for the runs whose status it no longer relays. A run it lists as
   * interrupted (no terminal event, its process gone) while a status here says it goes on lost its
   * daemon: it ends `interrupted`. One whose journal says it ended while no server relayed it is
   * dropped, so the journal's word (the listing, the RunStore) is shown. A run the server hosts is
   * left alone: its statuses still come, and a listing answered before a status is read first.
   */
  settle(listed: readonly RunListEntry[]): void {
    for (const entry of listed) {
      const held = this.byRun.get(entry.runId);
      if (!held || isOver(held.status) || entry.hosted) continue;
      if (entry.status === 'interrupted') this.set({ ...held, status: endStatus(held.status) });
      else if (entry.status !== 'running') this.drop(entry.runId);
    }
  }

  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private drop(runId: string): void {
    const previous = this.byRun.get(runId)?.status;
    if (!this.byRun.delete(runId)) return;
    this.changed({ runId, status: undefined, previous });
  }

  private changed(change: StatusChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }

  private evict(): void {
    const ended = [...this.byRun.values()].filter((p) => isOver(p.status));
    for (const p of ended.slice(0, Math.max(0, ended.length - this.maxEnded))) this.byRun.delete(p.status.runId);
  }
}
