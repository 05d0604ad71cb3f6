/**
 * The Ratchet language server: the editor's side of the engine, in its own process so the editor
 * never freezes; the runs themselves execute in the workspace's run daemon (src/daemon), which
 * outlives a window reload. This file only wires the connection to the feature modules:
 * runHost (runs), suggestions + applyEdit (suggest mode), diagnostics, codeLens, codeActions, runSpecTemplate
 * (Configure), languageModelBridge (vscode.lm), settings, health.
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { CodeActionKind, CodeLensRefreshRequest, createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind } from 'vscode-languageserver/node';
import type { ClientCapabilities } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { RatchetError } from '../core/errors';
import { NodeFiles } from '../node/files';
import { guarded } from '../protocol/errors';
import {
  AcceptSuggestionRequest,
  CancelRunRequest,
  CreateRunSpecRequest,
  DevSetPathsRequest,
  ListModelsRequest,
  ListRunsRequest,
  ListSuggestionsRequest,
  RejectSuggestionRequest,
  ResumeRunRequest,
  RunEventNotification,
  RunStatusNotification,
  StartRunRequest,
  SuggestionChangedNotification,
  TestEvaluatorRequest,
} from '../protocol/lsp';
import type { RatchetInitializationOptions, ServerSettings } from '../protocol/lsp';
import { version } from '../../package.json';
import { EditApplier } from './applyEdit';
import { codeActions } from './codeActions';
import { codeLenses } from './codeLens';
import { modelLine } from './modelLine';
import { RunSpecCache } from './specCache';
import { listModels } from '../node/listModels';
import { OPENAI_BASE_URL } from '../core/run/modelChoice';
import { redactUrl } from '../core/redact';
import { DiagnosticsPublisher } from './diagnostics';
import { OpenDocuments } from './documents';
import { reportStatus, watchProcess } from './health';
import { LanguageModelBridge } from './languageModelBridge';
import { RunHost } from './runHost';
import { createRunSpec } from './runSpecTemplate';
import { testEvaluator } from './testEvaluator';
import { DEFAULT_SETTINGS, endpointDefaults, readSettings } from './settings';
import { SuggestionBook } from './suggestions';
import { uriToPath } from './uris';
import { hideFromEnviron, secretVariableNames } from '../node/environSecrets';

// Test Evaluator runs evaluated code from this process: no key of the editor's environment is left readable in /proc/<pid>/environ.
hideFromEnviron(secretVariableNames());

const connection = createConnection(ProposedFeatures.all);
watchProcess(connection);

const documents = new TextDocuments(TextDocument);
const files = new NodeFiles();
const docs = new OpenDocuments(documents, files);
const applier = new EditApplier(connection, files);
const specs = new RunSpecCache(files);
let settings: ServerSettings = DEFAULT_SETTINGS;
let folders: string[] = [];
let capabilities: ClientCapabilities = {};
/** A run warning was reported and not cleared yet (see runWentAhead). */
let warned = false;

const book = new SuggestionBook(docs, applier, {
  changed: (state) => {
    void connection.sendNotification(SuggestionChangedNotification, state);
    refreshLenses();
  },
  answered: () => refreshLenses(),
});

/**
 * Asks a client that supports it to ask for lenses again. Ratchet's own VS Code client says it does
 * not: it draws a suggestion's commands as links, and tells VS Code itself of the rest (the
 * settings it sends, the server's start and stop) through one door that does not hold VS Code's
 * next request back (src/extension/server/lensRefresh.ts).
 */
