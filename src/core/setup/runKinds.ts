/**
 * The kinds of run the editor starts, one row each (issue #27, "one door per hop"). Everything on
 * the way from the editor to the engine that differs by kind reads it here: the kind union of the
 * one start request on each wire (`ratchet/startRun`, `daemon/startRun`), which file the server
 * accepts and how it titles the run, the settings the server lays under the request's overrides,
 * the daemon's trust and editor-model refusals, whether the Runs view offers a resume, and the
 * daemon's routing to each kind's start and resume (src/node/runs/runKindStarts.ts).
 *
 * `judge` is a run kind of the journal but not a row: only the CLI and `ratchet mcp` start it.
 * Adding a run kind: CONTRIBUTING.md.
 */
import type { RunKind } from '../journal/payloadTypes';
import type { EvolveOverrides, GenDataOverrides, SearchOverrides } from '../run/overrides';

export interface RunKindRow {
  /** What the run works on: a prompt file (its sidecar `*.ratchet.yaml` stands for it) or a program with EVOLVE-BLOCK regions. */
  readonly file: 'prompt' | 'program';
  /**
   * It always runs workspace code (a code search's evaluator), so an untrusted workspace refuses it
   * before it starts. A prompt run's scorer is workspace code only sometimes; its engine checks that.
   */
  readonly needsTrust: boolean;
  /** An interrupted run (or one its endpoint failed) can be taken up again from its journal. */
  readonly resumable: boolean;
  /** Its LLM calls may go to VS Code's language models (the `vscode-lm` provider). */
  readonly editorModels: boolean;
  /** It writes a dev set beside the prompt: the start answers with those files. */
  readonly writesDevSet: boolean;
  /** The work-done progress title's words before the file's name: "Ratchet: Evolving a.prompt.md". */
  readonly doing: string;
  /** What a message calls a run of this kind. */
  readonly noun: string;
}

export const RUN_KINDS = {
  evolve: { file: 'prompt', needsTrust: false, resumable: true, editorModels: true, writesDevSet: false, doing: 'Evolving', noun: 'a prompt run' },
  /**
   * A prompt run with no candidates: it scores the prompt on the held-out test split and edits
   * nothing. Not resumable: it is short and starts again as cheaply, and the CLI's `ratchet
   * evaluate` journals this kind too from a different engine (src/node/runs/scoreRun.ts) that a
   * prompt run's resume cannot take up.
   */
  evaluate: { file: 'prompt', needsTrust: false, resumable: false, editorModels: true, writesDevSet: false, doing: 'Evaluating', noun: 'an evaluation' },
  /** Its proposer calls an OpenAI-compatible endpoint; it has no way to VS Code's language models yet. */
  search: { file: 'program', needsTrust: true, resumable: true, editorModels: false, writesDevSet: false, doing: 'Searching', noun: 'a code search' },
  'gen-data': { file: 'prompt', needsTrust: false, resumable: true, editorModels: true, writesDevSet: true, doing: 'Generating a dev set for', noun: 'a dev-set generation' },
} as const satisfies Partial<Record<RunKind, RunKindRow>>;

/** A kind the editor can start: a row of the table. */
export type StartRunKind = keyof typeof RUN_KINDS;

/** The row of a journaled run's kind, if the editor starts that kind. */
export function runKindRow(kind: RunKind | undefined): RunKindRow | undefined {
  return kind !== undefined && kind in RUN_KINDS ? RUN_KINDS[kind as StartRunKind] : undefined;
}

/**
 * What the editor may set over a code search's spec: its budgets, gate, islands, seed and the
 * evaluation timeout. Not the evaluator command (the spec names the workspace code that runs) nor
 * where calls go (the settings' endpoint and model).
 */
export type SearchRunOverrides = Omit<SearchOverrides, 'evaluator' | 'baseURL' | 'model'>;

/**
 * What a start of each kind takes over its spec: the request's overrides over the settings'.
 * Evolve's `mode` is one of them; a dev-set generation's `replace` lets it write over an existing
 * dev or test file (the CLI's `--force`), which without it is refused before any call.
 */
export interface RunKindOverrides {
  evolve: EvolveOverrides;
  evaluate: EvolveOverrides;
  search: SearchRunOverrides;
  'gen-data': GenDataOverrides & { replace?: boolean };
}
