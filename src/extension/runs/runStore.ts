/**
 * The host's copy of every run the panel can show. Events are folded into the light `RunState`
 * the view paints from (with the fold the view uses too, src/panelState/runState.ts, so both ends
 * agree), while the heavy texts a decision's evidence needs (candidate texts, outputs, rationales,
 * inputs) stay here and travel only on request. No VS Code import: the store is fed by whoever
 * receives engine events.
 *
 * Events are folded in `seq` order, once each; this is the one place that rule lives (the view
 * folds what the store passes on). A numbered event the store already holds is dropped; one
 * that leaves a gap waits until whoever feeds the store reads the missing ones from the journal
 * (`append` says `gap`, `lastSeq` says after what). Events without a seq fold as they come.
 */
import type { DecisionRecord } from '../../core/gates/record';
import type { EventOf } from '../../core/journal/events';
import type { DatasetItemInfo } from '../../core/journal/payloadTypes';
import { isTerminalRunState } from '../../core/journal/runStates';
import type { JudgeView, RunListEntry } from '../../protocol/webview';
import { applyEvent, emptyRunState } from '../../panelState/runState';
import type { PanelEvent, RunState, WealthStep } from '../../panelState/types';

export interface RunDetail {
  texts: Map<string, string>;
  reasoning: Map<string, string>;
  /** The proposer's reasoning section (its model's thinking), by candidate. */
  thinking: Map<string, string>;
  /** `${versionId}\n${itemId}` → the version's latest output / score on that item. */
  outputs: Map<string, string>;
  scores: Map<string, number>;
  inputs: Map<string, string>;
  /** Every dataset item as `dataset/loaded` listed it, in its order. */
  items: Map<string, DatasetItemInfo>;
  /** `${candidateId}\n${itemId}` → the validator's verdicts in each order. */
  verdicts: Map<string, { childFirst?: JudgeView; parentFirst?: JudgeView }>;
  /** Every e-process step per candidate, ties included (the light state may evict old traces). */
  steps: Map<string, WealthStep[]>;
  records: Map<string, DecisionRecord>;
  rubrics: Map<number, string>;
  /** Code search: the proposer's <DESCRIPTION> per program. */
  descriptions: Map<string, string>;
  /** Code search: the evaluator's verdict per program, with its metrics, feedback and output. */
  evaluations: Map<string, EventOf<'program/evaluated'>>;
  /** Zero-data: each round's event, its tasks' and exemplars' texts included. */
  zeroRounds: Map<number, EventOf<'zero/round'>>;
  /** Each suggestion offered in the editor, with the whole file before and after its edit, by candidate. */
  suggestions: Map<string, EventOf<'suggestion'>>;
}

export interface StoredRun {
  state: RunState;
  detail: RunDetail;
  /** The seq of the last numbered event folded; 0 before the first. */
  lastSeq: number;
}

export type StoreListener = (runId: string, event: PanelEvent, newRun: boolean) => void;

/**
 * What `append` did with an event: folded it (with any waiting events it let through), dropped it
 * as one the store holds already, or keeps it until the events between `lastSeq` and it arrive.
 */
export type Arrival = 'folded' | 'duplicate' | 'gap';

export const itemKey = (versionId: string, itemId: string): string => `${versionId}\n${itemId}`;

function emptyDetail(): RunDetail {
  return {
    texts: new Map(),
    reasoning: new Map(),
    thinking: new Map(),
    outputs: new Map(),
    scores: new Map(),
    inputs: new Map(),
    items: new Map(),
    verdicts: new Map(),
    steps: new Map(),
    records: new Map(),
    rubrics: new Map(),
    descriptions: new Map(),
    evaluations: new Map(),
    zeroRounds: new Map(),
    suggestions: new Map(),
  };
}

export class RunStore {
  private readonly runsById = new Map<string, StoredRun>();
  private readonly listeners = new Set<StoreListener>();
  private readonly listListeners = new Set<() => void>();
  /** Numbered events that came before the ones they follow, by run, then by seq. */
  private readonly early = new Map<string, Map<number, PanelEvent>>();
  /** Runs the server listed as interrupted, with how many events their journals held then (see `setInterrupted`). */
  private interrupted = new Map<string, number>();
  /** Runs whose status says they wait only for the user's answer (see `setWaitsOnlyForYou`). */
  private waitsOnlyForYou = new Set<string>();

