/**
 * What a face may override on top of a run spec: the CLI's flags, the editor's settings. A wire
 * contract too (src/protocol carries it to the server and the run daemon), so it lives in the
 * engine, which the protocol may depend on.
 */
import { RatchetError } from '../errors';
import type { GateName } from '../gates/record';
import type { ModelPrice, Role } from '../llm/types';
import type { RunSpec } from './specTypes';

/** What a face may override on top of the run spec (CLI flags, editor settings); prices below the spec's. */
export interface EvolveOverrides extends FacePrices {
  dataset?: string;
  gate?: GateName;
  alpha?: number;
  budgetCalls?: number;
  candidates?: number;
  seed?: number;
  mode?: RunSpec['mode'];
  baseURL?: string;
  model?: string;
  /** Per-role models (editor settings): below the spec's own `models`, above `model`. */
  roleModels?: Partial<Record<Role, string>>;
  concurrency?: number;
  /** Seconds one LLM request may go unanswered (the spec's `callTimeoutSeconds`). */
  callTimeoutSeconds?: number;
  /** Real failures in a row after which an LLM call gives up (rate-limit waits never count). */
  maxFailures?: number;
}

/**
 * What a face may set over a dev-set generation's spec (`ratchet gen-data`'s flags, the editor's
 * settings): where calls go and with which models, their pace, limits and prices. Not the gate, the
 * mode or the candidates: a generation decides nothing and edits nothing.
 */
export type GenDataOverrides = Pick<EvolveOverrides, 'baseURL' | 'model' | 'roleModels' | 'seed' | 'concurrency' | 'callTimeoutSeconds' | 'maxFailures' | 'budgetCalls' | 'prices' | 'free'>;

/** What a face may set over a code search's spec (`ratchet search`'s flags; the editor's subset, lsp.ts). */
export interface SearchOverrides extends FacePrices {
  evaluator?: string;
  gate?: GateName;
  alpha?: number;
  proposals?: number;
  evaluations?: number;
  concurrency?: number;
  islands?: number;
  budgetDollars?: number;
  seed?: number;
  timeoutSeconds?: number;
  baseURL?: string;
  model?: string;
  /** Per-role models (the editor's ratchet.models.<role>): below the spec's own `models`, above `model`. */
  roleModels?: Partial<Record<Role, string>>;
  /** `--max-failures`: failed attempts in a row before an LLM call gives up (how the run calls, not what it is: a resume may set it too). */
  maxFailures?: number;
  /** The editor's: offer each new best program (suggest) or write it (autopilot); the CLI writes the best at the end (--apply). */
  mode?: 'suggest' | 'autopilot';
}

/** The flag (and spec field) each checked override stands for, as messages name it. */
const OVERRIDE_NAMES = {
  alpha: '--alpha (gate.alpha)',
  budgetCalls: '--budget-calls (budget.calls)',
  candidates: '--candidates (budget.candidates)',
  concurrency: '--concurrency (concurrency)',
  callTimeoutSeconds: '--call-timeout (callTimeoutSeconds)',
  maxFailures: '--max-failures',
  proposals: '--proposals (budget.proposals)',
  evaluations: '--evaluations (budget.evaluations)',
  budgetDollars: '--budget-dollars (budget.dollars)',
  timeoutSeconds: '--timeout (evaluator.timeoutSeconds)',
  islands: '--islands (islands)',
} as const;

export type CheckedOverrides = Partial<Record<keyof typeof OVERRIDE_NAMES, number>>;

/**
 * Refuses an override out of its range, naming the flag. Flags skip the spec's schema, and a run
 * that got as far as its journal would leave a failed run folder behind for a typo; so the faces
 * call this before anything is created. (The CLI's own parsers catch most of these already; the
 * editor and the run daemon pass overrides that never went through them.)
 */
export function checkOverrides(o: CheckedOverrides): void {
  const bad = (key: keyof typeof OVERRIDE_NAMES, want: string, got: number) => new RatchetError('badInput', `${OVERRIDE_NAMES[key]} must be ${want}, got ${got}.`, { field: key });
  if (o.alpha !== undefined && !(Number.isFinite(o.alpha) && o.alpha > 0 && o.alpha < 1)) throw bad('alpha', 'a number between 0 and 1 (exclusive)', o.alpha);
  // Zero is a run of its own for these two: a budget of 0 calls sends nothing and ends at once, and
  // 0 candidates only scores the starting prompt (the editor's Evaluate).
  for (const key of ['budgetCalls', 'candidates'] as const) {
    const v = o[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw bad(key, 'a whole number, 0 or more', v);
  }
  for (const key of ['concurrency', 'maxFailures', 'proposals', 'evaluations', 'islands'] as const) {
    const v = o[key];
    if (v !== undefined && !(Number.isInteger(v) && v > 0)) throw bad(key, 'a whole number above 0', v);
  }
  for (const key of ['callTimeoutSeconds', 'timeoutSeconds', 'budgetDollars'] as const) {
    const v = o[key];
    if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw bad(key, 'a number above 0', v);
  }
}

/** What a face adds to the spec's prices (the editor's settings). */
export interface FacePrices {
  /** USD per million tokens by model id (`ratchet.models.prices`). */
  prices?: Record<string, ModelPrice>;
  /** The face's endpoint costs nothing (`ratchet.endpoint.free`). */
  free?: boolean;
}
