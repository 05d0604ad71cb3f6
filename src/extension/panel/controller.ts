/**
 * The host half of the panel protocol, without VS Code: answers the view's messages from the
 * RunStore and streams the selected run's events to it in batches. `RatchetPanel` plugs a webview
 * into it; tests plug in an array.
 */
import { assertNever } from '../../core/errors';
import { isTerminalRunState } from '../../core/journal/runStates';
import type { EvaluatorLoadSample, HostMessage, ViewMessage } from '../../protocol/webview';
import { buildEvidence } from './evidence';
import { buildProgramDetail } from './programDetail';
import { buildResultCell, buildResultsTable, exportResults } from './results';
import type { RunStore } from '../runs/runStore';
import type { PanelEvent } from '../../panelState/types';

export interface PanelTransport {
  post(msg: HostMessage): void;
}

/** What the view can ask the host to do; the integrator forwards these to the engine/editor. */
export interface PanelActions {
  cancel(runId: string): void | Promise<void>;
  resume(runId: string): void | Promise<void>;
  openCandidate(runId: string, candidateId: string, as: 'text' | 'diff'): void | Promise<void>;
  /**
   * Brings a run the store does not hold into it, from its journal: the run a panel restored
   * after a reload was showing, when it ended while the window was away.
   */
  loadRun(runId: string): void | Promise<void>;
  /**
   * Asks the user where to save an export of a run's results (a save dialog) and writes `text`
   * there; nothing when they cancel.
   */
  saveExport(suggestedName: string, text: string): void | Promise<void>;
  /** Opens docs/how-ratchet-decides.md from the extension's folder (the panel's "How Ratchet decides" link). */
  openDocs(): void | Promise<void>;
  /** A view-side failure or a failed action, for the log. */
  reportError(message: string): void;
}

export interface ControllerOptions {
  /** Events are posted at most this often (ms): one message per event would flood the webview. */
  batchMs?: number;
  /** A batch this large is posted at once. */
  maxBatch?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** Heavy texts stay on the host (they travel as Evidence); the view's fold does not read them. */
export function lightEvent(e: PanelEvent): PanelEvent {
  switch (e.type) {
    case 'candidate/proposed': {
      // A program's reasoning is its proposer's <NAME>, a few words the Programs view labels it with.
      if (e.program) {
        const { thinking: _t, ...program } = e;
        return { ...program, text: '' };
      }
      const { reasoning: _r, thinking: _t, ...rest } = e;
      return { ...rest, text: '' };
    }
    case 'program/evaluated': {
      const { feedback: _f, metrics: _m, output: _o, ...rest } = e;
      return rest;
    }
    case 'item/evaluated': {
      const { output: _o, thinking: _t, ...rest } = e;
      return rest;
    }
    case 'verdict': {
      const { rationale: _r, thinking: _t, ...rest } = e;
      return rest;
    }
    case 'suggestion':
      return { ...e, baseText: '', newText: '' };
    case 'dataset/loaded':
      return { ...e, items: [] };
    case 'zero/round':
      // The tasks' and exemplars' texts are the Challenger's, the Solver's and the judge's: asked for with `zero/request`.
      return {
        ...e,
        kept: e.kept.map((t) => ({ ...t, text: '' })),
        heldOut: e.heldOut.map((t) => ({ ...t, text: '' })),
        exemplars: e.exemplars.map((x) => ({ ...x, task: '', better: '', worse: '' })),
      };
    default:
      return e;
  }
}

export class PanelController {
  private ready = false;
  private selected: string | undefined;
  /**
   * A run (and decision) asked for before the view was ready, or before the store held the run:
   * shown right after the view's `view/ready`, or when the run's first event arrives.
   */
  private pending: { runId: string; candidateId?: string } | undefined;
  private queue: PanelEvent[] = [];
  private timer: unknown;
  private readonly unsubscribe: (() => void)[];
  private readonly batchMs: number;
  private readonly maxBatch: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(
    private readonly store: RunStore,
    private readonly transport: PanelTransport,
    private readonly actions: PanelActions,
    options: ControllerOptions = {},
  ) {
    this.batchMs = options.batchMs ?? 50;
    this.maxBatch = options.maxBatch ?? 2000;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.unsubscribe = [
      store.onEvent((runId, event, newRun) => this.onStoreEvent(runId, event, newRun)),
      // A run became interrupted (or was resumed): the view's Resume button follows the list.
      store.onListChanged(() => {
        if (this.ready) this.transport.post({ type: 'runs/updated', runs: this.store.runs() });
      }),
    ];
  }

