/**
 * What a run will roughly cost, said before its first call: "≈ 412 calls, ≈ $0.38". An upper-ish
 * estimate of what the loop (evolve/loop.ts, evolve/gateRunner.ts) pays for when the budget in
 * candidates is used up: every candidate is tested on the whole dev set (no early stop), the
 * incumbent's dev outputs are paid for once (cached after, GATES.md 4.3), the held-out test split
 * is scored for the first and the final version. Tokens come from the prompt's and the items'
 * lengths with assumed answer lengths; no cached-input discount. Not counted: a committed version's
 * run over the feedback split for Pareto parent choice (commits are few), retries, and the response
 * cache, which makes a rerun or a resume cheaper.
 */
import type { DataItem } from '../data/item';
import { DIRECT_MINIBATCH } from '../evolve/directGate';
import { MINIBATCH } from '../evolve/loop';
import { gateRow } from '../gates/gateTable';
import { ROLES } from '../llm/types';
import type { ModelPrice, Role } from '../llm/types';
import type { RunSummaryInfo } from '../journal/payloadTypes';
import type { RunSpec } from '../run/specTypes';
import { estimateTokens } from '../llm/tokens';

export type RunEstimate = NonNullable<RunSummaryInfo['estimate']>;

/** Each role's model (undefined: not named, the editor picks) and its price (undefined: unpriced). */
export type RolePrices = Record<Role, { model: string | undefined; price: ModelPrice | undefined }>;

/** What the estimate reads of a run's inputs (run/spec.ts RunInputs): the template is the prompt body. */
export interface EstimateInput {
  spec: RunSpec;
  template: { text: string };
  splits: { feedback: readonly DataItem[]; dev: readonly DataItem[]; test: readonly DataItem[] };
  /** The agent's LLM calls per evaluation (evolve/harness.ts agentCallsPerEvaluation); default 1. */
  agentCalls?: number;
}

/** Lengths in tokens that nothing tells before the run: generous, so the estimate errs high. */
export const ASSUMED = {
  /** An agent's answer when the spec sets no models.agent.maxTokens. */
  answer: 256,
  /** The proposer's instructions and its memory of rejected edits, around the prompt and traces. */
  proposerFrame: 600,
  /** The proposer's reasoning, next to the whole revised prompt it returns. */
  proposerReasoning: 300,
  /** A judge's rubric and instructions (pairwise validator, llm-rubric scorer). */
  judgeFrame: 300,
  /** A judge's verdict or score with its rationale. */
  verdict: 150,
  /** An Adaptive Focus rubric refresh: recent decisions in, a new rubric out. */
  metaIn: 1500,
  metaOut: 300,
  /** A generated task (the values of the prompt's variables). */
  zeroTask: 120,
} as const;

/**
 * What a run does with its LLM: `evolve` the loop on a dataset; `zeroDataEvolve` the loop on the
 * dev tasks it writes itself as it goes; `genData` only the writing (the Challenger writes tasks,
 * the Solver — the agent — answers them, the Judge — the validator — scores them; no proposer);
 * `judge` one given candidate's test on the dev items (no proposer, no held-out report).
 */
/** `evaluate`: an evolve run allowed no candidates (Evaluate), which only scores the starting prompt. */
export type RunCalls = 'evolve' | 'zeroDataEvolve' | 'genData' | 'judge' | 'evaluate';

/** The roles a run calls: the pre-flight needs a price for these and only these, and the meter counts them. */
export function rolesCalled(spec: RunSpec, calls: RunCalls = 'evolve'): Role[] {
  const zero = calls === 'zeroDataEvolve' || calls === 'genData';
  // A command harness runs the agent itself: Ratchet calls no agent model (zero-data's Solver still is one).
  const agent = zero || spec.harness.type !== 'command';
  const loop = calls === 'evolve' || calls === 'zeroDataEvolve';
  // Evaluate puts nothing through the gate: only an llm-rubric scorer calls the validator.
  const validator = zero || (calls !== 'evaluate' && gateRow(spec.gate.name).kind !== 'scored') || spec.scorer?.type === 'llm-rubric';
  return ROLES.filter((r) => (r === 'agent' && agent) || (r === 'proposer' && loop) || (r === 'validator' && validator) || (r === 'meta' && loop && spec.gate.name === 'focus') || (r === 'challenger' && zero));
}

export interface Tally {
  calls: number;
  input: number;
  output: number;
}

/** An empty tally per role, and `add(role, calls, input, output)`: that many calls, each with that many input and output tokens. */
export function roleTally(): { tally: Record<Role, Tally>; add: (role: Role, calls: number, input: number, output: number) => void } {
  const tally = Object.fromEntries(ROLES.map((r) => [r, { calls: 0, input: 0, output: 0 }])) as Record<Role, Tally>;
  const add = (role: Role, calls: number, input: number, output: number): void => {
    tally[role].calls += calls;
    tally[role].input += calls * input;
    tally[role].output += calls * output;
  };
  return { tally, add };
}

