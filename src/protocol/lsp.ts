/**
 * The language server's wire contract, written once and imported by both ends: the server
 * (src/server) and the VS Code client (src/extension). Every custom method is `ratchet/<verbNoun>`;
 * each type below says which way it flows. Only `vscode-jsonrpc`'s transport-free core is imported,
 * so this file bundles into either end.
 *
 * Standard LSP carries the rest: code lenses (commands in `RatchetCommands`), diagnostics,
 * `workspace/applyEdit` for accepted edits (versioned, so the editor refuses a stale one), and
 * work-done progress per run (`window/workDoneProgress/create`; cancelling it cancels the run).
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { ChatMessage } from '../core/llm/types';
import type { PriceInput } from '../core/llm/prices';
import type { JournaledEvent } from '../core/journal/events';
import type { RunMode } from '../core/journal/payloadTypes';
import type { RunSummary } from '../core/journal/listRuns';
import type { LiveRunStatus } from '../core/journal/runStatus';
import type { GateName } from '../core/gates/record';
import type { RunKindOverrides, StartRunKind } from '../core/setup/runKinds';
import type { RatchetErrorData } from './errors';

// ---------------------------------------------------------------------------------------------
// Settings: client → server, in `initializationOptions` and `workspace/didChangeConfiguration`.

/** Roles a model can be set for; `default` applies to every role without its own. */
export type ModelRole = 'default' | 'agent' | 'proposer' | 'validator' | 'meta' | 'challenger';

/**
 * Everything the server needs from the editor's settings and secrets. Send only what the user set:
 * - gate, alpha, concurrency, budget, mode override every run spec (like the CLI's flags);
 * - baseURL, models, apiKey stand where the CLI reads OPENAI_BASE_URL, RATCHET_MODEL and
 *   OPENAI_API_KEY: below a run spec's own `models`, above the server's environment.
 * `apiKey` comes from SecretStorage: the server passes it to the LLM client only, never to a log,
 * a journal or a notification.
 */
export interface ServerSettings {
  /** 'vscode-lm' sends every LLM call back to the client (`ratchet/languageModel`): no key needed. */
  provider: 'openai' | 'vscode-lm';
  /** OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, …). */
  baseURL?: string;
  /**
   * Model per role. With 'vscode-lm' the value is a model family (e.g. 'gpt-4o') or id. Today the
   * engine takes one model from outside the spec, so only `default` is used; a role's own model
   * is set in the run spec.
   */
  models?: Partial<Record<ModelRole, string>>;
  /** USD per million tokens by model id (`ratchet.models.prices`): below a run spec's price, above the price list. */
  prices?: Record<string, PriceInput>;
  /** The endpoint costs nothing (`ratchet.endpoint.free`): roles calling it count $0. */
  free?: boolean;
  apiKey?: string;
  gate?: GateName;
  alpha?: number;
  concurrency?: number;
  /** Seconds one LLM request may go unanswered (`ratchet.run.callTimeoutSeconds`): over every run spec's. */
  callTimeoutSeconds?: number;
  budget?: { calls?: number; candidates?: number };
  mode?: RunMode;
  /**
   * How long runs keep going after their window closed or reloaded, waiting for it to come back,
   * before they stop (resumable). 0 stops them with the window.
   */
  keepAliveSeconds?: number;
  /** Workspace Trust: false refuses runs whose scorer executes workspace code. */
  trusted: boolean;
}

/** `initialize`'s `initializationOptions`. */
export interface RatchetInitializationOptions {
  settings: ServerSettings;
}

/** `workspace/didChangeConfiguration`'s `settings`: the whole new settings object (a replacement, not a patch). */
export interface RatchetConfigurationChange {
  settings: ServerSettings;
}

// ---------------------------------------------------------------------------------------------
// Runs: client → server requests.

/**
 * One start request for every kind of run the editor starts (src/core/setup/runKinds.ts): the
 * kind, the file (`file:` URI: a prompt, whose sidecar `*.ratchet.yaml` URI resolves to it, or a
 * code search's program), and what the request sets over the run's spec and the settings.
 */
export type StartRunParams = { [K in StartRunKind]: { kind: K; uri: string; overrides?: RunKindOverrides[K] } }[StartRunKind];

