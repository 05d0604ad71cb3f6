/**
 * The editor's runs, as the language server sees them: it checks and resolves what the user asked
 * (which file, which workspace folder, which settings), hands the run to the run daemon that
 * executes it (runDaemonLink.ts), and relays the daemon's traffic to the editor: each engine
 * event as `ratchet/runEvent`, each run status as `ratchet/runStatus` and as the run's work-done
 * progress (whose Cancel cancels the run), suggestions into the SuggestionBook, language model
 * calls to the client. The daemon owns the runs' statuses; this server counts and times nothing.
 *
 * Runs live in the daemon, not here, so they outlive this process: after a Reload Window the new
 * server attaches to the daemon and takes over the runs still going (`adopt`).
 */
import { basename, dirname } from 'node:path';
import type { WorkDoneProgressServerReporter } from 'vscode-languageserver/node';
import { RatchetError } from '../core/errors';
import { ROLES } from '../core/llm/types';
import type { LlmTransport } from '../core/ports';
import { isOver } from '../core/journal/runStatus';
import type { LiveRunStatus } from '../core/journal/runStatus';
import { readRunRecord, runPaths } from '../core/journal/journal';
import { listRuns } from '../core/journal/listRuns';
import { findPromptForSidecar, isSidecarPath, loadRunSpec } from '../core/setup/spec';
import { promptCandidatesFor } from '../core/setup/specSource';
import { RUN_KINDS, runKindRow } from '../core/setup/runKinds';
import { isPromptPath, promptExtensionsText } from '../core/files/fileKinds';
import { daemonAddress } from '../node/daemonAddress';
import type { NodeFiles } from '../node/files';
import { streamJournal } from '../node/journalStream';
import { isOwnerAlive } from '../node/process';
import { promptPathOfRun } from '../node/runs/storedRun';
import { loadCodeSpec } from '../node/runs/searchSpecFile';
import { genDataPaths } from '../node/runs/genDataPaths';
import type { CodeRunSpec } from '../core/code/spec';
import type { RunSpec } from '../core/run/specTypes';
import type { DevSetPaths, RunEventParams, RunListEntry, RunStatusParams, ServerSettings, StartRunParams, StartRunResult } from '../protocol/lsp';
import { DaemonCancelRequest, DaemonResumeRequest, DaemonStartRequest } from '../protocol/runDaemon';
import type { DaemonRunIdentity, DaemonRunSetup, DaemonStartParams } from '../protocol/runDaemon';
import { RunDaemonLink } from './runDaemonLink';
import { endpointDefaults, settingsOverridesFor } from './settings';
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
  notifyStatus: (p: RunStatusParams) => void;
  warn: (message: string) => void;
  /** The run daemon stopped with runs going: they can be resumed. */
  lost: (message: string) => void;
  log: (message: string) => void;
  version: string;
  /** The run daemon's script. */
  daemonScript: string;
}

/** How long runs keep going with no window attached, when the settings do not say. */
export const DEFAULT_KEEP_ALIVE_SECONDS = 120;

/**
 * A run the daemon executes, as this server shows it: its work-done progress, nothing else (the
 * daemon owns its status). `undefined` when the client has no progress UI; the run goes on.
 */
type Shown = Promise<WorkDoneProgressServerReporter | undefined>;

/** A run of this server's that shows no progress now: it waits for the user's answer. */
const WAITING: Shown = Promise.resolve(undefined);

export class RunHost {
  /** The runs going on for this server (a status not over yet came for each), with their progress. */
  private readonly runs = new Map<string, Shown>();
  /** Roots of runs started here that are not workspace folders (a prompt outside every folder). */
  private readonly extraRoots = new Set<string>();
  private readonly daemon: RunDaemonLink;
  /** The first attach (runs going on since before a reload) settles before any list is answered. */
  private caughtUp: Promise<void> = Promise.resolve();

  constructor(private readonly o: RunHostOptions) {
    this.daemon = new RunDaemonLink({
      address: () => daemonAddress(this.o.folders(), this.o.version),
      script: o.daemonScript,
      keepAliveMs: () => (this.o.settings().keepAliveSeconds ?? DEFAULT_KEEP_ALIVE_SECONDS) * 1000,
      log: o.log,
      handlers: {
        event: (run, e) => this.o.notify({ runId: run.runId, uri: pathToUri(run.file), workspace: run.workspace, event: e }),
        status: (run, status) => this.onStatus(run, status),
        decide: (runId, s, signal) => this.o.book.controlFor(() => runId).decide(s, signal),
        apply: async (runId, s, by) => {
          const outcome = await this.o.book.controlFor(() => runId).apply(s, by);
          return outcome === 'dry-run' ? 'applied' : outcome;
        },
        chat: (req, signal) => this.o.languageModels.chat(req, signal),
        adopted: (runs) => {
          for (const info of runs) this.onStatus(info, info.status);
        },
        lost: (why, gone) => {
          const runIds = [...this.runs.keys()];
          if (runIds.length === 0) return;
          for (const runId of runIds) this.ended(runId, `The run stopped before you answered: ${why}.`);
          // Until the daemon's process is gone its runs would still list as running, not resumable.
          void gone.then(() => this.o.lost(`${runIds.length} run${runIds.length > 1 ? 's' : ''} stopped (${why}); resume from the Runs view.`));
        },
      },
    });
  }