export function estimateRun({ spec, template, splits, agentCalls = 1 }: EstimateInput, prices: RolePrices): RunEstimate {
  const { tally, add } = roleTally();
  const prompt = estimateTokens(template.text);
  const answer = spec.models.agent.maxTokens ?? ASSUMED.answer;
  // `agentCalls` agent calls per (version, item); an llm-rubric scorer adds a validator call to score it.
  const agent = (calls: number, items: readonly DataItem[]): void => {
    const item = meanTokens(items);
    add('agent', calls * agentCalls, prompt + item, answer);
    if (spec.scorer?.type === 'llm-rubric') add('validator', calls, ASSUMED.judgeFrame + item + answer, ASSUMED.verdict);
  };

  const iterations = spec.budget.iterations ?? spec.budget.candidates;
  const candidates = Math.min(spec.budget.candidates, iterations);
  const { feedback, dev, test } = splits;
  // Evaluate (a run allowed no candidates) proposes and tests nothing: it scores the starting prompt on the test split, once.
  if (candidates === 0) {
    if (spec.scorer && test.length > 0) agent(test.length, test);
    return summarize(spec, tally, prices);
  }

  // Reflection: the parent on a feedback minibatch, then the proposer, every iteration.
  const batch = Math.min(MINIBATCH, feedback.length);
  agent(iterations * batch, feedback);
  add('proposer', iterations, ASSUMED.proposerFrame + prompt + batch * (meanTokens(feedback) + answer), prompt + ASSUMED.proposerReasoning);

  // The gate: each candidate's dev outputs, the incumbent's once, and the judge's calls.
  const gate = spec.gate;
  const row = gateRow(gate.name);
  // Scored gates and PACE on verdicts go through the dev items one by one; the Direct pairwise
  // gates show the judge one minibatch.
  if (row.kind === 'scored' || row.pace) {
    agent((candidates + 1) * dev.length, dev);
    if (gate.name === 'pace-rf') add('validator', 2 * candidates * dev.length, ASSUMED.judgeFrame + meanTokens(dev) + 2 * answer, ASSUMED.verdict);
  } else {
    const shown = Math.min(DIRECT_MINIBATCH, dev.length);
    // Elo also matches the child against archive members, whose outputs may have been dropped.
    const opponents = gate.name === 'elo' ? 1 + gate.elo.matches : 1;
    agent((candidates * opponents + 1) * shown, dev);
    const side = prompt + shown * (meanTokens(dev) + answer);
    add('validator', 2 * candidates * opponents, ASSUMED.judgeFrame + 2 * side, ASSUMED.verdict);
    if (gate.name === 'focus') add('meta', Math.floor(candidates / gate.focus.refreshEvery), ASSUMED.metaIn, ASSUMED.metaOut);
  }

  // The held-out report: the first and the final version on every test item.
  if (spec.scorer && test.length > 0) agent(2 * test.length, test);

  return summarize(spec, tally, prices);
}

/**
 * A judge run (core/judgeEdit): a candidate and the incumbent on every dev item (no early stop, no
 * cache: the upper bound), the validator's both-order verdicts per item under reward-free PACE, a
 * grading call per output with an llm-rubric scorer; with `versions: 1`, one version scored on the
 * items (an evaluation). `evaluations` counts the agent's answers, each one output scored. Not
 * capped by the spec's budget: the caller compares it with its own.
 */
export function estimateJudge(
  { spec, template, dev, versions = 2, agentCalls = 1 }: { spec: RunSpec; template: { text: string }; dev: readonly DataItem[]; versions?: 1 | 2; agentCalls?: number },
  prices: RolePrices,
): RunEstimate & { evaluations: number } {
  const { tally, add } = roleTally();
  const prompt = estimateTokens(template.text);
  const answer = spec.models.agent.maxTokens ?? ASSUMED.answer;
  const item = meanTokens(dev);
  const evaluations = versions * dev.length;
  add('agent', evaluations * agentCalls, prompt + item, answer);
  if (spec.scorer?.type === 'llm-rubric') add('validator', evaluations, ASSUMED.judgeFrame + item + answer, ASSUMED.verdict);
  if (versions === 2 && gateRow(spec.gate.name).kind !== 'scored') add('validator', 2 * dev.length, ASSUMED.judgeFrame + item + 2 * answer, ASSUMED.verdict);
  return { ...summarize({ budget: {} }, tally, prices), evaluations };
}

/** How an unpriced model that no one named is listed. */
const UNNAMED_MODEL = "the editor's choice";