/**
 * Where a dev-set generation on the prompt would write (`<name>.dev.jsonl` next to it, the held-out
 * split `<name>.test.jsonl` beside it, as `ratchet gen-data` does), and which of the two exist
 * already: the client asks before it replaces either (the CLI's `--force` rule).
 */
export interface DevSetPaths {
  /** `file:` URIs. */
  dev: string;
  test: string;
  /** Those of the two that exist now. */
  existing: string[];
}

/** Answered once the run's journal exists (its first event is out); input errors answer with a `RatchetErrorData` error (src/protocol/errors.ts). */
export interface StartRunResult {
  runId: string;
  /** The files a kind that writes a dev set will write when it ends. */
  devSet?: DevSetPaths;
}
/**
 * client → server: start a run; its events and statuses follow as `ratchet/runEvent` and
 * `ratchet/runStatus`, and `ratchet/cancelRun` and `ratchet/resumeRun` take it like any other.
 * A kind that runs workspace code is refused in an untrusted workspace; a code search's new best
 * programs are suggestions on the file (`ratchet/suggestionChanged`) as a prompt run's edits are;
 * a dev-set generation writes its two files at its end (nothing, if cancelled).
 */
export const StartRunRequest = new RequestType<StartRunParams, StartRunResult, RatchetErrorData>('ratchet/startRun');

/** client → server: the files Generate Dev Set would write for the prompt (or its sidecar) at `uri`. */
export const DevSetPathsRequest = new RequestType<{ uri: string }, DevSetPaths, RatchetErrorData>('ratchet/devSetPaths');

export interface RunRef {
  runId: string;
}
/** false when no run of that id is going on for this server (finished, or another process owns it). */
export interface CancelRunResult {
  cancelled: boolean;
}
/** client → server: abort a hosted run; `run/cancelled` arrives as its last event. */
export const CancelRunRequest = new RequestType<RunRef, CancelRunResult, void>('ratchet/cancelRun');

/** client → server: resume an interrupted run from its journal (replay; LLM answers come from the cache), a prompt run or a code search as its run.json says. */
export const ResumeRunRequest = new RequestType<RunRef, StartRunResult, RatchetErrorData>('ratchet/resumeRun');

export interface RunListEntry extends RunSummary {
  /** The workspace folder (file system path) whose `.ratchet/runs` holds the run. */
  workspace: string;
  /** Going on now for this server: executed by the workspace's run daemon, which this server is attached to. */
  hosted: boolean;
  /** `interrupted` with a dead owner (or failed by its endpoint), an evolve run or a code search: `ratchet/resumeRun` can take it up. */
  resumable: boolean;
}
export interface ListRunsResult {
  runs: RunListEntry[];
}
/** client → server: every run under the workspace folders' `.ratchet/runs`, newest first. */
export const ListRunsRequest = new RequestType<Record<string, never>, ListRunsResult, void>('ratchet/listRuns');

/**
 * server → client: each engine event of a hosted run, after it is durable in the journal, with its
 * `seq` there. A client that missed some (it joined late, or a notification was lost) reads the
 * journal's events after the last seq it holds.
 */
export interface RunEventParams {
  runId: string;
  /** The file the run evolves: a prompt, or a code search's program. */
  uri: string;
  /** The workspace folder (file system path) whose `.ratchet/runs` holds the run's journal. */
  workspace: string;
  event: JournaledEvent;
}
export const RunEventNotification = new NotificationType<RunEventParams>('ratchet/runEvent');

/**
 * server → client: a hosted run's status each time it changes, as the run daemon pushes it (the
 * daemon owns it; the server keeps no copy). It is also the run's work-done progress. Once the
 * status is over (finished, failed, cancelled, interrupted) nothing more comes for the run. A run
 * whose daemon died gets no last status: `ratchet/serverStatus` says it stopped and can be resumed.
 */
export interface RunStatusParams {
  /** The file the run evolves: a prompt, or a code search's program. */
  uri: string;
  /** The workspace folder (file system path) whose `.ratchet/runs` holds the run's journal. */
  workspace: string;
  status: LiveRunStatus;
}
export const RunStatusNotification = new NotificationType<RunStatusParams>('ratchet/runStatus');

// ---------------------------------------------------------------------------------------------
// Suggestions (suggest mode): the engine waits for the user's answer.