  /** Runs beyond `maxRuns` are forgotten oldest first (their journals keep them). */
  constructor(private readonly maxRuns = 20) {}

  /** Folds an event in its run's seq order (see the file's comment). */
  append(event: PanelEvent): Arrival {
    if (event.seq === undefined) {
      this.fold(event);
      return 'folded';
    }
    const last = this.lastSeq(event.runId);
    if (event.seq <= last) return 'duplicate';
    if (event.seq > last + 1) {
      let waiting = this.early.get(event.runId);
      if (!waiting) this.early.set(event.runId, (waiting = new Map()));
      waiting.set(event.seq, event);
      return 'gap';
    }
    this.fold(event);
    this.release(event.runId);
    return 'folded';
  }

  appendAll(events: Iterable<PanelEvent>): void {
    for (const e of events) this.append(e);
  }

  /** The seq of the last event of the run folded in order; 0 for a run the store does not hold. */
  lastSeq(runId: string): number {
    return this.runsById.get(runId)?.lastSeq ?? 0;
  }

  /** Whether events of the run wait for earlier ones. */
  hasGap(runId: string): boolean {
    return this.early.has(runId);
  }

  /**
   * Folds the run's waiting events in seq order over the gap before them, for when the journal
   * turned out not to hold the missing ones: a run shown with a hole beats one that stops.
   */
  skipGap(runId: string): void {
    const waiting = this.early.get(runId);
    if (!waiting) return;
    this.early.delete(runId);
    for (const seq of [...waiting.keys()].sort((a, b) => a - b)) {
      const e = waiting.get(seq)!;
      if (seq > this.lastSeq(runId)) this.fold(e);
    }
  }

  /** Folds the waiting events that now follow on, and forgets those the store came to hold meanwhile. */
  private release(runId: string): void {
    const waiting = this.early.get(runId);
    if (!waiting) return;
    for (;;) {
      const last = this.lastSeq(runId);
      for (const seq of waiting.keys()) if (seq <= last) waiting.delete(seq);
      const next = waiting.get(last + 1);
      if (!next) break;
      waiting.delete(last + 1);
      this.fold(next);
    }
    if (waiting.size === 0) this.early.delete(runId);
  }

  private fold(event: PanelEvent): void {
    let run = this.runsById.get(event.runId);
    const newRun = run === undefined;
    if (!run) {
      run = { state: emptyRunState(event.runId), detail: emptyDetail(), lastSeq: 0 };
      this.runsById.set(event.runId, run);
      this.evict();
    }
    if (event.seq !== undefined) run.lastSeq = event.seq;
    try {
      applyEvent(run.state, event);
    } catch {
      // An event type newer than this panel: keep the rest of the run visible.
      run.state.skippedEvents += 1;
      return;
    }
    keepDetail(run.detail, event);
    // An event past those the listing counted means the run was resumed: it is live again.
    // (Events read from its journal are among those counted.)
    const listedEvents = this.interrupted.get(event.runId);
    const resumed = listedEvents !== undefined && event.seq !== undefined && event.seq > listedEvents;
    if (resumed) this.interrupted.delete(event.runId);
    for (const listener of [...this.listeners]) listener(event.runId, event, newRun);
    if (resumed) this.listChanged();
  }

  /**
   * Holds a run the user just started, before its first event: the engine takes a moment to start
   * (the daemon spawns, reads the spec, loads the data), and until then the panel would go on
   * showing the previous run. The run shows as starting, on its file; its events fold in as usual.
   */
  begin(runId: string, target: string): void {
    if (this.runsById.has(runId)) return;
    const state = emptyRunState(runId);
    state.requestedTarget = target;
    this.runsById.set(runId, { state, detail: emptyDetail(), lastSeq: 0 });
    this.evict();
    this.listChanged();
  }

