/**
 * The Node-side life every run kind shares, written once: the dollar pre-flight on the kind's
 * prices, the clock, the budget, the LLM client and the ports; the journal, new or resumed (the
 * events it holds are replayed and checked, not written twice); each event durable before the
 * face hears of it; rate-limit waits journaled as they happen; the spend after the kind's paid
 * events; the one mapping of an error to the run's last event; and close.
 *
 * A kind (evolveRun.ts, searchRun.ts, genDataRun.ts) is an adapter over it: it loads and checks
 * its inputs, says what it calls and how it prices, and drives its engine with the shell's `emit`.
 */
import { relative, sep } from 'node:path';
import type { LlmLayer } from '../../core/llm/client';
import type { RoleConfig } from '../../core/llm/roles';
import type { LlmTransport, Log } from '../../core/ports';
import { RunBudget } from '../../core/run/budget';
import type { BudgetSpec, RunSpec } from '../../core/run/specTypes';
import { checkDollarBudget } from '../../core/setup/pricing';
import type { RunPrices } from '../../core/setup/pricing';
import { ProvenanceRecorder } from '../../core/setup/provenanceControl';
import type { EngineEvent, JournaledEvent } from '../../core/journal/events';
import { createJournal, resumeJournal } from '../../core/journal/journal';
import type { JournalPorts, JournalWriter, NewRun } from '../../core/journal/journal';
import { activeElapsedMs, replayingControl, replayingEmitter } from '../../core/journal/resume';
import { runEnding } from '../../core/journal/runEnding';
import type { RunEnding } from '../../core/journal/runEnding';
import type { RunControl } from '../../core/journal/control';
import { SystemClock } from '../clock';
import type { NodeFiles } from '../files';
import { nodePorts } from '../ports';
import type { NodePorts } from '../ports';
import { currentOwner } from '../process';
import { runLlmClient } from './runLlm';

export interface RunShellOptions {
  files: NodeFiles;
  /** Where `.ratchet/` lives (runs, caches); absolute. */
  workspace: string;
  spec: { concurrency: number; callTimeoutSeconds: number; seed: number; origin: RunSpec['origin'] };
  roles: RoleConfig;
  /** The kind's prices (setup/pricing.ts pricesFor); a dollar budget they cannot count is refused here, before any run folder. */
  prices: RunPrices;
  budget: BudgetSpec;
  transport?: LlmTransport;
  /** `--max-failures`. */
  maxFailures?: number;
  /** Keep answers in the workspace's response cache (default; runLlm.ts says when not). */
  cache?: boolean;
}

/** A new run's record, or the id of the run to take up again. */
export type RunOpening = { create: NewRun } | { resume: string };

export interface RunJournalOptions {
  /** Each event once it is durable in the journal, with its `seq`. */
  onEvent: (e: JournaledEvent) => void;
  /** Accepted edits of this file are recorded where its history is read (the editor's hover). */
  provenance?: { file: string; runKind: 'evolve' | 'search' };
  /** Added to each event before it is journaled (a search's sandbox notes). */
  enrich?: (e: EngineEvent) => EngineEvent;
  /**
   * Who journals the spend: the engine (a prompt run's loop, whose `cost/update`s are replayed
   * and checked like its other events), or the shell, after each of the kind's paid events
   * (`costUpdate`). The shell's follow the endpoint's answers, not the seed: a resume neither
   * checks nor repeats them, so a journal from before they existed resumes as well.
   */
  cost: 'engine' | 'shell';
  /** Events the kind's face adds when the user answers (a search's offers): not part of the replay either. */
  answered?: (e: EngineEvent) => boolean;
}

export class RunShell {
  readonly clock = new SystemClock();
  readonly budget: RunBudget;
  readonly llm: LlmLayer;
  readonly ports: NodePorts;
  private opened: RunJournal | undefined;
  private offWait: () => void = () => undefined;

  constructor(private readonly o: RunShellOptions) {
    checkDollarBudget({ budget: o.budget, origin: o.spec.origin }, o.prices);
    this.budget = new RunBudget(o.budget, this.clock);
    this.llm = runLlmClient({
      spec: o.spec,
      roles: o.roles,
      prices: o.prices.table,
      files: o.files,
      workspace: o.workspace,
      budget: this.budget,
      clock: this.clock,
      ...(o.transport ? { transport: o.transport } : {}),
      ...(o.maxFailures === undefined ? {} : { maxFailures: o.maxFailures }),
      ...(o.cache === false ? { cache: false } : {}),
    });
    this.ports = nodePorts({ llm: this.llm, seed: o.spec.seed, log: { level: 'warn' } });
  }