export type SuggestionStatus = 'pending' | 'stale' | 'applied' | 'rejected' | 'dropped';

/** A zero-based LSP range. */
export interface WirePosition {
  line: number;
  character: number;
}

export interface WireRange {
  start: WirePosition;
  end: WirePosition;
}

/**
 * server → client, `ratchet/suggestionChanged`: a gated edit waiting for the user, or what became
 * of it. Enough to draw the inline diff without asking: replacing `range` of `baseText` (the
 * document at `version`) with `replacement` gives `newText`; `range` is the smallest span that changes.
 * - pending: waiting for Accept/Reject. When the user edits the document, a pending suggestion is
 *   re-based onto the new text if its change applies cleanly there (a new `version`, still
 *   pending, `reason` says so), else it becomes stale.
 * - stale: the document moved on and the edit no longer applies; it is never written over the
 *   user's text, and the engine counts it as not applied.
 * - dropped: the run ended (cancelled, failed) before the user answered.
 */
export interface SuggestionState {
  runId: string;
  candidateId: string;
  uri: string;
  status: SuggestionStatus;
  /** The document version the suggestion was computed for; null when the file was not open in the editor. */
  version: number | null;
  /** The whole document text the suggestion was computed on, and the whole text it proposes. */
  baseText: string;
  newText: string;
  /** The replaced span of `baseText`, and the text that replaces it. */
  range: WireRange;
  replacement: string;
  /** Why it is stale or dropped, in words for the user. */
  reason?: string;
}
export const SuggestionChangedNotification = new NotificationType<SuggestionState>('ratchet/suggestionChanged');

export interface SuggestionRef {
  runId: string;
  candidateId: string;
}
/** What the accept led to: `stale` when the document changed first (nothing was written). */
export interface AcceptSuggestionResult {
  outcome: 'applied' | 'stale';
}
/** client → server: the user accepts; answered after the edit went through `workspace/applyEdit` (or was refused as stale). */
export const AcceptSuggestionRequest = new RequestType<SuggestionRef, AcceptSuggestionResult, RatchetErrorData>('ratchet/acceptSuggestion');
/** client → server: the user rejects; the engine records it and moves on. */
export const RejectSuggestionRequest = new RequestType<SuggestionRef, Record<string, never>, RatchetErrorData>('ratchet/rejectSuggestion');

/** client → server: the suggestions this server knows of (after a client reload), optionally for one file. */
export interface ListSuggestionsParams {
  uri?: string;
}
export const ListSuggestionsRequest = new RequestType<ListSuggestionsParams, { suggestions: SuggestionState[] }, void>('ratchet/listSuggestions');

// ---------------------------------------------------------------------------------------------
// Run spec scaffolding (the Configure lens).

/** client → server: create `<name>.ratchet.yaml` next to the prompt from a template (through `workspace/applyEdit`). */
export interface CreateRunSpecResult {
  /** The sidecar's URI; open it in an editor. */
  uri: string;
  /** false when it already existed (left untouched). */
  created: boolean;
}
export const CreateRunSpecRequest = new RequestType<{ uri: string }, CreateRunSpecResult, RatchetErrorData>('ratchet/createRunSpec');

/**
 * client → server: "Ratchet: Test Connection". The server asks the endpoint runs would use (the
 * settings, else its environment, else OpenAI) for its models. Fails with the endpoint's
 * RatchetErrorData (`llmNetwork`, `llmHttp`…), whose message names where the base URL came from.
 */
export interface ListModelsResult {
  /** The base URL asked, its credentials blanked, and where it came from. */
  baseURL: string;
  baseURLFrom: string;
  /** Model ids the endpoint lists, sorted. */
  models: string[];
  /** `ratchet.models.default` (or RATCHET_MODEL) now, and where it came from. */
  current?: { model: string; from: string };
}
export const ListModelsRequest = new RequestType<Record<string, never>, ListModelsResult, RatchetErrorData>('ratchet/listModels');

// ---------------------------------------------------------------------------------------------
// Code search: Test Evaluator.

/**
 * One run of the program's evaluator on the program as saved, in the sandbox, as a search would
 * run it (the spec beside it; every instance). `correct: false` comes with `error`: the exact
 * contract violation (no JSON on stdout, a non-finite score, a non-zero exit, a timeout…) or the
 * evaluator's own reason, and `output`, the end of what it printed.
 */
