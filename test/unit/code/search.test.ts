// The code-search loop end to end in-process: a proposer that answers in ShinkaEvolve's formats
// (nudging a constant inside the EVOLVE-BLOCK), an evaluator that scores the program on 30 noisy
// instances, the database, the bandit and the paired gate. A run with real improvements climbs;
// a run of neutral edits commits at most about α per child (band: α·N + 3σ of a binomial), while
// greedy's one-evaluation `>` commits about half of them. Frozen text survives every child.
import { describe, expect, it } from 'vitest';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { runSearch } from '../../../src/core/code/search';
import type { ProgramEvaluator, SearchOptions } from '../../../src/core/code/search';
import { CODE_DEFAULTS } from '../../../src/core/code/spec';
import type { CodeRunSpec } from '../../../src/core/code/spec';
import { DEFAULTS } from '../../../src/core/run/specTypes';
import type { EngineEvent } from '../../../src/core/run/events';
import type { LlmClient } from '../../../src/core/ports';
import type { ChatRequest } from '../../../src/core/llm/types';
import { RatchetError } from '../../../src/core/errors';
import { hashSeed, SeededRandom } from '../../../src/core/random';

const SEED_PROGRAM = [
  '// Frozen: the harness calls solve().',
  'export function solve() {',
  '  // EVOLVE-BLOCK-START',
  '  const x = 0.10; // v0',
  '  // EVOLVE-BLOCK-END',
  '  return x;',
  '}',
  '',
].join('\n');

const INSTANCES = Array.from({ length: 30 }, (_, i) => `inst-${i + 1}`);
const constantOf = (text: string): number => Number(/const x = ([\d.-]+)/.exec(text)![1]);

/** Scores near 1 − |x − 0.8| per instance with fresh noise per evaluation: a program's score is noisy. */
function evaluator(seed: number): { evaluate: ProgramEvaluator; runs: () => number } {
  let runs = 0;
  const evaluate: ProgramEvaluator = async (text, ids) => {
    runs++;
    const r = new SeededRandom(hashSeed(seed, text, runs));
    const x = constantOf(text);
    const instances: Record<string, number> = {};
    for (const id of ids ?? INSTANCES) instances[id] = Math.min(1, Math.max(0, 0.9 - Math.abs(x - 0.8) + 0.3 * (r.next() - 0.5)));
    const scores = Object.values(instances);
    return { correct: true, score: scores.reduce((a, b) => a + b, 0) / scores.length, instances };
  };
  return { evaluate, runs: () => runs };
}

