/**
 * Feeds the RunStore from two sources that overlap: each `ratchet/runEvent` as it comes, and the
 * run's journal when the store lacks events — a run heard of mid-way (a reload mid-run), a
 * notification lost, a run picked in the Runs view or the journal picker. Every event carries its
 * journal `seq`, so the store drops what it holds and keeps back what comes early (runStore.ts);
 * the feed only reads the journal after the store's last seq when the store reports a gap.
 */
import type { Replay } from '../../core/journal/replay';
import type { RunEventParams } from '../../protocol/lsp';
import type { RunStore } from './runStore';

/** Where the feed reads journals (the editor's file system; a fake in tests). */
export interface RunJournals {
  exists(workspace: string, runId: string): Promise<boolean>;
  /** The run's journal in `workspace`; rejects when it cannot be read. */
  read(workspace: string, runId: string): Promise<Replay>;
}

export interface FeedLog {
  warn(message: string): void;
}

interface Reading {
  done: Promise<void>;
  /** A gap opened while the journal was being read: read it again, it holds more now. */
  again: boolean;
}

export class RunFeed {
  private readonly reading = new Map<string, Reading>();

  constructor(
    private readonly store: RunStore,
    private readonly journals: RunJournals,
    private readonly log: FeedLog,
  ) {}

  /**
   * A `ratchet/runEvent`. An event that follows the last one the store holds is folded now; one
   * that leaves a gap (the first heard of a run that went on while the window reloaded, say) waits
   * while the journal fills the gap in order, so the panel shows the whole run and not its tail.
   */
  onRunEvent(p: RunEventParams): void {
    if (this.store.append(p.event) !== 'gap') return;
    this.catchUp(p.workspace, p.runId).catch((err: unknown) => this.log.warn(`Run ${p.runId}: reading its journal failed: ${err instanceof Error ? err.message : String(err)}`));
  }

  has(runId: string): boolean {
    return this.store.get(runId) !== undefined;
  }

  /** Fills the store from the run's journal in the first of `folders` that has it; false when none does. */
  async loadFromFolders(folders: readonly string[], runId: string): Promise<boolean> {
    for (const folder of folders) {
      if (!(await this.journals.exists(folder, runId))) continue;
      await this.load(folder, runId);
      return true;
    }
    return false;
  }

  /** Fills the store from the run's journal unless it already holds the run. */
  async load(workspace: string, runId: string): Promise<void> {
    if (this.has(runId)) return;
    await this.catchUp(workspace, runId);
  }

  /** Reads the journal's events after the store's last seq; one read per run at a time. */
  private catchUp(workspace: string, runId: string): Promise<void> {
    const inFlight = this.reading.get(runId);
    if (inFlight) {
      inFlight.again = true;
      return inFlight.done;
    }
    const reading: Reading = { done: Promise.resolve(), again: false };
    reading.done = this.readUntilWhole(workspace, runId, reading).finally(() => this.reading.delete(runId));
    this.reading.set(runId, reading);
    return reading.done;
  }

  private async readUntilWhole(workspace: string, runId: string, reading: Reading): Promise<void> {
    try {
      do {
        reading.again = false;
        const replay = await this.journals.read(workspace, runId);
        if (replay.tornTail) this.log.warn(`Run ${runId}: the journal's last line was torn by a crash and is left out.`);
        const after = this.store.lastSeq(runId);
        this.store.appendAll(replay.events.filter((e) => e.seq > after));
        // An event is journaled before it is notified, so a read begun after the latest gap opened
        // holds what that gap lacks; one begun before it may not.
      } while (reading.again && this.store.hasGap(runId));
    } finally {
      if (this.store.hasGap(runId)) {
        this.log.warn(`Run ${runId}: its journal lacks events after seq ${this.store.lastSeq(runId)}; the run is shown without them.`);
        this.store.skipGap(runId);
      }
    }
  }
}