/** Totals, dollars where every called model is priced, all capped by the run's own budgets. */
export function summarize(spec: { budget: Pick<RunSpec['budget'], 'calls' | 'tokens' | 'dollars'> }, tally: Record<Role, Tally>, prices: RolePrices): RunEstimate {
  const called = ROLES.filter((r) => tally[r].calls > 0);
  const calls = called.reduce((n, r) => n + tally[r].calls, 0);
  const tokens = called.reduce((n, r) => n + tally[r].input + tally[r].output, 0);
  const unpriced = [...new Set(called.filter((r) => prices[r].price === undefined).map((r) => prices[r].model ?? UNNAMED_MODEL))];
  const dollars =
    unpriced.length > 0
      ? undefined
      : called.reduce((sum, r) => {
          const p = prices[r].price!;
          return sum + (tally[r].input * p.inputPerMTok + tally[r].output * p.outputPerMTok) / 1_000_000;
        }, 0);
  // The run stops at whichever budget it reaches first; every total shrinks with it.
  const b = spec.budget;
  const share = Math.min(1, b.calls !== undefined && calls > 0 ? b.calls / calls : 1, b.tokens !== undefined && tokens > 0 ? b.tokens / tokens : 1, b.dollars !== undefined && dollars !== undefined && dollars > 0 ? b.dollars / dollars : 1);
  return {
    calls: Math.round(calls * share),
    tokens: Math.round(tokens * share),
    ...(dollars === undefined ? {} : { dollars: dollars * share }),
    ...(unpriced.length > 0 ? { unpriced } : {}),
  };
}

function meanTokens(items: readonly DataItem[]): number {
  if (items.length === 0) return 0;
  return items.reduce((n, item) => n + estimateTokens(Object.values(item.vars).map(String).join(' ')), 0) / items.length;
}

/** What a zero-data generation reads: the prompt, the round settings, the run's budgets. */
export interface ZeroEstimateInput {
  spec: RunSpec;
  template: { text: string };
  rounds: number;
  tasks: number;
  keep: number;
  samples: number;
  heldOutShare: number;
}

/**
 * An evolve run without a dataset: its rounds, and the loop on what they generate — as if every
 * round kept K dev tasks and left the rest of its pool as feedback, each task of the assumed length.
 */
export function estimateZeroEvolve(z: ZeroEstimateInput, prices: RolePrices): RunEstimate {
  const generated = (n: number): DataItem[] => Array.from({ length: n }, (_, i) => ({ id: `generated-${i}`, vars: { task: 'word '.repeat(ASSUMED.zeroTask) }, source: { file: '', line: 0 } }));
  const heldOut = Math.max(1, Math.round(z.tasks * z.heldOutShare));
  const loop = estimateRun({ spec: z.spec, template: z.template, splits: { feedback: generated(Math.max(0, z.tasks - heldOut - z.keep) * z.rounds), dev: generated(z.keep * z.rounds), test: [] } }, prices);
  return addEstimates(loop, estimateZeroRounds(z, prices));
}

/**
 * The calls of `rounds` zero-data rounds (core/zero/rounds.ts) when every task the Challenger is
 * asked for is well-formed and new (none dropped, so the estimate errs high): per round one
 * Challenger call writing N tasks; M Solver answers and M judge scores per task; per held-out task
 * the Challenger's own answer, a split into (at most four) subtasks, the Solver's answer to each,
 * the composition, and two pairs judged in both orders. Not counted: the judge's exemplars shown in
 * each pair call from the second round on (a few worked examples more of input).
 */
export function estimateZeroRounds(z: ZeroEstimateInput, prices: RolePrices): RunEstimate {
  const { tally, add } = roleTally();
  const prompt = estimateTokens(z.template.text);
  const answer = z.spec.models.agent.maxTokens ?? ASSUMED.answer;
  const task = ASSUMED.zeroTask;
  const heldOut = Math.max(1, Math.round(z.tasks * z.heldOutShare));
  const subtasks = 4;
  for (let r = 0; r < z.rounds; r++) {
    add('challenger', 1, ASSUMED.proposerFrame + prompt + 3 * 5 * task, z.tasks * task);
    add('agent', z.tasks * z.samples, prompt + task, answer);
    add('validator', z.tasks * z.samples, ASSUMED.judgeFrame + prompt + task + answer, ASSUMED.verdict);
    add('challenger', 2 * heldOut, ASSUMED.judgeFrame + prompt + task, answer);
    add('agent', subtasks * heldOut, prompt + task + task, answer);
    add('challenger', heldOut, ASSUMED.judgeFrame + prompt + task + subtasks * (task + answer), answer);
    add('validator', 4 * heldOut, ASSUMED.judgeFrame + prompt + task + 2 * answer, ASSUMED.verdict);
  }
  return summarize(z.spec, tally, prices);
}

/** Two estimates of one run's parts, added; dollars only when both have them. */
export function addEstimates(a: RunEstimate, b: RunEstimate): RunEstimate {
  const unpriced = [...new Set([...(a.unpriced ?? []), ...(b.unpriced ?? [])])];
  return {
    calls: a.calls + b.calls,
    tokens: a.tokens + b.tokens,
    ...(a.dollars !== undefined && b.dollars !== undefined ? { dollars: a.dollars + b.dollars } : {}),
    ...(unpriced.length > 0 ? { unpriced } : {}),
  };
}