  /** Takes over the runs the workspace's daemon is executing, if it runs (after a reload). */
  attach(): Promise<void> {
    this.caughtUp = this.daemon.attachExisting().catch((err: unknown) => this.o.warn(`Could not reach the run process: ${err instanceof Error ? err.message : String(err)}`));
    return this.caughtUp;
  }

  /** Settles once the first attach has (the runs going on since before a reload taken over, or none found). */
  caughtUpWithDaemon(): Promise<void> {
    return this.caughtUp;
  }

  /** The keep-alive setting may have changed. */
  settingsChanged(): void {
    void this.daemon.settingsChanged();
  }

  /**
   * A run of any kind the editor starts (src/core/setup/runKinds.ts): the file the kind works on,
   * its workspace folder and title, the settings' overrides under the request's, and the endpoint
   * setup; the daemon runs it. One run per file is the daemon's rule (it knows every run, this
   * server only those it heard of). The run's first status comes before this answer (one socket,
   * in order) and shows it.
   */
  async start(p: StartRunParams): Promise<StartRunResult> {
    const row = RUN_KINDS[p.kind];
    const file = row.file === 'prompt' ? await this.promptPathOf(p.uri) : this.programPathOf(p.uri);
    const workspace = this.rootFor(file);
    if (!this.o.folders().includes(workspace)) this.extraRoots.add(workspace);
    const title = `Ratchet: ${row.doing} ${basename(file)}`;
    const spec = await (row.file === 'prompt' ? loadRunSpec(this.o.files, file) : loadCodeSpec(this.o.files, file, {})).catch(() => undefined);
    const devSet = row.writesDevSet ? await this.devSetPaths(p.uri) : undefined;
    const overrides = { ...settingsOverridesFor(p.kind, this.o.settings()), ...p.overrides };
    // The kind and its overrides travel together, as the request paired them.
    const daemonParams = { ...this.setup(spec), kind: p.kind, file, workspace, title, overrides } as DaemonStartParams;
    const { runId } = await this.daemon.request(DaemonStartRequest, daemonParams);
    return devSet ? { runId, devSet } : { runId };
  }

  /** The files a dev-set generation on the prompt writes (node/genDataRun.ts decides), and which exist. */
  async devSetPaths(uri: string): Promise<DevSetPaths> {
    const { devPath, testPath } = genDataPaths(await this.promptPathOf(uri), undefined);
    const existing: string[] = [];
    for (const path of [devPath, testPath]) if (await this.o.files.exists(path)) existing.push(pathToUri(path));
    return { dev: pathToUri(devPath), test: pathToUri(testPath), existing };
  }

  /** Resumes a run of any resumable kind: the daemon takes it up as its run.json says. */
  async resume(runId: string): Promise<StartRunResult> {
    if (this.runs.has(runId)) throw new RatchetError('badInput', `Run ${runId} is already running.`, { runId });
    const workspace = await this.rootOfRun(runId);
    const record = await readRunRecord(this.o.files, runPaths(this.o.files, workspace, runId).runJson);
    const title = `Ratchet: Resuming ${basename(record.target)}`;
    // The run's file in this workspace folder, not the path it started with (the folder may have
    // been copied or moved).
    const identity = { runId, file: promptPathOfRun(record, workspace), workspace, title };
    const spec = record.kind === 'search' ? (record.spec as CodeRunSpec) : await loadRunSpec(this.o.files, identity.file).catch(() => undefined);
    return await this.daemon.request(DaemonResumeRequest, { ...this.setup(spec), ...identity });
  }

  async cancel(runId: string): Promise<boolean> {
    if (!this.runs.has(runId)) return false;
    return (await this.daemon.request(DaemonCancelRequest, { runId })).cancelled;
  }