function refreshLenses(): void {
  if (capabilities.workspace?.codeLens?.refreshSupport) void connection.sendRequest(CodeLensRefreshRequest.type).catch(() => undefined);
}
const diagnostics = new DiagnosticsPublisher(connection, files, docs);
const runs = new RunHost({
  files,
  book,
  settings: () => settings,
  folders: () => folders,
  languageModels: new LanguageModelBridge(connection),
  progress: () => connection.window.createWorkDoneProgress(),
  notify: (p) => void connection.sendNotification(RunEventNotification, p),
  notifyStatus: (p) => void connection.sendNotification(RunStatusNotification, p),
  warn: (message) => {
    connection.console.warn(message);
    warned = true;
    reportStatus(connection, { health: 'warning', message });
  },
  lost: (message) => {
    connection.console.warn(message);
    warned = true;
    void runs.list().then((all) => reportStatus(connection, { health: 'warning', message, resumable: all.filter((r) => r.resumable).length }));
  },
  log: (message) => connection.console.info(message),
  version,
  // Next to this bundle: out/server.js and out/runDaemon.js.
  daemonScript: join(__dirname, 'runDaemon.js'),
});

/**
 * A warning is about a run (one that failed, or whose process died); the next run that starts or
 * resumes clears it, or the status bar would keep the warning until the server restarts.
 */
function runWentAhead<T>(result: T): T {
  if (warned) {
    warned = false;
    reportStatus(connection, { health: 'ok', message: 'Ready.' });
  }
  return result;
}

function applySettings(raw: unknown): void {
  const read = readSettings(raw);
  settings = read.settings;
  runs.settingsChanged();
  // The Evolve lens's tooltip names the models the settings choose, and the code search lens says
  // whether the workspace is trusted: one refresh says both.
  refreshLenses();
  // Field names only: a setting's value may be the API key.
  for (const p of read.problems) connection.console.warn(p);
}

connection.onInitialize((params) => {
  capabilities = params.capabilities;
  applier.setCapabilities(capabilities);
  const roots = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  folders = roots.map(uriToPath).filter((p): p is string => p !== undefined);
  applySettings((params.initializationOptions as Partial<RatchetInitializationOptions> | undefined)?.settings);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      codeLensProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'ratchet-server', version },
  };
});

connection.onInitialized(() => {
  // The code compiled to get here is what the next start (the next window reload) reads from the
  // compile cache the extension gives this process (serverHost.ts): written now, not only at a
  // clean exit, which a window that goes away may not wait for. Older Node has no flush.
  if (typeof nodeModule.flushCompileCache === 'function') nodeModule.flushCompileCache();
  if (capabilities.workspace?.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const removed = new Set(e.removed.map((f) => uriToPath(f.uri)));
      const added = e.added.map((f) => uriToPath(f.uri)).filter((p): p is string => p !== undefined);
      folders = [...folders.filter((f) => !removed.has(f)), ...added];
    });
  }
  // Runs still going in the workspace's run daemon (a reload) are taken over first; then runs
  // whose process died mid-way are offered to the user, once, now.
  void runs.attach();
  runs.list().then(
    (all) => {
      const resumable = all.filter((r) => r.resumable).length;
      const message = resumable > 0 ? `${resumable} interrupted run${resumable > 1 ? 's' : ''} can be resumed.` : 'Ready.';
      reportStatus(connection, { health: 'ok', message, resumable });
    },
    (err: unknown) => reportStatus(connection, { health: 'warning', message: `Could not list runs: ${err instanceof Error ? err.message : String(err)}` }),
  );
});

connection.onDidChangeConfiguration((p) => applySettings((p as { settings?: unknown }).settings));

// ---- documents ------------------------------------------------------------------------------

const openedAt = new Map<string, number>();
documents.onDidOpen((e) => {
  openedAt.set(e.document.uri, e.document.version);
  const path = uriToPath(e.document.uri);
  if (path) void diagnostics.saved(path, e.document.getText());
});
documents.onDidChangeContent((e) => {
  const path = uriToPath(e.document.uri);
  if (!path) return;
  const edited = e.document.version !== openedAt.get(e.document.uri);
  diagnostics.textChanged(path, e.document.getText(), edited);
  void book.documentChanged(path);
});
documents.onDidSave((e) => {
  const path = uriToPath(e.document.uri);
  if (path) void diagnostics.saved(path, e.document.getText());
});
documents.onDidClose((e) => {
  openedAt.delete(e.document.uri);
  const path = uriToPath(e.document.uri);
  if (!path) return;
  diagnostics.closed(path);
  void book.documentChanged(path);
});

