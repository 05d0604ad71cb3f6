/**
 * The wire contract between the language server and the run daemon (src/daemon). The daemon is a
 * detached process per workspace that owns the runs, so a run outlives the extension host — a
 * Reload Window restarts the extension host and with it the language server, but not the daemon.
 * The language server is the daemon's one attached client at a time: it forwards events and
 * run statuses (the daemon owns those) to the editor, and answers what only the editor can (the user's Accept/Reject, a versioned
 * `workspace/applyEdit`, VS Code's language models). While no client is attached those calls
 * wait, and are asked again of the next client that attaches.
 *
 * JSON-RPC over a Unix socket (a named pipe on Windows) in a per-user directory only its owner
 * can open: the run settings it carries include the API key. The key travels only there, as the
 * request's `endpoint` field: the daemon's environment is not the server's (runDaemonLink.ts), so no
 * key sits in it, nor in any process the daemon starts.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';
import type { ChatRequest, ChatResponse } from '../core/llm/types';
import type { EndpointDefaults } from '../core/run/endpointDefaults';
import type { JournaledEvent } from '../core/journal/events';
import type { LiveRunStatus } from '../core/journal/runStatus';
import type { RunKindOverrides, StartRunKind } from '../core/setup/runKinds';
import type { RatchetErrorData } from './errors';
import type { Suggestion } from '../core/journal/control';

/** Bumped on any incompatible change; it is part of the socket's name, so versions never meet. */
export const RUN_DAEMON_PROTOCOL = 6;

/** Which run, for whom: enough for a client that has never heard of it to show it. */
export interface DaemonRunIdentity {
  runId: string;
  /** The file the run evolves: a prompt, or a code search's program. */
  file: string;
  /** The workspace folder whose `.ratchet/runs` holds its journal. */
  workspace: string;
  /** The work-done progress title ("Ratchet: Evolving a.prompt.md", "Ratchet: Searching solve.py"). */
  title: string;
}

/** A run the daemon is executing, as a newly attached client needs it to catch up. */
export interface DaemonRunInfo extends DaemonRunIdentity {
  status: LiveRunStatus;
}

// ---------------------------------------------------------------------------------------------
// server → daemon

export interface AttachParams {
  protocol: number;
  /** How long runs keep going with no client attached before the daemon stops them (resumable). */
  keepAliveMs: number;
}
export interface AttachResult {
  pid: number;
  /** The runs going on, with their statuses now. */
  runs: DaemonRunInfo[];
}
/** Makes this connection the daemon's client (a previous one is let go). */
export const AttachRequest = new RequestType<AttachParams, AttachResult, void>('daemon/attach');

/** How a run reaches the world, decided by the editor's settings when it starts. */
export interface DaemonRunSetup {
  /** Where roles without an endpoint of their own go, and the keys: secret, never journaled or logged. */
  endpoint: EndpointDefaults;
  /** Refuse scorers that execute workspace code, and every kind that needs trust (its evaluator is workspace code). */
  untrusted: boolean;
  /** Send LLM calls to the client (`daemon/languageModel`) instead of an endpoint; a kind without editor models refuses it. */
  languageModels: boolean;
  version: string;
}
/**
 * A run of any kind the editor starts (src/core/setup/runKinds.ts): its file, as the server
 * resolved it, and the overrides the settings and the request set, the request's on top.
 */
export type DaemonStartParams = DaemonRunSetup & { [K in StartRunKind]: { kind: K; file: string; workspace: string; overrides: RunKindOverrides[K]; title: string } }[StartRunKind];
/** The daemon resumes the run as the kind its run.json names (its route in src/node/runs/runKindStarts.ts). */
export interface DaemonResumeParams extends DaemonRunSetup {
  runId: string;
  /** The run's file, from its run.json. */
  file: string;
  workspace: string;
  title: string;
}
/** Answered once the run's journal exists (as `ratchet/startRun`); input errors carry `RatchetErrorData`. */
export const DaemonStartRequest = new RequestType<DaemonStartParams, { runId: string }, RatchetErrorData>('daemon/startRun');
export const DaemonResumeRequest = new RequestType<DaemonResumeParams, { runId: string }, RatchetErrorData>('daemon/resumeRun');
export const DaemonCancelRequest = new RequestType<{ runId: string }, { cancelled: boolean }, void>('daemon/cancelRun');
/**
 * The runs going on, each with its live status — answered to any connection, attached or not: a
 * follower that is not the editor (`ratchet mcp`'s run_status) reads them without taking the
 * editor's place as the daemon's client.
 */
export const DaemonListRunsRequest = new RequestType<Record<string, never>, { runs: DaemonRunInfo[] }, void>('daemon/listRuns');

// ---------------------------------------------------------------------------------------------
// daemon → server

/** Each engine event, once durable in the journal, with its `seq` there. */
export const DaemonRunEventNotification = new NotificationType<{ run: DaemonRunIdentity; event: JournaledEvent }>('daemon/runEvent');
/**
 * The run's status, each time it changes (src/core/journal/runStatus.ts). The daemon is its one owner:
 * a client shows it and keeps no copy. The run's end is a status too: once it is over (finished,
 * failed with its error, cancelled, interrupted) nothing more comes for the run.
 */
export const DaemonRunStatusNotification = new NotificationType<{ run: DaemonRunIdentity; status: LiveRunStatus }>('daemon/runStatus');
/** The user's answer to a gated suggestion (suggest mode). Cancelled when the run stops. */
export const DaemonDecideRequest = new RequestType<{ runId: string; suggestion: Suggestion }, { answer: 'accept' | 'reject' }, void>('daemon/decide');
/** Write an accepted edit through the editor (versioned, undoable). */
export const DaemonApplyRequest = new RequestType<{ runId: string; suggestion: Suggestion; by: 'autopilot' | 'user' }, { outcome: 'applied' | 'stale' }, void>('daemon/apply');
/** One chat completion through VS Code's language models. */
export const DaemonLanguageModelRequest = new RequestType<ChatRequest, ChatResponse, RatchetErrorData>('daemon/languageModel');
/** The daemon has no runs left and is going away; start the next run in a new one. */
export const DaemonExitingNotification = new NotificationType<{ reason: string }>('daemon/exiting');