  /** Every run under the workspace folders, newest first; an interrupted run (or one the endpoint failed) of a resumable kind can be resumed. */
  async list(): Promise<RunListEntry[]> {
    await this.caughtUp;
    const roots = [...new Set([...this.o.folders(), ...this.extraRoots])];
    const entries: RunListEntry[] = [];
    for (const root of roots) {
      for (const s of await listRuns(this.o.files, root, { isOwnerAlive, now: Date.now(), streamJournal })) {
        entries.push({ ...s, workspace: root, hosted: this.runs.has(s.runId), resumable: s.resumable && runKindRow(s.kind)?.resumable === true });
      }
    }
    return entries.sort((a, b) => (a.runId < b.runId ? 1 : a.runId > b.runId ? -1 : 0));
  }

  dispose(): void {
    this.daemon.dispose();
  }

  /**
   * How the run reaches its endpoints. The keys go in the request; the daemon's environment has
   * none: only the variables the run spec's roles take their keys from (`apiKeyEnv`), none when the
   * spec does not load (the daemon says why).
   */
  private setup(spec: Pick<RunSpec, 'models'> | undefined): DaemonRunSetup {
    const settings = this.o.settings();
    const keyNames = [...new Set(ROLES.map((role) => spec?.models[role].apiKeyEnv).filter((name): name is string => name !== undefined))];
    return {
      endpoint: endpointDefaults(settings, process.env, keyNames),
      untrusted: !settings.trusted,
      languageModels: settings.provider === 'vscode-lm',
      version: this.o.version,
    };
  }

  /**
   * Relays a status the daemon pushed: to the client as it is, and as the run's work-done progress
   * (begun by its first status, ended by one that is over).
   */
  private onStatus(identity: DaemonRunIdentity, status: LiveRunStatus): void {
    this.o.notifyStatus({ uri: pathToUri(identity.file), workspace: identity.workspace, status });
    const shown = this.runs.get(status.runId);
    if (isOver(status)) {
      if (status.state === 'failed' && status.error !== undefined) this.o.warn(`Run ${status.runId} stopped: ${status.error}`);
      this.ended(status.runId, 'The run ended before you answered.');
    } else if (status.state === 'waiting-for-you') {
      // A run that waits for the user's answer works no more meanwhile (a search done but for the
      // answer to its best, or an evolve run paused on a suggestion): no spinner says it does; the
      // status bar's own item says it waits for you. The run stays this server's until it ends,
      // and an evolve run that goes on after the answer gets a progress again.
      void shown?.then((progress) => progress?.done());
      this.runs.set(status.runId, WAITING);
    } else if (shown && shown !== WAITING) {
      void shown.then((progress) => progress?.report(status.line));
    } else {
      this.show(identity, status.line);
    }
  }

  /** The run's progress, begun the first time the run is heard of; its Cancel cancels the run. */
  private show(identity: DaemonRunIdentity, line: string): void {
    const { runId } = identity;
    if (!this.o.folders().includes(identity.workspace)) this.extraRoots.add(identity.workspace);
    const shown: Shown = this.o.progress().then(
      (progress) => {
        progress.begin(identity.title, undefined, line, true);
        progress.token.onCancellationRequested(() => void this.cancel(runId).catch(() => undefined));
        return progress;
      },
      () => undefined, // no progress UI; the run goes on
    );
    this.runs.set(runId, shown);
  }

  private ended(runId: string, why: string): void {
    this.o.book.endRun(runId, why);
    const shown = this.runs.get(runId);
    this.runs.delete(runId);
    void shown?.then((progress) => progress?.done());
  }

  private async promptPathOf(uri: string): Promise<string> {
    const path = savedPath(uri);
    if (isSidecarPath(path)) {
      const prompt = await findPromptForSidecar(this.o.files, path);
      if (!prompt) {
        const names = promptCandidatesFor(path).map((p) => basename(p));
        throw new RatchetError('badInput', `${basename(path)} has no prompt file next to it (${names.slice(0, -1).join(', ')} or ${names.at(-1)}).`, { file: path });
      }
      return prompt;
    }
    // Anything else (code with EVOLVE-BLOCK markers) is a code search's.
    if (!isPromptPath(path)) {
      throw new RatchetError('badInput', `${basename(path)} is not a prompt file (${promptExtensionsText()}); a program with EVOLVE-BLOCK regions takes Start Code Search.`, { file: path });
    }
    return path;
  }

  /** The program a code search evolves: any saved file but a prompt or a run spec (the engine reads its markers). */
  private programPathOf(uri: string): string {
    const path = savedPath(uri);
    if (isPromptPath(path) || isSidecarPath(path)) {
      throw new RatchetError('badInput', `${basename(path)} is a prompt run's file; Evolve it. Code search evolves a program's EVOLVE-BLOCK regions.`, { file: path });
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

function savedPath(uri: string): string {
  const path = uriToPath(uri);
  if (!path) throw new RatchetError('badInput', `Ratchet runs on files saved on disk; ${uri} is not one. Save it first.`, { uri });
  return path;
}
