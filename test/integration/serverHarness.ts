// A test client for the built language server (out/server.js): spawns it with --node-ipc, plays
// the editor's part — in-memory documents with versions, `workspace/applyEdit` applied to them
// (refused when the version does not match, as VS Code does), work-done progress, the
// `ratchet/languageModel` answerer — and records every notification for the tests to wait on.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createMessageConnection, IPCMessageReader, IPCMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import {
  ApplyWorkspaceEditRequest,
  CodeActionRequest,
  CodeLensRefreshRequest,
  CodeLensRequest,
  CreateFile,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  TextDocumentEdit,
  WorkDoneProgressCancelNotification,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, CodeAction, CodeLens, Command, Diagnostic, ProgressToken, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { EngineEvent } from '../../src/core/journal/events';
import { foldStatus, startingStatus } from '../../src/core/journal/runStatus';
import type { LiveRunStatus } from '../../src/core/journal/runStatus';
import { AcceptSuggestionRequest, LanguageModelRequest, RejectSuggestionRequest, RunEventNotification, RunStatusNotification, ServerStatusNotification, SuggestionChangedNotification } from '../../src/protocol/lsp';
import type { LanguageModelParams, LanguageModelResult, RunEventParams, RunStatusParams, ServerSettings, ServerStatusParams, SuggestionState } from '../../src/protocol/lsp';

export const SERVER = resolve(__dirname, '../../out/server.js');

export interface ClientOptions {
  /** Workspace folder paths sent in `initialize`. */
  folders: string[];
  settings: ServerSettings;
  /** Answers each suggestion as soon as it is pending (a test about the run, not the file); absent: the test answers. */
  answer?: 'accept' | 'reject';
  /** Answers `ratchet/languageModel`; without it the request fails as with no model installed. */
  languageModel?: (p: LanguageModelParams) => Promise<LanguageModelResult>;
  /** Set in the server's environment, as the extension sets its own (serverHost.ts). */
  env?: Record<string, string>;
}

interface ProgressRecord {
  token: ProgressToken;
  values: { kind: string; title?: string; message?: string; cancellable?: boolean }[];
}

export class TestClient {
  readonly events: RunEventParams[] = [];
  /** `ratchet/runStatus`, in the order they came. */
  readonly runStatuses: RunStatusParams[] = [];
  readonly suggestions: SuggestionState[] = [];
  readonly statuses: ServerStatusParams[] = [];
  /** The server's log (`window/logMessage`), one line each. */
  readonly logs: string[] = [];
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly edits: ApplyWorkspaceEditParams[] = [];
  readonly progress = new Map<string, ProgressRecord>();
  readonly docs = new Map<string, TextDocument>();
  lensRefreshes = 0;
  /** Milliseconds from spawn to the `initialize` result. */
  readyMs = 0;
  private stderr = '';
  private waiters: (() => void)[] = [];
  /** While set, each workspace/applyEdit is recorded and then waits for it (parkEdits). */
  private editsParked: Promise<void> | undefined;

  private constructor(
    readonly child: ChildProcess,
    readonly conn: MessageConnection,
  ) {}

