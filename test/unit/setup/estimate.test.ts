import { describe, expect, it } from 'vitest';
import type { DataItem } from '../../../src/core/data/item';
import { ROLES } from '../../../src/core/llm/types';
import type { ModelPrice } from '../../../src/core/llm/types';
import { ASSUMED, estimateRun, estimateZeroEvolve, estimateZeroRounds, rolesCalled } from '../../../src/core/setup/estimate';
import type { RolePrices } from '../../../src/core/setup/estimate';
import { loadRunSpec } from '../../../src/core/setup/spec';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { memFiles } from '../data/fakeFiles';

const DATA = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}`, expected: i })).join('\n');

function specOf(...lines: string[]): Promise<RunSpec> {
  const text = `${['dataset: d.jsonl', ...lines].join('\n')}\n`;
  return loadRunSpec(memFiles({ '/w/t.prompt.md': 'Solve: {{question}}\n', '/w/t.ratchet.yaml': text, '/w/d.jsonl': DATA }), '/w/t.prompt.md');
}

/** Items of 40 characters: 10 tokens each (estimateTokens: 4 characters a token). */
const items = (n: number, prefix: string): DataItem[] => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, vars: { question: 'x'.repeat(40) }, source: { file: 'd', line: i + 1 } }));
const splits = { feedback: items(10, 'f'), dev: items(8, 'd'), test: items(5, 't') };
/** A prompt of 100 tokens. */
const template = { text: 'y'.repeat(400) };
const priced = (price: ModelPrice | undefined, model = 'm'): RolePrices => Object.fromEntries(ROLES.map((r) => [r, { model, price }])) as RolePrices;
const PER_TOKEN = priced({ inputPerMTok: 1, outputPerMTok: 1 });

describe('rolesCalled', () => {
  it('is the agent and proposer, the validator for judged gates and the llm-rubric scorer, meta for Adaptive Focus', async () => {
    expect(rolesCalled(await specOf('scorer: exact'))).toEqual(['agent', 'proposer']);
    expect(rolesCalled(await specOf('scorer: exact', 'gate: pace-rf'))).toEqual(['agent', 'proposer', 'validator']);
    expect(rolesCalled(await specOf('scorer: { type: llm-rubric, rubric: be right }'))).toEqual(['agent', 'proposer', 'validator']);
    expect(rolesCalled(await specOf('scorer: exact', 'gate: focus'))).toEqual(['agent', 'proposer', 'validator', 'meta']);
    // Evaluate: no proposer, no gate's judge; the agent, and the validator only as an llm-rubric scorer.
    expect(rolesCalled(await specOf('scorer: exact', 'gate: pace-rf'), 'evaluate')).toEqual(['agent']);
    expect(rolesCalled(await specOf('scorer: { type: llm-rubric, rubric: be right }'), 'evaluate')).toEqual(['agent', 'validator']);
  });
});

describe('estimateRun: every candidate on the whole dev set, the incumbent once', () => {
  it('PACE+: minibatch and proposer per iteration, (candidates + 1) × dev, 2 × test; tokens from the lengths', async () => {
    const spec = await specOf('scorer: exact', 'budget: { candidates: 3 }');
    const agentCalls = 3 * 4 + 4 * 8 + 2 * 5;
    const agentTokens = agentCalls * (100 + 10 + ASSUMED.answer);
    const proposerTokens = 3 * (ASSUMED.proposerFrame + 100 + 4 * (10 + ASSUMED.answer) + 100 + ASSUMED.proposerReasoning);
    expect(estimateRun({ spec, template, splits }, PER_TOKEN)).toEqual({ calls: agentCalls + 3, tokens: agentTokens + proposerTokens, dollars: (agentTokens + proposerTokens) / 1e6 });
  });

  it('Evaluate (no candidates): the starting prompt on each test item once, nothing proposed or tested', async () => {
    const spec = await specOf('scorer: exact', 'budget: { candidates: 3, iterations: 20 }');
    const evaluate = { ...spec, budget: { ...spec.budget, candidates: 0 } };
    expect(estimateRun({ spec: evaluate, template, splits }, PER_TOKEN).calls).toBe(5);
    expect(estimateRun({ spec: evaluate, template, splits, agentCalls: 2 }, PER_TOKEN).calls).toBe(10);
    const rubric = await specOf('scorer: { type: llm-rubric, rubric: be right }');
    expect(estimateRun({ spec: { ...rubric, budget: { ...rubric.budget, candidates: 0 } }, template, splits }, PER_TOKEN).calls).toBe(10);
  });

  it('prices input and output apart', async () => {
    const spec = await specOf('scorer: exact', 'budget: { candidates: 3 }', 'models:', '  agent: { maxTokens: 50 }');
    const input = priced({ inputPerMTok: 1, outputPerMTok: 0 });
    const agentIn = (3 * 4 + 4 * 8 + 2 * 5) * 110;
    const proposerIn = 3 * (ASSUMED.proposerFrame + 100 + 4 * (10 + 50));
    expect(estimateRun({ spec, template, splits }, input).dollars).toBeCloseTo((agentIn + proposerIn) / 1e6, 12);
  });

  it('counts the judge: pace-rf both orders per dev item, no test report without a scorer', async () => {
    const spec = await specOf('gate: pace-rf', 'budget: { candidates: 3 }');
    expect(estimateRun({ spec, template, splits }, PER_TOKEN).calls).toBe(3 * 4 + 4 * 8 + 2 * 3 * 8 + 3);
  });

  it('counts the Direct gates on a minibatch of six: focus with its rubric refreshes, elo with its matches', async () => {
    const focus = await specOf('gate: { name: focus, focus: { refreshEvery: 2 } }', 'budget: { candidates: 5 }');
    // agent: minibatches + (5 children + the incumbent) × 6; validator: 2 per candidate; meta: every 2 decisions.
    expect(estimateRun({ spec: focus, template, splits }, PER_TOKEN).calls).toBe(5 * 4 + 6 * 6 + 2 * 5 + 2 + 5);
    const elo = await specOf('gate: { name: elo, elo: { matches: 2 } }', 'budget: { candidates: 3 }');
    expect(estimateRun({ spec: elo, template, splits }, PER_TOKEN).calls).toBe(3 * 4 + (3 * 3 + 1) * 6 + 2 * 3 * 3 + 3);
  });

  it('adds a validator call per scored output with an llm-rubric scorer', async () => {
    const spec = await specOf('scorer: { type: llm-rubric, rubric: be right }', 'budget: { candidates: 3 }');
    const agentCalls = 3 * 4 + 4 * 8 + 2 * 5;
    expect(estimateRun({ spec, template, splits }, PER_TOKEN).calls).toBe(2 * agentCalls + 3);
  });

  it('stops where the run would: iterations, then the first budget reached', async () => {
    const iterations = await specOf('scorer: exact', 'budget: { candidates: 30, iterations: 2 }');
    expect(estimateRun({ spec: iterations, template, splits }, PER_TOKEN).calls).toBe(2 * 4 + 3 * 8 + 2 * 5 + 2);
    const capped = await specOf('scorer: exact', 'budget: { candidates: 3, calls: 20 }');
    const full = estimateRun({ spec: await specOf('scorer: exact', 'budget: { candidates: 3 }'), template, splits }, PER_TOKEN);
    const e = estimateRun({ spec: capped, template, splits }, PER_TOKEN);
    expect(e.calls).toBe(20);
    expect(e.dollars).toBeCloseTo((full.dollars! * 20) / full.calls, 12);
    const dollars = await specOf('scorer: exact', 'budget: { candidates: 3, dollars: 0.01 }');
    expect(estimateRun({ spec: dollars, template, splits }, PER_TOKEN).dollars).toBeCloseTo(0.01, 12);
  });

  it('names the unpriced models instead of a dollar figure, and only models the run calls', async () => {
    const spec = await specOf('scorer: exact', 'budget: { candidates: 3 }');
    const prices: RolePrices = { ...PER_TOKEN, proposer: { model: 'llama3', price: undefined }, meta: { model: 'other', price: undefined } };
    const e = estimateRun({ spec, template, splits }, prices);
    expect(e).toEqual({ calls: estimateRun({ spec, template, splits }, PER_TOKEN).calls, tokens: e.tokens, unpriced: ['llama3'] });
  });
});

describe('estimateZeroRounds: what gen-data pays for when nothing is dropped', () => {
  it('per round: one Challenger call, M answers and M scores per task; per held-out task three Challenger calls, four subtask answers, four pair verdicts', async () => {
    const spec = await specOf('scorer: exact');
    const z = { spec, template, rounds: 2, tasks: 8, keep: 3, samples: 4, heldOutShare: 0.25 };
    const heldOut = 2;
    expect(estimateZeroRounds(z, PER_TOKEN).calls).toBe(2 * (1 + 8 * 4 + 8 * 4 + 3 * heldOut + 4 * heldOut + 4 * heldOut));
    // An evolve run without a dataset adds the loop on what the rounds keep.
    expect(estimateZeroEvolve(z, PER_TOKEN).calls).toBeGreaterThan(estimateZeroRounds(z, PER_TOKEN).calls);
    expect(estimateZeroRounds(z, priced(undefined, 'local')).unpriced).toEqual(['local']);
  });
});