  onEvent(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The runs the server lists as interrupted (no terminal event, no process running them). The
   * events alone cannot tell such a run from one still running elsewhere, so whoever lists runs
   * says which ones, each with the number of events its journal held (the seq it stopped at); the
   * panel offers Resume for these only, until an event past that seq arrives.
   */
  setInterrupted(runs: Iterable<{ runId: string; events: number }>): void {
    const before = this.runs();
    this.interrupted = new Map([...runs].map((r) => [r.runId, r.events]));
    if (JSON.stringify(this.runs()) !== JSON.stringify(before)) this.listChanged();
  }

  /**
   * The runs whose live status (the daemon's word, not the events') says their work is done and
   * they wait only for the user's answer to a suggestion; the panel offers no Cancel for these.
   */
  setWaitsOnlyForYou(runIds: Iterable<string>): void {
    const before = this.runs();
    this.waitsOnlyForYou = new Set(runIds);
    if (JSON.stringify(this.runs()) !== JSON.stringify(before)) this.listChanged();
  }

  /** Called when `runs()` changed without an event (a run became interrupted, or stopped being so). */
  onListChanged(listener: () => void): () => void {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  }

  get(runId: string): StoredRun | undefined {
    return this.runsById.get(runId);
  }

  /** A deep copy: the view's fold mutates its state, and the host keeps folding its own. */
  snapshot(runId: string): RunState | undefined {
    const run = this.runsById.get(runId);
    return run ? structuredClone(run.state) : undefined;
  }

  /** Newest first. */
  runs(): RunListEntry[] {
    return [...this.runsById.values()]
      .map(({ state }): RunListEntry => {
        const entry: RunListEntry = { runId: state.runId, target: state.info?.target ?? state.requestedTarget, status: state.status, startedAt: state.startedAt };
        // A run whose events say it ended is terminal, whatever a stale listing or status says.
        const open = !isTerminalRunState(state.status);
        if (this.interrupted.has(state.runId) && open) entry.interrupted = true;
        if (this.waitsOnlyForYou.has(state.runId) && open) entry.waitsOnlyForYou = true;
        return entry;
      })
      .reverse();
  }

  latestRunId(): string | undefined {
    let last: string | undefined;
    for (const id of this.runsById.keys()) last = id;
    return last;
  }

  private listChanged(): void {
    for (const listener of [...this.listListeners]) listener();
  }

  private evict(): void {
    while (this.runsById.size > this.maxRuns) {
      const oldest = this.runsById.keys().next().value;
      if (oldest === undefined) return;
      this.runsById.delete(oldest);
      this.early.delete(oldest);
    }
  }
}

function keepDetail(d: RunDetail, e: PanelEvent): void {
  switch (e.type) {
    case 'candidate/proposed':
      d.texts.set(e.candidateId, e.text);
      if (e.reasoning) d.reasoning.set(e.candidateId, e.reasoning);
      if (e.thinking) d.thinking.set(e.candidateId, e.thinking);
      if (e.program?.description) d.descriptions.set(e.candidateId, e.program.description);
      return;
    case 'item/evaluated':
      // An abstained grade is no score: its cell stays empty rather than showing the placeholder 0.
      if (e.abstained === undefined) d.scores.set(itemKey(e.candidateId, e.itemId), e.score);
      if (e.output !== undefined) d.outputs.set(itemKey(e.candidateId, e.itemId), e.output);
      return;
    case 'verdict': {
      if (e.itemId === undefined) return;
      const key = itemKey(e.candidateId, e.itemId);
      const entry = d.verdicts.get(key) ?? {};
      const view: JudgeView = {
        winner: e.winner,
        ...(e.rationale === undefined ? {} : { rationale: e.rationale }),
        ...(e.problem === undefined ? {} : { problem: e.problem }),
        ...(e.thinking === undefined ? {} : { thinking: e.thinking }),
      };
      if (e.order === 'child-first') entry.childFirst = view;
      else entry.parentFirst = view;
      d.verdicts.set(key, entry);
      return;
    }
    case 'wealth/step': {
      let steps = d.steps.get(e.candidateId);
      if (!steps) d.steps.set(e.candidateId, (steps = []));
      steps.push({ k: e.k, itemId: e.itemId, delta: e.delta, logWealth: e.logWealth, logThreshold: e.logThreshold, logBest: e.logBest });
      return;
    }
    case 'program/evaluated':
      d.evaluations.set(e.candidateId, e);
      return;
    case 'decision':
      d.records.set(e.record.candidateId, e.record);
      return;
    case 'dataset/loaded':
      for (const item of e.items) {
        d.inputs.set(item.itemId, item.input);
        d.items.set(item.itemId, item);
      }
      return;
    case 'rubric/updated':
      d.rubrics.set(e.version, e.rubric);
      return;
    case 'zero/round':
      d.zeroRounds.set(e.round, e);
      return;
    case 'suggestion':
      d.suggestions.set(e.candidateId, e);
      return;
    default:
      return;
  }
}