  static async start(o: ClientOptions): Promise<TestClient> {
    if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing; run npm run build first.`);
    const started = performance.now();
    const child = fork(SERVER, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { ...process.env, OPENAI_API_KEY: 'test-key', ...o.env } });
    const conn = createMessageConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    const c = new TestClient(child, conn);
    child.stderr?.on('data', (d: Buffer) => (c.stderr += d.toString()));
    c.wire(o);
    conn.listen();
    await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: o.folders.map((f) => ({ uri: pathToFileURL(f).href, name: f })),
      initializationOptions: { settings: o.settings },
      capabilities: {
        workspace: {
          applyEdit: true,
          workspaceEdit: { documentChanges: true, resourceOperations: ['create'], changeAnnotationSupport: { groupsOnLabel: true } },
          workspaceFolders: true,
          codeLens: { refreshSupport: true },
        },
        window: { workDoneProgress: true },
        textDocument: { synchronization: { didSave: true } },
      },
    });
    c.readyMs = performance.now() - started;
    await conn.sendNotification(InitializedNotification.type, {});
    return c;
  }

  private wire(o: ClientOptions): void {
    const { conn } = this;
    const record =
      <T>(list: T[]) =>
      (p: T) => {
        list.push(p);
        this.wake();
      };
    conn.onNotification(RunEventNotification, record(this.events));
    conn.onNotification(RunStatusNotification, record(this.runStatuses));
    conn.onNotification(SuggestionChangedNotification, (s: SuggestionState) => {
      record(this.suggestions)(s);
      if (!o.answer || s.status !== 'pending') return;
      const ref = { runId: s.runId, candidateId: s.candidateId };
      // A re-based suggestion is pending again: the second answer is refused, and that is fine.
      void (o.answer === 'accept' ? this.conn.sendRequest(AcceptSuggestionRequest, ref) : this.conn.sendRequest(RejectSuggestionRequest, ref)).catch(() => undefined);
    });
    conn.onNotification(ServerStatusNotification, record(this.statuses));
    conn.onNotification(LogMessageNotification.method, (p: { message: string }) => void this.logs.push(p.message));
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.set(p.uri, p.diagnostics);
      this.wake();
    });
    conn.onRequest(WorkDoneProgressCreateRequest.type, (p) => {
      this.progress.set(String(p.token), { token: p.token, values: [] });
    });
    conn.onNotification('$/progress', (p: { token: ProgressToken; value: ProgressRecord['values'][number] }) => {
      this.progress.get(String(p.token))?.values.push(p.value);
      this.wake();
    });
    conn.onRequest(CodeLensRefreshRequest.type, () => {
      this.lensRefreshes++;
    });
    conn.onRequest(ApplyWorkspaceEditRequest.type, (p) => this.applyEdit(p));
    conn.onRequest(LanguageModelRequest, async (p) => {
      if (!o.languageModel) throw new Error('no language model in this test client');
      return o.languageModel(p);
    });
  }

  /** Like VS Code: each TextDocumentEdit applies only if its version is the document's. */
  private async applyEdit(p: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult> {
    this.edits.push(p);
    this.wake();
    await this.editsParked;
    for (const change of p.edit.documentChanges ?? []) {
      if (CreateFile.is(change)) {
        if (!this.docs.has(change.uri)) await this.openText(change.uri, '');
        continue;
      }
      if (!TextDocumentEdit.is(change)) continue;
      const { uri, version } = change.textDocument;
      let doc = this.docs.get(uri);
      if (!doc) {
        // The editor opens a file an edit targets.
        await this.open(fileURLToPath(uri));
        doc = this.docs.get(uri)!;
      }
      if (version !== null && version !== doc.version) return { applied: false, failureReason: `version ${version} is not the document's ${doc.version}` };
      await this.setText(uri, TextDocument.applyEdits(doc, change.edits as TextEdit[]));
    }
    return { applied: true };
  }

  /** The editor holds every workspace/applyEdit (recorded in `edits`) until the returned function is called. */
  parkEdits(): () => void {
    let release = () => undefined as void;
    this.editsParked = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.editsParked = undefined;
      release();
    };
  }

  uriOf(path: string): string {
    return pathToFileURL(path).href;
  }

  async open(path: string, languageId = 'markdown'): Promise<string> {
    const uri = this.uriOf(path);
    await this.openText(uri, readFileSync(path, 'utf8'), languageId);
    return uri;
  }

  private async openText(uri: string, text: string, languageId = 'markdown'): Promise<void> {
    this.docs.set(uri, TextDocument.create(uri, languageId, 1, text));
    await this.conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  /** The "user" (or an applied edit) replaces the document's text: a new version, sent as a full-text change. */
  async setText(uri: string, text: string): Promise<void> {
    const doc = this.docs.get(uri)!;
    const next = TextDocument.create(uri, doc.languageId, doc.version + 1, text);
    this.docs.set(uri, next);
    await this.conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: next.version }, contentChanges: [{ text }] });
  }

  /** The user typed and the editor has not told the server yet: the race a versioned edit closes. */
  typeUnsent(uri: string, text: string): void {
    const doc = this.docs.get(uri)!;
    this.docs.set(uri, TextDocument.create(uri, doc.languageId, doc.version + 1, text));
  }

  async save(uri: string): Promise<void> {
    await this.conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  }

  text(uri: string): string {
    return this.docs.get(uri)!.getText();
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  /** The code actions at a line, with the problems the editor shows there (as VS Code sends them). */
  codeActions(uri: string, line: number, diagnostics: Diagnostic[] = []): Promise<(CodeAction | Command)[] | null> {
    const range = { start: { line, character: 0 }, end: { line, character: 0 } };
    return this.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range, context: { diagnostics } });
  }

  /** Applies a code action's workspace edit as the editor does when the user picks it. */
  applyCodeAction(action: CodeAction): Promise<ApplyWorkspaceEditResult> {
    return this.applyEdit({ edit: action.edit! });
  }

  async cancelProgress(token: ProgressToken): Promise<void> {
    await this.conn.sendNotification(WorkDoneProgressCancelNotification.type, { token });
  }

  statusesOf(runId: string) {
    return this.runStatuses.filter((p) => p.status.runId === runId).map((p) => p.status);
  }

  runEvents(runId: string) {
    return this.events.filter((e) => e.runId === runId).map((e) => e.event);
  }

  /** Resolves with the first truthy value of `probe`, re-checked on every message; fails after `ms`. */
  async waitFor<T>(probe: () => T | undefined | false, what: string, ms = 20_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = probe();
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`Timed out waiting for ${what}. Server stderr:\n${this.stderr.slice(-2000)}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  get serverStderr(): string {
    return this.stderr;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      try {
        await Promise.race([this.conn.sendRequest(ShutdownRequest.type), new Promise((r) => setTimeout(r, 2000))]);
        await this.conn.sendNotification(ExitNotification.type);
      } catch {
        // Already gone.
      }
      await Promise.race([new Promise((r) => this.child.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
      if (this.child.exitCode === null) this.child.kill('SIGKILL');
    }
    this.conn.dispose();
  }
}

/** Every status a fold of these events goes through, the first one included. */
export function statusChanges(runId: string, events: readonly EngineEvent[]): LiveRunStatus[] {
  const changes = [startingStatus(runId)];
  for (const e of events) {
    const next = foldStatus(changes.at(-1)!, e);
    if (next !== changes.at(-1)) changes.push(next);
  }
  return changes;
}