  get selectedRunId(): string | undefined {
    return this.selected;
  }

  receive(msg: ViewMessage): void {
    switch (msg.type) {
      case 'view/ready': {
        this.ready = true;
        const wanted = this.pending && this.store.get(this.pending.runId) ? this.pending : undefined;
        if (wanted) this.pending = undefined;
        else if (msg.runId !== undefined && !this.store.get(msg.runId) && this.pending === undefined) {
          // The view remembers a run the store never held (a reload): show it once its journal is read.
          this.pending = { runId: msg.runId };
          const runId = msg.runId;
          this.run(() => this.actions.loadRun(runId), `Reading run ${runId} from its journal failed`);
        }
        // A (re)loaded view holds nothing: it always gets a snapshot first, then the focus.
        this.select(wanted?.runId ?? (msg.runId !== undefined && this.store.get(msg.runId) ? msg.runId : this.store.latestRunId()));
        if (wanted?.candidateId !== undefined) this.transport.post({ type: 'focus', runId: wanted.runId, candidateId: wanted.candidateId });
        return;
      }
      case 'run/select':
        this.select(this.store.get(msg.runId) ? msg.runId : this.selected);
        return;
      case 'run/cancel':
        this.run(() => this.actions.cancel(msg.runId), `Cancelling run ${msg.runId} failed`);
        return;
      case 'run/resume':
        this.run(() => this.actions.resume(msg.runId), `Resuming run ${msg.runId} failed`);
        return;
      case 'evidence/request': {
        const run = this.store.get(msg.runId);
        const evidence = run ? buildEvidence(run, msg.candidateId) : undefined;
        if (evidence) this.transport.post({ type: 'evidence/show', evidence });
        else
          this.transport.post({
            type: 'evidence/missing',
            runId: msg.runId,
            candidateId: msg.candidateId,
            why: run ? 'the run has no events for this candidate.' : 'the run is no longer in memory; open it from its journal.',
          });
        return;
      }
      case 'program/request': {
        const run = this.store.get(msg.runId);
        const detail = run ? buildProgramDetail(run, msg.programId) : undefined;
        if (detail) this.transport.post({ type: 'program/show', detail });
        else
          this.transport.post({
            type: 'program/missing',
            runId: msg.runId,
            programId: msg.programId,
            why: run ? 'the run has no events for this program.' : 'the run is no longer in memory; open it from its journal.',
          });
        return;
      }
      case 'zero/request': {
        const round = this.store.get(msg.runId)?.detail.zeroRounds.get(msg.round);
        const why = round ? undefined : this.store.get(msg.runId) ? `the run has no round ${msg.round}.` : 'the run is no longer in memory; open it from its journal.';
        this.transport.post({ type: 'zero/exemplars', runId: msg.runId, round: msg.round, exemplars: round?.exemplars ?? [], ...(why ? { why } : {}) });
        return;
      }
      case 'candidate/open':
        this.run(() => this.actions.openCandidate(msg.runId, msg.candidateId, msg.as), `Opening candidate ${msg.candidateId} failed`);
        return;
      case 'results/request': {
        const run = this.store.get(msg.runId);
        if (run) this.transport.post({ type: 'results/show', table: buildResultsTable(run) });
        return;
      }
      case 'results/cell': {
        const run = this.store.get(msg.runId);
        if (run) this.transport.post({ type: 'results/cell', cell: buildResultCell(run, msg.itemId, msg.versionId) });
        return;
      }
      case 'results/export': {
        const run = this.store.get(msg.runId);
        if (!run) return;
        const text = exportResults(run, msg.filter, msg.format);
        this.run(() => this.actions.saveExport(`${msg.runId}-results.${msg.format}`, text), `Exporting the results of run ${msg.runId} failed`);
        return;
      }
      case 'docs/open':
        this.run(() => this.actions.openDocs(), 'Opening “How Ratchet decides” failed');
        return;
      case 'view/error':
        this.actions.reportError(`Ratchet panel: ${msg.message}`);
        return;
      default:
        assertNever(msg, 'view message');
    }
  }

