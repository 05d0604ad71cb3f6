/**
 * The runs a daemon executes — prompt runs, code searches and dev-set generations alike: start, resume (as the run's
 * run.json says it was), cancel, and what a newly attached client needs to catch up. Each run has its own AbortController; its events go to the client once durable in the
 * journal; the user's decisions, editor writes and VS Code language model calls go through the
 * client link, which waits for a client when none is attached.
 *
 * The daemon is the one owner of each run's status (src/core/journal/runStatus.ts): it folds the
 * run's events into it and pushes every change (`daemon/runStatus`), the run's end included, so
 * no client counts or times anything of its own; an attaching client gets the statuses of the
 * runs going on.
 *
 * A start or resume is answered (`{ runId }`) as soon as the run's journal exists — its first
 * event, or for a resume its first new event or question to the user — so a request never waits
 * for a run to finish, and input errors (bad spec, missing dataset) still come back as its error.
 */
import { basename } from 'node:path';
import { isCancellation, RatchetError } from '../core/errors';
import type { JournaledEvent } from '../core/journal/events';
import type { RunKind } from '../core/journal/payloadTypes';
import { readJournal } from '../core/journal/replay';
import { isOver, resumingStatus, startingStatus, StatusFeed } from '../core/journal/runStatus';
import type { LiveRunStatus } from '../core/journal/runStatus';
import type { Clock } from '../core/ports';
import { readRunOwner, readRunRecord, runPaths } from '../core/journal/journal';
import { runKindRow } from '../core/setup/runKinds';
import { resumeRunOfKind, startRunOfKind } from '../node/runs/runKindStarts';
import type { RunHooks } from '../node/runs/runKindStarts';
import { SystemClock } from '../node/clock';
import type { NodeFiles } from '../node/files';
import { isOwnerAlive } from '../node/process';
import { runController } from '../node/runController';
import { DaemonApplyRequest, DaemonDecideRequest, DaemonRunEventNotification, DaemonRunStatusNotification } from '../protocol/runDaemon';
import type { DaemonResumeParams, DaemonRunIdentity, DaemonRunInfo, DaemonRunSetup, DaemonStartParams } from '../protocol/runDaemon';
import type { ClientLink } from './clientLink';
import { ClientLanguageModels } from './languageModels';
import type { RunControl } from '../core/journal/control';

class DaemonRun {
  runId: string | undefined;
  readonly controller = runController();
  /** Set when the run is registered (its id known): a status is pushed only for a run a client can name. */
  status: StatusFeed | undefined;
  /** Answers the start/resume request; called once. */
  ready: (runId: string) => void = () => undefined;

  constructor(
    /** The file the run evolves: a prompt, or a code search's program. */
    readonly file: string,
    readonly workspace: string,
    readonly title: string,
  ) {}

  identity(): DaemonRunIdentity {
    return { runId: this.runId ?? '', file: this.file, workspace: this.workspace, title: this.title };
  }

  info(): DaemonRunInfo | undefined {
    return this.status && !isOver(this.status.current) ? { ...this.identity(), status: this.status.current } : undefined;
  }
}

export class DaemonRuns {
  private readonly runs = new Map<string, DaemonRun>();
  /** Started runs whose first event has not come yet (they have no id). */
  private starting = 0;

  constructor(
    private readonly files: NodeFiles,
    private readonly link: ClientLink,
    /** A run began or ended: the daemon's lifetime depends on how many are left. */
    private readonly onCountChange: () => void,
    /** Times how long a wait's progress line stays. */
    private readonly clock: Clock = new SystemClock(),
  ) {}

  get count(): number {
    return this.runs.size + this.starting;
  }

  /** The runs going on, each with its status (a run whose journal already says it is over is left out). */
  list(): DaemonRunInfo[] {
    return [...this.runs.values()].flatMap((r) => r.info() ?? []);
  }

  /**
   * A run of any kind, routed by the run-kind table: each new best or edit is offered to the client
   * (or written, in autopilot); a dev-set generation asks nothing and writes its files at its end.
   */
  start(p: DaemonStartParams): Promise<{ runId: string }> {
    this.refuseBusy(p.file);
    refuseBySetup(p.kind, p);
    const run = new DaemonRun(p.file, p.workspace, p.title);
    return this.launch(run, p, (hooks) => startRunOfKind(p.kind, p.file, p.workspace, p.overrides, hooks));
  }