/** A proposer: moves x by a random step (or, neutral, only renames the comment), in the format the system prompt asks. */
function proposer(seed: number, neutral: boolean, firstAnswerBroken = false): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  let n = 0;
  return {
    requests,
    async chat(req) {
      requests.push(req);
      if (req.role === 'meta') return { text: 'Larger x helped.\n- move x up\n- keep the steps small', finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
      const user = req.messages[1]!.content;
      const parent = /```\n([\s\S]*?)\n```/.exec(user)![1]!;
      const line = parent.split('\n').find((l) => l.includes('const x'))!;
      const r = new SeededRandom(hashSeed(seed, n++));
      const x = constantOf(line);
      const next = neutral ? line.replace(/v\d+/, `v${n}`) : line.replace(String(constantOf(line).toFixed(2)), (x + (r.next() < 0.6 ? 1 : -1) * (0.05 + 0.3 * r.next())).toFixed(2));
      const retry = req.messages.length > 2;
      const search = firstAnswerBroken && !retry ? line.replace('const', 'let') : line;
      const wantsCode = req.messages[0]!.content.includes('<CODE>');
      const text = wantsCode
        ? `<NAME>move</NAME>\n<DESCRIPTION>change x</DESCRIPTION>\n<CODE>\n\`\`\`js\n${parent.replace(line, next)}\n\`\`\`\n</CODE>`
        : `<NAME>move</NAME>\n<DESCRIPTION>change x</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n${search}\n=======\n${next}\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 10, completionTokens: 10 }, model: 'fake' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings here');
    },
  };
}

function spec(gate: 'pace+' | 'greedy', proposals: number): CodeRunSpec {
  return {
    kind: 'code',
    programPath: 'solve.mjs',
    sources: [],
    baseDir: '/ws',
    evaluator: { ...CODE_DEFAULTS.evaluator, supportFiles: [], scoreRange: { lo: 0, hi: 1 }, env: [], limits: { ...CODE_DEFAULTS.evaluator.limits } },
    gate: { ...DEFAULTS.gate, lambdas: [...DEFAULTS.gate.lambdas], name: gate, horizon: proposals },
    budget: { proposals },
    models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {} },
    islands: 2,
    search: { ...CODE_DEFAULTS.search, mix: { ...CODE_DEFAULTS.search.mix } },
    seed: 1,
    concurrency: 2,
    callTimeoutSeconds: 60,
    origin: {},
  };
}

async function search(o: { gate: 'pace+' | 'greedy'; proposals: number; seed: number; neutral: boolean; broken?: boolean }) {
  const events: EngineEvent[] = [];
  const llm = proposer(o.seed, o.neutral, o.broken);
  const ev = evaluator(o.seed);
  const opts: SearchOptions = {
    spec: spec(o.gate, o.proposals),
    seedText: SEED_PROGRAM,
    llm,
    evaluate: ev.evaluate,
    random: new SeededRandom(o.seed),
    emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
    signal: new AbortController().signal,
  };
  const outcome = await runSearch(opts);
  return { outcome, events, llm, evaluations: ev.runs() };
}

const decisions = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));

describe('code search loop', () => {
  it('climbs with real improvements: the best program beats the seed, and every child keeps the frozen text', async () => {
    const { outcome, events } = await search({ gate: 'pace+', proposals: 40, seed: 3, neutral: false });
    expect(outcome.commits).toBeGreaterThan(0);
    // The pre-flight says what margin per instance can commit: ((1/α)^(1/n) − 1) / c over the range.
    const margin = (20 ** (1 / 30) - 1) / 0.75;
    const preflight = events.find((e) => e.type === 'log' && e.message.includes('commits only when it beats its parent'));
    expect(preflight?.type === 'log' && preflight.message).toContain(`at least about ${margin.toPrecision(2)} per instance`);
    expect(constantOf(outcome.best.text)).toBeGreaterThan(0.1);
    expect(outcome.best.score!).toBeGreaterThan(outcome.seedScore!);
    const frozen = frozenSegments(SEED_PROGRAM, parseBlocks(SEED_PROGRAM));
    const children = events.flatMap((e) => (e.type === 'candidate/proposed' ? [e.text] : []));
    expect(children.length).toBeGreaterThan(10);
    for (const text of children) expect(frozenSegments(text, parseBlocks(text))).toEqual(frozen);
  });

  it('in a null world (neutral edits) PACE+ commits at most about α per child; greedy commits neutral children', async () => {
    // Every commit here is false. Greedy compares one noisy evaluation with the incumbent's: a
    // neutral child wins that about half the time until a lucky incumbent raises the bar.
    const N = 40;
    let paceCommits = 0;
    let greedyCommits = 0;
    for (const seed of [5, 6, 7]) {
      const pace = decisions((await search({ gate: 'pace+', proposals: N, seed, neutral: true })).events);
      const greedy = decisions((await search({ gate: 'greedy', proposals: N, seed, neutral: true })).events);
      expect(pace.length).toBe(N);
      paceCommits += pace.filter((d) => d.decision === 'commit').length;
      greedyCommits += greedy.filter((d) => d.decision === 'commit').length;
    }
    const children = 3 * N;
    expect(paceCommits).toBeLessThanOrEqual(Math.ceil(0.05 * children + 3 * Math.sqrt(children * 0.05 * 0.95)));
    expect(greedyCommits).toBeGreaterThanOrEqual(3 * paceCommits + 6);
  });

  it('a patch that does not apply is answered in the same chat with the precise error, and the retry applies', async () => {
    const { events, llm } = await search({ gate: 'pace+', proposals: 4, seed: 2, neutral: false, broken: true });
    const failed = events.flatMap((e) => (e.type === 'proposal/failed' ? [e] : []));
    const diffs = failed.filter((f) => f.kind === 'diff');
    expect(diffs.length).toBeGreaterThan(0);
    expect(diffs.every((f) => f.reason === 'patch' && f.attempt === 1)).toBe(true);
    const retry = llm.requests.find((r) => r.messages.length === 4)!;
    expect(retry.messages[2]!.role).toBe('assistant');
    expect(retry.messages[3]!.content).toContain(failed[0]!.message);
    expect(decisions(events).length).toBe(4);
  });

  it('a deterministic evaluator with per-instance scores still goes through the paired gate', async () => {
    const events: EngineEvent[] = [];
    const s = spec('pace+', 3);
    await runSearch({
      spec: { ...s, evaluator: { ...s.evaluator, deterministic: true } },
      seedText: SEED_PROGRAM,
      llm: proposer(4, false),
      evaluate: evaluator(4).evaluate,
      random: new SeededRandom(4),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    expect(decisions(events).map((d) => d.gate)).toEqual(['pace+', 'pace+', 'pace+']);
  });

  it('a spent LLM budget ends the search cleanly, with what it found', async () => {
    const events: EngineEvent[] = [];
    const llm = proposer(3, false);
    let calls = 0;
    const budgeted: LlmClient = {
      ...llm,
      chat: async (req, signal) => {
        if (++calls > 5) throw new RatchetError('budgetExhausted', "The run's budget is spent (calls 5 of 5); no further LLM call is sent.", { budget: 'calls' });
        return llm.chat(req, signal);
      },
    };
    const outcome = await runSearch({
      spec: spec('pace+', 40),
      seedText: SEED_PROGRAM,
      llm: budgeted,
      evaluate: evaluator(3).evaluate,
      random: new SeededRandom(3),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    expect(events.at(-1)?.type).toBe('run/finished');
    expect(events.some((e) => e.type === 'log' && e.level === 'warn' && e.message.includes('The search stops after 5 proposals'))).toBe(true);
    expect(outcome.proposals).toBe(5);
    expect(decisions(events).length).toBeLessThanOrEqual(5);
  });

  it('every metaEvery tested children the meta role writes notes, and later proposals get them in turn', async () => {
    const { events, llm } = await search({ gate: 'pace+', proposals: 30, seed: 3, neutral: false });
    const notes = events.flatMap((e) => (e.type === 'meta/notes' ? [e] : []));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0]!.recommendations).toEqual(['move x up', 'keep the steps small']);
    const metaAsks = llm.requests.filter((r) => r.role === 'meta');
    expect(metaAsks[0]!.messages[1]!.content.split('\n').filter((l) => l.startsWith('- p')).length).toBe(10);
    const hinted = llm.requests.filter((r) => r.role === 'proposer' && r.messages[1]!.content.includes('A recommendation from the search so far: '));
    expect(hinted.length).toBeGreaterThan(0);
    expect(new Set(hinted.slice(0, 2).map((r) => /so far: (.*)$/m.exec(r.messages[1]!.content)![1]))).toEqual(new Set(['move x up', 'keep the steps small']));
  });

  it('a duplicate child is never evaluated', async () => {
    // The neutral proposer's first edit on each island gives the same text: v1 from p0 twice.
    const { events, evaluations } = await search({ gate: 'pace+', proposals: 2, seed: 9, neutral: true });
    const dup = events.filter((e) => e.type === 'proposal/failed' && e.reason === 'duplicate');
    const proposed = events.filter((e) => e.type === 'candidate/proposed').length;
    // The seed is evaluated once; each proposed child (not the duplicate) costs evaluator runs.
    expect(dup.length + (proposed - 1)).toBe(2);
    expect(evaluations).toBeGreaterThanOrEqual(1 + (proposed - 1));
  });
});