  /**
   * Shows the run with `candidateId`'s decision selected and its evidence open. A view that is not
   * ready (the panel is opening, or hidden and reloading) would drop the message, so the focus
   * waits for its `view/ready`; the latest one wins. A run the store does not hold is ignored.
   */
  focus(runId: string, candidateId: string): void {
    if (!this.store.get(runId)) return;
    if (this.ready) this.postFocus(runId, candidateId);
    else this.pending = { runId, candidateId };
  }

  /**
   * Shows a run the user just started, resumed or opened, whatever the view remembered or was
   * following. Like `focus`, it waits for a view that is not ready — and for a run whose first
   * event has not reached the store yet.
   */
  showRun(runId: string): void {
    if (this.ready && this.store.get(runId)) {
      this.pending = undefined;
      if (runId !== this.selected) this.select(runId);
    } else this.pending = { runId };
  }

  /**
   * A code search's evaluator load changed (its live status): posted for any run, since the view
   * keeps a bounded timeline per run; a view not ready misses it (the timeline says it covers what
   * the window saw).
   */
  evaluatorLoad(runId: string, sample: EvaluatorLoadSample): void {
    if (this.ready) this.transport.post({ type: 'programs/load', runId, ...sample });
  }

  /** The webview was disposed or reloaded: nothing is posted until it says `view/ready` again. */
  detach(): void {
    this.ready = false;
    this.dropQueue();
  }

  dispose(): void {
    this.detach();
    for (const off of this.unsubscribe) off();
  }

  private select(runId: string | undefined): void {
    this.dropQueue();
    this.selected = runId;
    this.transport.post({ type: 'run/snapshot', runs: this.store.runs(), run: runId === undefined ? undefined : this.store.snapshot(runId) });
  }

  private postFocus(runId: string, candidateId: string): void {
    if (runId === this.selected) this.flush();
    else this.select(runId);
    // After the snapshot or the pending events, so the view holds the decision it is asked to show.
    this.transport.post({ type: 'focus', runId, candidateId });
  }

  private onStoreEvent(runId: string, event: PanelEvent, newRun: boolean): void {
    if (!this.ready) return;
    if (newRun && this.pending?.runId === runId) {
      const { candidateId } = this.pending;
      this.pending = undefined;
      if (candidateId === undefined) this.select(runId);
      else this.postFocus(runId, candidateId);
      return;
    }
    if (newRun) {
      // Follow a newly started run unless the user is watching one that is still running.
      const current = this.selected === undefined ? undefined : this.store.get(this.selected)?.state.status;
      if (current === undefined || isTerminalRunState(current)) {
        this.select(runId);
        return;
      }
      this.transport.post({ type: 'runs/updated', runs: this.store.runs() });
      return;
    }
    if (event.type === 'run/started' || event.type === 'run/finished' || event.type === 'run/failed' || event.type === 'run/cancelled') {
      this.transport.post({ type: 'runs/updated', runs: this.store.runs() });
    }
    if (runId !== this.selected) return;
    this.queue.push(lightEvent(event));
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (this.timer === undefined) this.timer = this.setTimer(() => this.flush(), this.batchMs);
  }

  private flush(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0 || this.selected === undefined) return;
    const events = this.queue;
    this.queue = [];
    this.transport.post({ type: 'run/events', runId: this.selected, events });
  }

  private dropQueue(): void {
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    this.queue = [];
  }

  private run(action: () => void | Promise<void>, what: string): void {
    try {
      const result = action();
      if (result instanceof Promise) result.catch((err: unknown) => this.actions.reportError(`${what}: ${message(err)}`));
    } catch (err) {
      this.actions.reportError(`${what}: ${message(err)}`);
    }
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