export interface TestEvaluatorResult {
  /** The command as the spec gives it (placeholders unfilled); absent: ShinkaEvolve's evaluate.py. */
  command?: string;
  correct: boolean;
  /** combined_score. */
  score?: number;
  /** How many instance scores it reported. */
  instances: number;
  /** The public metrics (shown to the proposer). */
  metrics?: Record<string, string | number | boolean | null>;
  feedback?: string;
  error?: string;
  output?: string;
  /** Wall time of the run. */
  ms: number;
}
/** client → server: refused in an untrusted workspace (the evaluator is workspace code), and for a file with marker errors or no spec. */
export const TestEvaluatorRequest = new RequestType<{ uri: string }, TestEvaluatorResult, RatchetErrorData>('ratchet/testEvaluator');

// ---------------------------------------------------------------------------------------------
// Language models through the client: server → client.

/**
 * `ratchet/languageModel`: one chat completion through VS Code's Language Model API (`vscode.lm`).
 * The client selects a chat model matching `model` (family, else id; any available one when
 * neither matches) and returns the whole text. No logprobs: the engine degrades to the gates that
 * do not need them. Cancelled with `$/cancelRequest` when the run is cancelled.
 */
export interface LanguageModelParams {
  messages: ChatMessage[];
  model: { family?: string; id?: string };
  options: { temperature?: number; maxTokens?: number; stop?: string[] };
  /** Shown by VS Code when it asks the user to allow the extension to use the model. */
  justification: string;
}
export interface LanguageModelResult {
  text: string;
  /** The id of the model that answered. */
  model: string;
  /** Token counts when the client can count them (`LanguageModelChat.countTokens`). */
  usage?: { promptTokens: number; completionTokens: number };
}
/**
 * Fails with a RatchetErrorData error the engine uses as it is: `badInput` when no model is
 * available or the user refused consent, `llmHttp` (status 500, transient) when the model failed.
 */
export const LanguageModelRequest = new RequestType<LanguageModelParams, LanguageModelResult, RatchetErrorData>('ratchet/languageModel');

// ---------------------------------------------------------------------------------------------
// Server health: server → client.

/**
 * `ratchet/serverStatus`: 'error' after an uncaught exception or unhandled rejection (the server
 * keeps serving; the client decides whether to restart it), 'ok' once it is ready. `resumable`
 * counts interrupted runs found on start so the client can offer to resume them.
 */
export interface ServerStatusParams {
  health: 'ok' | 'warning' | 'error';
  message: string;
  resumable?: number;
}
export const ServerStatusNotification = new NotificationType<ServerStatusParams>('ratchet/serverStatus');

// ---------------------------------------------------------------------------------------------
// Commands.

/**
 * Command ids the server puts on code lenses; the client registers them (calling the requests
 * above). Arguments, in order: Evolve/Evaluate/Generate Dev Set/Configure `[uri]`; the suggestion commands
 * `[uri, runId, candidateId]`; Accept All / Reject All (every pending suggestion of a run) `[uri, runId]`.
 */
export const RatchetCommands = {
  evolve: 'ratchet.evolve',
  evaluate: 'ratchet.evaluate',
  generateDevSet: 'ratchet.generateDevSet',
  configure: 'ratchet.configure',
  acceptSuggestion: 'ratchet.acceptSuggestion',
  rejectSuggestion: 'ratchet.rejectSuggestion',
  acceptAllSuggestions: 'ratchet.acceptAllSuggestions',
  rejectAllSuggestions: 'ratchet.rejectAllSuggestions',
  showDiff: 'ratchet.showDiff',
  showEvidence: 'ratchet.showEvidence',
  startCodeSearch: 'ratchet.startCodeSearch',
  configureCodeSearch: 'ratchet.configureCodeSearch',
  testEvaluator: 'ratchet.testEvaluator',
} as const;
export type RatchetCommandId = (typeof RatchetCommands)[keyof typeof RatchetCommands];
export type FileCommandArgs = [uri: string];
export type SuggestionCommandArgs = [uri: string, runId: string, candidateId: string];
export type RunSuggestionsCommandArgs = [uri: string, runId: string];