connection.onCodeLens(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const path = uriToPath(params.textDocument.uri);
  return doc && path
    ? codeLenses(
        doc,
        path,
        files,
        book.awaitingAnswer(path),
        (prompt) => specs.spec(prompt),
        (spec) => modelLine(spec, settings),
        settings.trusted,
      )
    : [];
});

connection.onCodeAction(async (params) => {
  const doc = documents.get(params.textDocument.uri);
  const path = uriToPath(params.textDocument.uri);
  const edit = capabilities.workspace?.workspaceEdit;
  const canCreateFiles = edit?.documentChanges === true && edit.resourceOperations?.includes('create') === true;
  return doc && path ? codeActions(params, doc, path, { files, docs, canCreateFiles }) : [];
});

// ---- ratchet/* requests: errors leave as RatchetErrorData (src/protocol/errors.ts) --------------

connection.onRequest(
  StartRunRequest,
  guarded(async (p) => runWentAhead(await runs.start(p))),
);
connection.onRequest(
  DevSetPathsRequest,
  guarded((p) => runs.devSetPaths(p.uri)),
);
connection.onRequest(
  ResumeRunRequest,
  guarded(async (p) => runWentAhead(await runs.resume(p.runId))),
);
connection.onRequest(
  TestEvaluatorRequest,
  guarded(async (p, token) => {
    const path = uriToPath(p.uri);
    if (!path) throw new RatchetError('badInput', `Save ${p.uri} to disk before testing its evaluator.`);
    const stop = new AbortController();
    token.onCancellationRequested(() => stop.abort());
    return testEvaluator(files, settings, path, stop.signal);
  }),
);
connection.onRequest(
  CancelRunRequest,
  guarded(async (p) => ({ cancelled: await runs.cancel(p.runId) })),
);
connection.onRequest(
  ListRunsRequest,
  guarded(async () => ({ runs: await runs.list() })),
);
connection.onRequest(
  AcceptSuggestionRequest,
  guarded((p) => book.accept(p)),
);
connection.onRequest(
  RejectSuggestionRequest,
  guarded((p) => {
    book.reject(p);
    return {};
  }),
);
connection.onRequest(
  ListSuggestionsRequest,
  // After a reload, the runs still going re-ask their pending suggestions as this server attaches
  // to their daemon: a list asked for before that would leave them out (and the editor, which draws
  // the last session's suggestions until this list comes, would take them away).
  guarded(async (p) => {
    await runs.caughtUpWithDaemon();
    await book.arrived();
    return { suggestions: book.list(p.uri === undefined ? undefined : uriToPath(p.uri)) };
  }),
);
connection.onRequest(
  CreateRunSpecRequest,
  guarded((p) => {
    const path = uriToPath(p.uri);
    if (!path) throw new RatchetError('badInput', `Save ${p.uri} to disk before configuring it.`);
    const canCreate = capabilities.workspace?.workspaceEdit?.documentChanges === true && capabilities.workspace.workspaceEdit.resourceOperations?.includes('create') === true;
    return createRunSpec(connection, files, canCreate && capabilities.workspace?.applyEdit === true, path);
  }),
);

connection.onRequest(
  ListModelsRequest,
  guarded(async (_p, token) => {
    const d = endpointDefaults(settings, process.env);
    const baseURL = d.baseURL ?? OPENAI_BASE_URL;
    const baseURLFrom = d.baseURL !== undefined ? (d.baseURLFrom ?? 'OPENAI_BASE_URL') : 'the default, OpenAI';
    const aborted = new AbortController();
    token.onCancellationRequested(() => aborted.abort());
    const target = { baseURL, baseURLFrom, ...(d.apiKey === undefined ? {} : { apiKey: d.apiKey }), ...(d.apiKeyFrom === undefined ? {} : { apiKeyFrom: d.apiKeyFrom }) };
    const models = await listModels(target, aborted.signal);
    return { baseURL: redactUrl(baseURL), baseURLFrom, models, ...(d.model === undefined ? {} : { current: { model: d.model, from: d.modelFrom ?? 'RATCHET_MODEL' } }) };
  }),
);

documents.listen(connection);
connection.listen();