  /** Creates the run's journal, or takes up the one it has (and journals `run/resumed`). */
  async journal(opening: RunOpening, o: RunJournalOptions): Promise<RunJournal> {
    const run = await openRunJournal({ ...this.ports, clock: this.clock, workspace: this.o.workspace, meter: this.llm }, opening, o);
    this.opened = run;
    // Calls this run pays for are marked so in the cache: a later resume replays them as paid.
    this.llm.payFor(run.runId);
    // Waits for a rate limit or a backoff depend on the endpoint, not the seed: journaled and shown
    // as they happen, outside the order a resume checks; after the run ended the journal refuses
    // them, and nobody waits any more.
    this.offWait = this.llm.onWait((w) => void run.write({ type: 'llm/waiting', ...run.stamp(), ...w }).catch(() => undefined));
    if ('resume' in opening) {
      const elapsedMs = activeElapsedMs(run.replayed);
      this.budget.continueFrom(elapsedMs, run.replaying);
      await run.write({ type: 'run/resumed', ...run.stamp(), elapsedMs });
    }
    return run;
  }

  /** After the run, whatever its end: the journal flushed and the ports' files closed. */
  async close(): Promise<void> {
    this.offWait();
    await this.opened?.writer.flush().catch(() => undefined);
    await this.ports.close();
  }
}

/** Where a run's journal lives and what its events are stamped and priced with. */
export interface RunJournalPorts extends JournalPorts {
  workspace: string;
  log: Log;
  /** The run's spend, for the shell's cost cadence; absent for a run that calls no model. */
  meter?: Pick<LlmLayer, 'cost' | 'totalCalls'>;
}

/**
 * The run's journal, created or taken up, with each event written durably before the face hears
 * of it. RunShell opens it for a run with an LLM client; a run that calls no model (a program's
 * judge test) opens it alone.
 */
export async function openRunJournal(ports: RunJournalPorts, opening: RunOpening, o: RunJournalOptions): Promise<RunJournal> {
  if ('resume' in opening) {
    const r = await resumeJournal(ports.files, ports.workspace, opening.resume, currentOwner());
    return new RunJournal(r.writer, r.replay.events, ports, o);
  }
  return new RunJournal(await createJournal(ports, ports.workspace, opening.create, currentOwner()), [], ports, o);
}

export class RunJournal {
  readonly runId: string;
  /** The engine's `emit`: checked against the journal while a resume replays it, written after. */
  readonly emit: (e: EngineEvent) => Promise<void>;
  readonly replaying: () => boolean;
  private readonly provenance: ProvenanceRecorder | undefined;

  constructor(
    readonly writer: JournalWriter,
    /** The events the journal held when the run was taken up (none for a new run). */
    readonly replayed: readonly JournaledEvent[],
    private readonly ports: RunJournalPorts,
    private readonly o: RunJournalOptions,
  ) {
    this.runId = writer.runId;
    const { files, clock, log, workspace } = ports;
    this.provenance = o.provenance ? new ProvenanceRecorder({ files, clock, log, root: workspace, file: relative(workspace, o.provenance.file).split(sep).join('/'), runId: () => writer.runId, runKind: o.provenance.runKind }) : undefined;
    for (const e of replayed) this.provenance?.observe(e);
    const unreplayed = (e: EngineEvent) => (o.cost === 'shell' && e.type === 'cost/update') || o.answered?.(e) === true;
    const replay = replayingEmitter(
      writer.runId,
      replayed.filter((e) => !unreplayed(e)),
      this.write,
    );
    this.emit = replay.emit;
    this.replaying = replay.replaying;
  }

  /** Journals the event (durably), then tells the face. */
  readonly write = async (e: EngineEvent): Promise<void> => {
    const journaled = await this.writer.append(this.o.enrich ? this.o.enrich(e) : e);
    this.provenance?.observe(journaled);
    this.o.onEvent(journaled);
  };

  /** The `runId` and `at` every event carries, at this moment. */
  stamp(): { runId: string; at: number } {
    return { runId: this.runId, at: this.ports.clock.now() };
  }

  /** The spend so far, after one of the kind's paid events (none while a resume replays: the journal has them). */
  async costUpdate(): Promise<void> {
    const meter = this.ports.meter;
    if (this.o.cost !== 'shell' || !meter || this.replaying()) return;
    await this.write({ type: 'cost/update', ...this.stamp(), cost: meter.cost(), llmCalls: meter.totalCalls() });
  }

  /** The face's control, with the user's answers and the edits the journal holds given again, never asked twice. */
  control(control: RunControl): RunControl {
    return replayingControl(this.provenance ? this.provenance.control(control) : control, this.replayed);
  }

  /**
   * Journals the run's last event for an error that ended it (`runEnding`: cancelled or failed)
   * and returns that ending. A journal that refuses it (a failed write) does not hide the error
   * that ended the run.
   */
  async ended(err: unknown, signal: AbortSignal): Promise<RunEnding> {
    const ending = runEnding(err, signal);
    await this.write({ ...ending.event, ...this.stamp() }).catch(() => undefined);
    return ending;
  }
}