  async resume(p: DaemonResumeParams): Promise<{ runId: string }> {
    if (this.runs.has(p.runId)) throw new RatchetError('badInput', `Run ${p.runId} is already running.`, { runId: p.runId });
    const owner = await readRunOwner(this.files, runPaths(this.files, p.workspace, p.runId).lock);
    if (owner && owner.pid !== process.pid && isOwnerAlive(owner) !== false) {
      throw new RatchetError('badInput', `Run ${p.runId} is still held by process ${owner.pid} on ${owner.host}; stop it there first.`, { runId: p.runId });
    }
    // The kind decides which engine takes the run up; an unreadable run.json fails here, with its reason.
    const { kind } = await readRunRecord(this.files, runPaths(this.files, p.workspace, p.runId).runJson);
    refuseBySetup(kind, p);
    const run = new DaemonRun(p.file, p.workspace, p.title);
    // Its counts go on from the journal's; an unreadable journal fails the resume itself, with its reason.
    const journal = await readJournal(this.files, runPaths(this.files, p.workspace, p.runId).events).catch(() => undefined);
    if (this.runs.has(p.runId)) throw new RatchetError('badInput', `Run ${p.runId} is already running.`, { runId: p.runId });
    this.register(run, p.runId, resumingStatus(p.runId, journal?.events ?? []));
    return this.launch(run, p, (hooks) => resumeRunOfKind(kind, p.runId, p.workspace, hooks));
  }

  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    run.controller.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
    return true;
  }

  /** Two runs on one file would re-base each other's suggestions forever (and two searches race for it). */
  private refuseBusy(file: string): void {
    const busy = [...this.runs.values()].find((r) => r.file === file);
    if (busy) throw new RatchetError('badInput', `${basename(file)} is already being evolved (run ${busy.runId ?? ''}); cancel it first.`, { runId: busy.runId });
  }

  private launch(run: DaemonRun, setup: DaemonRunSetup, go: (hooks: RunHooks) => Promise<{ runId: string }>): Promise<{ runId: string }> {
    const runIdNow = () => run.runId ?? '';
    const control: RunControl = {
      decide: async (suggestion, signal) => {
        if (run.runId) run.ready(run.runId);
        return (await this.link.call(DaemonDecideRequest, { runId: runIdNow(), suggestion }, signal)).answer;
      },
      apply: async (suggestion, by) => (await this.link.call(DaemonApplyRequest, { runId: runIdNow(), suggestion, by }, run.controller.signal)).outcome,
    };
    const hooks: RunHooks = {
      control,
      onEvent: (e) => this.onEvent(run, e),
      signal: run.controller.signal,
      endpointDefaults: setup.endpoint,
      version: setup.version,
      untrusted: setup.untrusted,
      ...(setup.languageModels ? { transport: new ClientLanguageModels(this.link) } : {}),
      // A code search's evaluator slots' load is part of its live status (the editor's status bar shows it).
      onEvaluatorLoad: (load) => run.status?.evaluator(load),
      onWaitingForYou: (candidateId) => run.status?.waitingForYou(candidateId),
    };
    if (!run.runId) this.starting++;
    this.onCountChange();
    return new Promise((resolve, reject) => {
      let answered = false;
      run.ready = (runId) => {
        if (answered) return;
        answered = true;
        resolve({ runId });
      };
      go(hooks)
        .then(
          (outcome) => {
            run.ready(outcome.runId);
            this.ended(run);
          },
          (err: unknown) => {
            if (!answered) {
              answered = true;
              reject(err);
            }
            this.ended(run, err);
          },
        )
        .catch(() => undefined);
    });
  }

  private onEvent(run: DaemonRun, e: JournaledEvent): void {
    if (!run.runId) {
      this.starting--;
      this.register(run, e.runId);
    }
    this.link.notify(DaemonRunEventNotification, { run: run.identity(), event: e });
    run.status?.event(e);
    run.ready(e.runId);
  }

  private register(run: DaemonRun, runId: string, status: LiveRunStatus = startingStatus(runId)): void {
    run.runId = runId;
    this.runs.set(runId, run);
    const push = (next: LiveRunStatus) => this.link.notify(DaemonRunStatusNotification, { run: run.identity(), status: next });
    run.status = new StatusFeed(status, push, this.clock);
    // The first status begins the run for the client, before the start or resume is answered.
    push(status);
  }

  private ended(run: DaemonRun, err?: unknown): void {
    if (run.runId) {
      this.runs.delete(run.runId);
      const error = err === undefined || isCancellation(err) ? undefined : err instanceof Error ? err.message : String(err);
      // A run whose journal said how it ended keeps that status; otherwise it ends here.
      run.status?.end(error);
    } else {
      this.starting--;
    }
    this.onCountChange();
  }
}

/**
 * What the kind's row refuses before the run starts: workspace code in an untrusted workspace, and
 * VS Code's language models where the kind calls its endpoint itself.
 */
function refuseBySetup(kind: RunKind, setup: DaemonRunSetup): void {
  const row = runKindRow(kind);
  if (!row) return;
  const noun = row.noun.charAt(0).toUpperCase() + row.noun.slice(1);
  if (row.needsTrust && setup.untrusted) throw new RatchetError('badInput', `${noun} runs its evaluator, which is workspace code; trust the workspace first.`);
  if (!row.editorModels && setup.languageModels) {
    throw new RatchetError('badInput', `${noun} calls an OpenAI-compatible endpoint; it cannot use VS Code's language models yet. Set ratchet.provider to openai with an endpoint and key.`, { field: 'provider' });
  }
}
