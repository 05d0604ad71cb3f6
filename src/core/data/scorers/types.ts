/**
 * Scorers turn one output for one dataset item into a score in [0, 1].
 *
 * Two kinds of failure, handled differently (GATES.md 4.7):
 * - misconfiguration (bad regex, missing module, invalid JSON schema) is found when the scorer is
 *   created and throws RatchetError('badInput') naming the spec field: nothing has been spent yet;
 * - a scorer that throws on one item is that version's failure on that item: `scoreSafely` turns it
 *   into a 0 with a reason. Infrastructure errors (the judge's endpoint down, a cancelled run) are
 *   not the version's fault and are rethrown for the loop to retry or skip for both versions.
 */
import { isCancellation, RatchetError } from '../../errors';
import type { Files, LlmClient, ProcessRunner } from '../../ports';
import type { Location } from '../diagnostics';
import { formatDiagnostic } from '../diagnostics';
import type { DataItem } from '../item';

export const SCORER_TYPES = ['exact', 'contains', 'regex', 'numeric', 'json-schema', 'llm-rubric', 'module', 'command'] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

/** Resolved scorer settings (defaults filled in by the run spec). */
export type ScorerSpec =
  | { type: 'exact'; ignoreCase: boolean; trim: boolean }
  /** `value`: a fixed string every output must contain; otherwise the item's expected value. */
  | { type: 'contains'; ignoreCase: boolean; value?: string }
  /** `pattern`: a fixed regex for every output; otherwise the item's expected value is the pattern. */
  | { type: 'regex'; pattern?: string; flags: string }
  /** Compares the last number in the output; equal when |a − b| ≤ max(tolerance, relativeTolerance·|b|). */
  | { type: 'numeric'; tolerance: number; relativeTolerance: number }
  /** `schema`: an inline JSON schema, or a path relative to the spec file. */
  | { type: 'json-schema'; schema: Record<string, unknown> | string }
  /** The validator role grades against `rubric` with an integer score from 0 to `scale`. */
  | { type: 'llm-rubric'; rubric: string; scale: number }
  /** A JavaScript module (path relative to the spec file) exporting `score(output, item)`. */
  | { type: 'module'; path: string; export: string }
  /**
   * A program given the output on stdin and the item as JSON in RATCHET_ITEM; prints the score. Its
   * environment: the system's basics (ProcessRunner), `env` set by value, and the variables of
   * Ratchet's own environment that `passEnv` names.
   */
  | { type: 'command'; command: string; args: string[]; timeoutSeconds: number; env: Record<string, string>; passEnv: string[] };

export type ScorerSpecOf<T extends ScorerType> = Extract<ScorerSpec, { type: T }>;

export interface ScoreResult {
  /** In [0, 1]. */
  score: number;
  reason?: string;
  /** The model that graded the output, for a scorer that asks a judge (llm-rubric). */
  judgedBy?: string;
}

/**
 * A judging scorer's judge gave no grade, asked twice (#25): there is no score — not a 0, which
 * would count against the version, nor anything else. The gates leave such an item out
 * (docs/gates.md, abstentions); it never ends the run.
 */
export interface ScoreAbstention {
  /** What was wrong with the judge's answer. */
  abstained: string;
  judgedBy?: string;
}

export interface ScoreContext {
  signal?: AbortSignal;
}

export interface Scorer {
  readonly type: ScorerType;
  /** True when every item needs an `expected` value. */
  readonly needsExpected: boolean;
  /** True when scoring runs user code (command): an untrusted workspace must refuse it. */
  readonly requiresTrust: boolean;
  score(output: string, item: DataItem, ctx?: ScoreContext): Promise<ScoreResult | ScoreAbstention>;
}

export interface ScorerDeps {
  /** Directory relative paths (schema file, module, command cwd) resolve against: the spec file's. */
  baseDir: string;
  files?: Files;
  /** For llm-rubric: calls go out with role 'validator'. */
  llm?: LlmClient;
  /** For command. */
  proc?: ProcessRunner;
  /** For module: loads a JavaScript module by absolute path (src/node/scorers.ts provides it). */
  importModule?: (absolutePath: string) => Promise<unknown>;
  /** Where a spec field was written, so a configuration error can point at it. */
  locate?: (field: string) => Location | undefined;
}

export function needsExpected(spec: ScorerSpec): boolean {
  switch (spec.type) {
    case 'exact':
    case 'numeric':
      return true;
    case 'contains':
      return spec.value === undefined;
    case 'regex':
      return spec.pattern === undefined;
    default:
      return false;
  }
}

/**
 * Whether the scorer runs the workspace's code (a command, or a module it imports): known from the
 * spec, so an untrusted face refuses it before the module is ever loaded.
 */
export function runsWorkspaceCode(spec: ScorerSpec): boolean {
  return spec.type === 'module' || spec.type === 'command';
}

/** A configuration error naming the field (and its place in the spec file when known). */
export function scorerConfigError(deps: Pick<ScorerDeps, 'locate'>, field: string, message: string, cause?: unknown): RatchetError {
  const dotted = `scorer.${field}`;
  const loc = deps.locate?.(dotted);
  const text = `${dotted}: ${message}`;
  return new RatchetError('badInput', loc ? formatDiagnostic({ ...loc, severity: 'error', message: text }) : text, { field: dotted, ...(loc ? { file: loc.file, line: loc.line, column: loc.column } : {}) }, cause);
}

/** A per-item failure: the version's output (or the item) cannot be scored. */
export function itemScoreError(scorer: ScorerType, item: DataItem, message: string, cause?: unknown): RatchetError {
  return new RatchetError('badInput', `${scorer} scorer failed on item ${item.id}: ${message}`, { scorer, itemId: item.id }, cause);
}

/** Checks a score from user code. */
export function checkScore(value: unknown, scorer: ScorerType, item: DataItem): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw itemScoreError(scorer, item, `score must be a number in [0, 1], got ${JSON.stringify(value)}`);
  }
  return value;
}

const INFRASTRUCTURE = new Set(['llmHttp', 'llmNetwork', 'llmTimeout', 'llmRetriesExhausted', 'llmMalformed', 'cancelled']);

export interface ScoreOutcome {
  /** In [0, 1]; undefined exactly when the judge abstained. */
  score: number | undefined;
  reason?: string;
  /** True when the scorer threw and the item scored 0 for this version. */
  failed: boolean;
  /** The judge gave no grade (ScoreAbstention): what was wrong with its answer. */
  abstained?: string;
  judgedBy?: string;
}

/** Scores one item; a scorer failure becomes a 0 for this version, infrastructure errors propagate. */
export async function scoreSafely(scorer: Scorer, output: string, item: DataItem, ctx: ScoreContext = {}): Promise<ScoreOutcome> {
  try {
    const r = await scorer.score(output, item, ctx);
    if ('abstained' in r) return { score: undefined, failed: false, abstained: r.abstained, ...(r.judgedBy === undefined ? {} : { judgedBy: r.judgedBy }) };
    return { ...r, score: checkScore(r.score, scorer.type, item), failed: false };
  } catch (err) {
    if (isCancellation(err) || (RatchetError.is(err) && INFRASTRUCTURE.has(err.code))) throw err;
    return { score: 0, reason: err instanceof Error ? err.message : String(err), failed: true };
  }
}

/** A short excerpt of an output for reasons. */
export function excerpt(text: string, max = 80): string {
  const one = text.trim().replace(/\s+/g, ' ');
  return JSON.stringify(one.length > max ? `${one.slice(0, max - 1)}…` : one);
}
