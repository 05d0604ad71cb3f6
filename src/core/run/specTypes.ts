/**
 * The run spec as the engine consumes it: every field resolved, defaults filled in. The JSON
 * schema (schemas/run-spec.schema.json) is the source of truth for what a user may write; its
 * `default` annotations and the defaults below are pinned equal by test/unit/spec/schema.test.ts.
 */
import type { Location } from '../data/diagnostics';
import type { LabelCoverage } from '../data/dataset';
import type { SplitPlan } from '../data/splits';
import type { ScorerSpec } from '../data/scorers/types';
import type { GateName, Population, Schedule } from '../gates/record';
import type { ModelPrice, Role } from '../llm/types';
import type { RunMode } from '../journal/payloadTypes';

export interface ModelSpec {
  /** undefined: the face's configured default model. */
  model?: string;
  baseURL?: string;
  temperature?: number;
  maxTokens?: number;
  /**
   * Sequences at which the endpoint stops the answer (the agent's: a few-shot prompt stops at its
   * next "\nQuestion:", so the model does not write the next example and its answer).
   */
  stop?: string[];
  /** Name of the environment variable holding the key; never the key. */
  apiKeyEnv?: string;
  /** `price:` in USD per million tokens, above the editor's and the shipped price list. */
  price?: ModelPrice;
  /** `free: true`: the endpoint costs nothing (Ollama, vLLM on one's own machine). */
  free?: boolean;
}

export interface GateSpec {
  name: GateName;
  alpha: number;
  /** Fixed bet (gate `pace`). */
  lambda: number;
  /** Mixture grid (pace+, pace-rf, focus). */
  lambdas: number[];
  schedule: Schedule;
  /** Declared candidate budget T for e-lond / fwer-spend (γ_t = 1/T); `gate.horizon`, else `budget.candidates`. */
  horizon: number;
  /**
   * The null of the PACE gates (pace, pace+, pace-rf): 'infinite' = E[Δ] ≤ 0 over items from the
   * task distribution; 'finite' = Σ Δ_i ≤ 0 over this dev set (GATES.md 1.2, finite-population variant).
   */
  population: Population;
  focus: { refreshEvery: number };
  elo: { k: number; matches: number; temperature: number; soft: boolean };
}

export interface BudgetSpec {
  calls?: number;
  tokens?: number;
  dollars?: number;
  wallTimeMinutes?: number;
  iterations?: number;
  candidates: number;
}

/** Where the split's items come from: one dataset cut by the seed, or files for dev/test. */
export type SplitSpec =
  | SplitPlan
  | {
      kind: 'files';
      /** Resolved paths. Feedback items come from `feedback`, else from the run's dataset. */
      dev: string;
      test?: string;
      feedback?: string;
    };

/**
 * How a version of the file meets a model on one item (README "Copilot customizations"):
 * - `chat` (default): one chat call per item, shaped by the file's kind (the file-kind table's
 *   `evaluatedAs`): a prompt is the user message; instructions and agents are the system message,
 *   with the item's message as the user message; a skill is loaded when the model, shown its
 *   description, chooses it (core/evolve/harness.ts);
 * - `command`: a command run per item in the evaluation sandbox, with the candidate file at its
 *   place in a copy of the workspace, that applies it to a real agent and prints its output.
 * `message` is the item's user message where the kind needs one (a template over the item's
 * variables); by default the item's only variable, or its `input`.
 */
export type HarnessSpec =
  | { type: 'chat'; message?: string }
  | {
      type: 'command';
      command: string;
      message?: string;
      timeoutSeconds: number;
      /** Names of variables of Ratchet's environment passed through (never a secret's). */
      env: string[];
      network: 'on' | 'off';
      /** Resolved paths of files copied into the sandbox at their place in the workspace. */
      supportFiles: string[];
    };

export interface SpecSource {
  file: string;
  kind: 'sidecar' | 'front-matter';
}

export interface RunSpec {
  /** The prompt file under evolution, as given to the loader. */
  promptPath: string;
  /** Files the spec was read from (zero, one or both). */
  sources: SpecSource[];
  /** Directory relative paths in the spec resolve against (the prompt's and the sidecar's). */
  baseDir: string;
  /** Resolved dataset path; undefined for a zero-data run. */
  dataset: string | undefined;
  split: SplitSpec;
  /** undefined for a reward-free run. */
  scorer: ScorerSpec | undefined;
  /** No scorer: the pairwise validator is the only judge (gate pace-rf, pairwise, focus or elo). */
  rewardFree: boolean;
  /** How many items carry an expected value, over every dataset file of the run. */
  labels: LabelCoverage;
  /** One entry per role, each already merged with `default`. */
  models: Record<Role, ModelSpec>;
  gate: GateSpec;
  budget: BudgetSpec;
  seed: number;
  mode: RunMode;
  maxPromptTokens: number;
  /** Merge two Pareto parents every other iteration (GEPA's merge), when the front allows. */
  merge: boolean;
  concurrency: number;
  /** Seconds one LLM request may go unanswered before it is abandoned (and retried). */
  callTimeoutSeconds: number;
  harness: HarnessSpec;
  /** Where each written field is, by dotted path (`gate.alpha`), for diagnostics raised later. */
  origin: Record<string, Location>;
}

export { REWARD_FREE_GATES, SCORED_GATES } from '../gates/gateTable';

export const DEFAULTS = {
  gate: {
    name: 'pace+' as GateName,
    rewardFreeName: 'pace-rf' as GateName,
    alpha: 0.05,
    lambda: 0.5,
    lambdas: [0.3, 0.5, 0.7, 0.85],
    schedule: 'fwer-screened' as Schedule,
    population: 'infinite' as Population,
    focus: { refreshEvery: 5 },
    elo: { k: 32, matches: 2, temperature: 173.7, soft: true },
  },
  budget: { candidates: 30 },
  seed: 0,
  mode: 'suggest' as RunMode,
  maxPromptTokens: 4000,
  merge: false,
  concurrency: 4,
  callTimeoutSeconds: 120,
  harness: {
    type: 'chat' as HarnessSpec['type'],
    // An agent reaches its model over the network: the harness has it unless the spec says off.
    command: { timeoutSeconds: 300, network: 'on' as const },
  },
  scorer: {
    exact: { ignoreCase: false, trim: true },
    contains: { ignoreCase: false },
    regex: { flags: '' },
    numeric: { tolerance: 1e-6, relativeTolerance: 0 },
    'llm-rubric': { scale: 10 },
    module: { export: 'score' },
    command: { args: [] as string[], timeoutSeconds: 60, env: {} as Record<string, string>, passEnv: [] as string[] },
  },
} as const;
