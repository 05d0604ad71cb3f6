/**
 * Hosts evolve runs in the server process: start, resume, cancel, list. Each run has its own
 * AbortController and a work-done progress in the editor whose Cancel aborts it; each engine
 * event, once durable in the journal, goes to the client as `ratchet/runEvent`.
 *
 * A run is answered (`{ runId }`) as soon as its journal exists — its first event, or for a resume
 * its first new event or question to the user — so a request never waits for a run to finish, and
 * input errors (bad spec, missing dataset) still come back as the request's error.
 */
import { basename, dirname } from 'node:path';
import type { WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import { RatchetError } from '../core/errors';
import type { RunControl } from '../core/evolve/loop';
import type { LlmTransport } from '../core/ports';
import type { EngineEvent } from '../core/run/events';
import { readRunOwner, readRunRecord, runPaths } from '../core/run/journal';
import { listRuns } from '../core/run/listRuns';
import { findPromptForSidecar, isSidecarPath } from '../core/run/spec';
import { resumeEvolveRun, startEvolveRun } from '../node/evolveRun';
import type { EvolveOverrides, EvolveRunOptions, EvolveRunOutcome } from '../node/evolveRun';
import type { NodeFiles } from '../node/files';
import { isOwnerAlive } from '../node/process';
import type { RunEventParams, RunListEntry, ServerSettings, StartRunParams, StartRunResult } from '../protocol/lsp';
import { settingsEnv, settingsOverrides } from './settings';
import type { SuggestionBook } from './suggestions';
import { isUnder, pathToUri, uriToPath } from './uris';

export interface RunHostOptions {
  files: NodeFiles;
  book: SuggestionBook;
  settings: () => ServerSettings;
  /** Workspace folders (paths), first one first. */
  folders: () => string[];
  /** Where LLM calls go when the settings pick VS Code's language models. */
  languageModels: LlmTransport;
  progress: () => Promise<WorkDoneProgressServerReporter>;
  notify: (p: RunEventParams) => void;
  warn: (message: string) => void;
  version: string;
}

/** Files the engine evolves; anything else with EVOLVE-BLOCK markers waits for code search. */
const PROMPT_FILE = /\.(prompt\.md|prompty|md|markdown|txt)$/i;

class HostedRun {
  runId: string | undefined;
  readonly controller = new AbortController();
  progress: WorkDoneProgressServerReporter | undefined;
  tested = 0;
  commits = 0;
  ended = false;
  /** Answers the start/resume request; called once. */
  ready: (runId: string) => void = () => undefined;

  constructor(
    readonly uri: string,
    readonly title: string,
  ) {}
}

type Common = Pick<EvolveRunOptions, 'control' | 'onEvent' | 'signal' | 'env' | 'version' | 'untrusted' | 'transport'>;

export class RunHost {
  private readonly runs = new Map<string, HostedRun>();
  /** Roots of runs started here that are not workspace folders (a prompt outside every folder). */
  private readonly extraRoots = new Set<string>();

  constructor(private readonly o: RunHostOptions) {}

  async start(p: StartRunParams): Promise<StartRunResult> {
    const promptPath = await this.promptPathOf(p.uri);
    const busy = [...this.runs.values()].find((r) => !r.ended && r.uri === pathToUri(promptPath));
    // Two runs suggesting edits to one file would re-base each other's suggestions forever.
    if (busy) throw new RatchetError('badInput', `${basename(promptPath)} is already being evolved (run ${busy.runId ?? ''}); cancel it first.`, { runId: busy.runId });
    const workspace = this.rootFor(promptPath);
    if (!this.o.folders().includes(workspace)) this.extraRoots.add(workspace);
    const overrides: EvolveOverrides = {
      ...settingsOverrides(this.o.settings()),
      ...p.overrides,
      ...(p.mode ? { mode: p.mode } : {}),
      // Evaluate is a run with no candidates: the loop then only scores the starting prompt on the
      // held-out test split (its report/test event) and edits nothing.
      ...(p.kind === 'evaluate' ? { candidates: 0 } : {}),
    };
    const verb = p.kind === 'evaluate' ? 'Evaluating' : 'Evolving';
    const run = new HostedRun(pathToUri(promptPath), `Ratchet: ${verb} ${basename(promptPath)}`);
    return this.launch(run, (common) => startEvolveRun({ ...common, promptPath, workspace, overrides }));
  }

  async resume(runId: string): Promise<StartRunResult> {
    if (this.runs.has(runId)) throw new RatchetError('badInput', `Run ${runId} is already running here.`, { runId });
    const workspace = await this.rootOfRun(runId);
    const paths = runPaths(this.o.files, workspace, runId);
    const owner = await readRunOwner(this.o.files, paths.lock);
    if (owner && owner.pid !== process.pid && isOwnerAlive(owner) !== false) {
      throw new RatchetError('badInput', `Run ${runId} is still held by process ${owner.pid} on ${owner.host}; stop it there first.`, { runId });
    }
    const record = await readRunRecord(this.o.files, paths.runJson);
    const run = new HostedRun(pathToUri(record.target), `Ratchet: Resuming ${basename(record.target)}`);
    this.register(run, runId);
    return this.launch(run, (common) => resumeEvolveRun(runId, workspace, common));
  }

  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run || run.ended) return false;
    run.controller.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
    return true;
  }

  isHosted(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** Every run under the workspace folders, newest first; an interrupted evolve run can be resumed. */
  async list(): Promise<RunListEntry[]> {
    const roots = [...new Set([...this.o.folders(), ...this.extraRoots])];
    const entries: RunListEntry[] = [];
    for (const root of roots) {
      for (const s of await listRuns(this.o.files, root, { isOwnerAlive, now: Date.now() })) {
        entries.push({ ...s, workspace: root, hosted: this.runs.has(s.runId), resumable: s.status === 'interrupted' && s.kind === 'evolve' });
      }
    }
    return entries.sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
  }

  private launch(run: HostedRun, go: (common: Common) => Promise<EvolveRunOutcome>): Promise<StartRunResult> {
    const settings = this.o.settings();
    const inner = this.o.book.controlFor(() => run.runId ?? '');
    const control: RunControl = {
      decide: (s, signal) => {
        if (run.runId) run.ready(run.runId);
        return inner.decide(s, signal);
      },
      apply: (s, by) => inner.apply(s, by),
    };
    const common: Common = {
      control,
      onEvent: (e) => this.onEvent(run, e),
      signal: run.controller.signal,
      env: settingsEnv(settings, process.env),
      version: this.o.version,
      untrusted: !settings.trusted,
      ...(settings.provider === 'vscode-lm' ? { transport: this.o.languageModels } : {}),
    };
    return new Promise<StartRunResult>((resolve, reject) => {
      let answered = false;
      run.ready = (runId) => {
        if (answered) return;
        answered = true;
        resolve({ runId });
      };
      go(common)
        .then(
          (outcome) => run.ready(outcome.runId),
          (err: unknown) => {
            if (!answered) {
              answered = true;
              reject(err);
            } else {
              this.o.warn(`Run ${run.runId ?? ''} stopped: ${err instanceof Error ? err.message : String(err)}`);
            }
          },
        )
        .finally(() => this.ended(run));
    });
  }

  private onEvent(run: HostedRun, e: EngineEvent): void {
    if (!run.runId) this.register(run, e.runId);
    this.o.notify({ runId: e.runId, uri: run.uri, event: e });
    run.ready(e.runId);
    const message = progressMessage(run, e);
    if (message) run.progress?.report(message);
  }

  private register(run: HostedRun, runId: string): void {
    run.runId = runId;
    this.runs.set(runId, run);
    this.o.progress().then(
      (progress) => {
        if (run.ended) return progress.done();
        run.progress = progress;
        progress.begin(run.title, undefined, 'starting', true);
        progress.token.onCancellationRequested(() => this.cancel(runId));
      },
      () => undefined, // no progress UI; the run goes on
    );
  }

  private ended(run: HostedRun): void {
    run.ended = true;
    run.progress?.done();
    if (!run.runId) return;
    this.o.book.endRun(run.runId, 'The run ended before you answered.');
    this.runs.delete(run.runId);
  }

  private async promptPathOf(uri: string): Promise<string> {
    const path = uriToPath(uri);
    if (!path) throw new RatchetError('badInput', `Ratchet runs on files saved on disk; ${uri} is not one. Save it first.`, { uri });
    if (isSidecarPath(path)) {
      const prompt = await findPromptForSidecar(this.o.files, path);
      if (!prompt) throw new RatchetError('badInput', `${basename(path)} has no prompt file next to it (${basename(path).replace(/\.ratchet\.ya?ml$/i, '')}.prompt.md, .prompty, .md or .txt).`, { file: path });
      return prompt;
    }
    if (!PROMPT_FILE.test(path)) {
      throw new RatchetError('badInput', `${basename(path)}: this version evolves prompt files (.prompt.md, .prompty, .md, .txt); code search over EVOLVE-BLOCK regions is not available yet.`, { file: path });
    }
    return path;
  }

  /** The workspace folder holding the prompt, else the first folder, else the prompt's own folder. */
  private rootFor(promptPath: string): string {
    const folders = this.o.folders();
    return folders.find((f) => isUnder(promptPath, f)) ?? folders[0] ?? dirname(promptPath);
  }

  private async rootOfRun(runId: string): Promise<string> {
    for (const root of new Set([...this.o.folders(), ...this.extraRoots])) {
      if (await this.o.files.exists(runPaths(this.o.files, root, runId).runJson)) return root;
    }
    throw new RatchetError('notFound', `No run ${runId} under the workspace folders' .ratchet/runs.`, { runId });
  }
}

function progressMessage(run: HostedRun, e: EngineEvent): string | undefined {
  switch (e.type) {
    case 'candidate/proposed':
      return e.candidateId === 'v0' ? 'scoring the starting prompt' : `testing ${e.candidateId}`;
    case 'decision':
      run.tested++;
      if (e.record.decision === 'commit') run.commits++;
      return `${run.tested} tested · ${run.commits} committed`;
    case 'suggestion':
      return `${e.candidateId} waits for your Accept or Reject`;
    case 'report/test':
      return `test split: ${e.final.mean.toFixed(3)} (n = ${e.n})`;
    default:
      return undefined;
  }
}
