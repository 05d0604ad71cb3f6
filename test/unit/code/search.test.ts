// The code-search loop end to end in-process: a proposer that answers in ShinkaEvolve's formats
// (nudging a constant inside the EVOLVE-BLOCK), an evaluator that scores the program on 30 noisy
// instances, the database, the bandit and the paired gate. A run with real improvements climbs;
// a run of neutral edits commits at most about α per child (band: α·N + 3σ of a binomial), while
// greedy's one-evaluation `>` commits about half of them. Frozen text survives every child.
import { describe, expect, it } from 'vitest';
import { frozenSegments, parseBlocks } from '../../../src/core/code/blocks';
import { runSearch } from '../../../src/core/code/search';
import type { SearchOptions } from '../../../src/core/code/search';
import type { EngineEvent } from '../../../src/core/journal/events';
import type { LlmClient } from '../../../src/core/ports';
import { RatchetError } from '../../../src/core/errors';
import { SeededRandom } from '../../../src/core/random';
import type { ParentSelection } from '../../../src/core/code/spec';
import { SEED_PROGRAM, constantOf, evaluator, proposer, spec } from './searchWorld';
import type { Judging } from './searchWorld';

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

  it('stops after search.stopAfterFailedProposals proposals in a row came to nothing, and says why with the first failure’s words', async () => {
    const events: EngineEvent[] = [];
    const llm = proposer(4, false);
    // A proposer that answers in prose: no <DIFF> or <CODE> block to read, ever.
    const prose: LlmClient = { ...llm, chat: async (req, signal) => (req.role === 'proposer' ? { ...(await llm.chat(req, signal)), text: 'I would make x larger.' } : llm.chat(req, signal)) };
    const s = spec('pace+', 100);
    const outcome = await runSearch({
      spec: { ...s, search: { ...s.search, stopAfterFailedProposals: 4 } },
      seedText: SEED_PROGRAM,
      llm: prose,
      evaluate: evaluator(4).evaluate,
      random: new SeededRandom(4),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    const finished = events.at(-1);
    expect(finished?.type).toBe('run/finished');
    const firstFailure = events.find((e) => e.type === 'proposal/failed');
    expect(firstFailure?.type === 'proposal/failed' && firstFailure.reason).toBe('format');
    const words = firstFailure?.type === 'proposal/failed' ? firstFailure.message.split(/[.!?]/)[0]! : '';
    expect(finished?.type === 'run/finished' && finished.stopped).toBe(`4 proposals in a row came to nothing (search.stopAfterFailedProposals); the first could not be read: ${words}.`);
    expect(outcome.stopped).toBe(finished?.type === 'run/finished' ? finished.stopped : undefined);
    // The proposals already in flight when the fourth failed are the only ones past it.
    expect(outcome.proposals).toBeLessThan(10);
  });

  it('a proposal that gives a program to test ends a run of failures', async () => {
    const { outcome, events } = await search({ gate: 'pace+', proposals: 12, seed: 3, neutral: false, broken: true });
    // Every proposal's first answer fails to apply and its retry applies: none came to nothing.
    expect(events.some((e) => e.type === 'proposal/failed')).toBe(true);
    expect(outcome.stopped).toBeUndefined();
    expect(outcome.proposals).toBe(12);
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
  it('a broken starting program starts fix mode: proposals see its output, and the first correct child becomes the incumbent', async () => {
    const events: EngineEvent[] = [];
    const llm = proposer(4, false);
    const scored = evaluator(4).evaluate;
    const outcome = await runSearch({
      spec: spec('pace+', 30),
      seedText: SEED_PROGRAM.replace('0.10', '-0.30'),
      llm,
      // Negative x crashes the harness, the way a broken program does.
      evaluate: async (text, ids, signal, repeat) =>
        constantOf(text) < 0 ? { correct: false, error: 'the program exited with code 1', output: `stderr:\nRangeError: x = ${constantOf(text)} must not be negative` } : scored(text, ids, signal, repeat),
      random: new SeededRandom(4),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    expect(events.some((e) => e.type === 'log' && e.message.includes('starts in fix mode'))).toBe(true);
    const first = llm.requests.find((r) => r.role === 'proposer')!;
    expect(first.messages[1]!.content).toContain('This program is incorrect; fix it first.');
    expect(first.messages[1]!.content).toContain('RangeError: x = -0.3 must not be negative');
    const repairs = events.filter((e) => e.type === 'log' && / repairs island \d/.test(e.message));
    expect(repairs.length).toBe(2); // one per island
    expect(outcome.repairs).toBe(2);
    expect(constantOf(outcome.best.text)).toBeGreaterThanOrEqual(0);
    // Once an island has a correct program, its children go through the gate again.
    expect(events.filter((e) => e.type === 'decision').length).toBeGreaterThan(0);
  });
  it('several proposer models: the bandit tries each and then sends most proposals to the one whose children the gate commits', async () => {
    const events: EngineEvent[] = [];
    const llm = proposer(6, false);
    const base = spec('pace+', 60);
    const mixed: LlmClient = {
      ...llm,
      // The "weak" model answers without the format's tags: no child ever comes of it.
      chat: async (req, signal) => (req.role === 'proposer' && req.model === 'weak' ? { ...(await llm.chat(req, signal)), text: 'I would change x.' } : llm.chat(req, signal)),
    };
    await runSearch({
      spec: { ...base, search: { ...base.search, proposerModels: [{ model: 'weak' }, { model: 'strong' }] } },
      seedText: SEED_PROGRAM,
      llm: mixed,
      evaluate: evaluator(6).evaluate,
      random: new SeededRandom(6),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    // Proposals, not calls: a proposal's retries go on in the same chat (the same messages).
    const byModel = (m: string) => new Set(llm.requests.filter((r) => r.role === 'proposer' && r.model === m).map((r) => r.messages)).size;
    expect(byModel('weak')).toBeGreaterThan(0);
    expect(byModel('strong')).toBeGreaterThan(2 * byModel('weak'));
  });
});

describe('code search with gate pairwise', () => {
  async function pairwiseSearch(o: { seed: number; proposals: number; judging: Judging; parents: ParentSelection; concurrency?: number }) {
    const events: EngineEvent[] = [];
    const llm = proposer(o.seed, false, false, o.judging);
    const texts = new Map<string, string>([['p0', SEED_PROGRAM]]);
    const s = spec('pairwise', o.proposals, o.parents);
    const outcome = await runSearch({
      spec: { ...s, islands: 1, concurrency: o.concurrency ?? 2 },
      seedText: SEED_PROGRAM,
      llm,
      evaluate: evaluator(o.seed).evaluate,
      random: new SeededRandom(o.seed),
      emit: async (e) => {
        if (e.type === 'candidate/proposed') texts.set(e.candidateId, e.text);
        events.push({ ...e, runId: 'r', at: 0 } as EngineEvent);
      },
      signal: new AbortController().signal,
    });
    const parents = events.flatMap((e) => (e.type === 'candidate/proposed' && e.parentId !== undefined ? [constantOf(texts.get(e.parentId)!)] : []));
    return { outcome, events, llm, parents };
  }

  it('commits on consistent verdicts, each journaled in both orders before its decision, and says it has no e-process', async () => {
    const { outcome, events, llm } = await pairwiseSearch({ seed: 3, proposals: 20, judging: 'truthful', parents: 'bt' });
    expect(events.some((e) => e.type === 'log' && e.message.includes('Gate pairwise') && e.message.includes('no e-process'))).toBe(true);
    const records = decisions(events);
    expect(records.length).toBeGreaterThan(15); // duplicates are refused before any test
    expect(records.every((r) => r.gate === 'pairwise' && r.reason === 'validator' && r.logWealth === 0)).toBe(true);
    expect(outcome.commits).toBeGreaterThan(0);
    // The truthful validator prefers the x nearer 0.8: the run climbs from 0.10.
    expect(Math.abs(constantOf(outcome.best.text) - 0.8)).toBeLessThan(0.7);
    for (const r of records) {
      const at = events.findIndex((e) => e.type === 'decision' && e.record.candidateId === r.candidateId);
      const verdicts = events.slice(0, at).flatMap((e) => (e.type === 'verdict' && e.candidateId === r.candidateId ? [e] : []));
      expect(verdicts.map((v) => v.order)).toEqual(['child-first', 'parent-first']);
      expect(verdicts.every((v) => v.parentId === r.incumbentId)).toBe(true);
      expect(r.decision === 'commit').toBe(verdicts.every((v) => v.winner === 'child'));
    }
    const asks = llm.requests.filter((q) => q.role === 'validator');
    expect(asks.length).toBe(2 * records.length);
    expect(asks.every((q) => q.temperature === 0 && q.logprobs === true && q.seed !== undefined)).toBe(true);
  });

  it('Bradley–Terry parents follow the validator’s ratings, not the scores: a validator that prefers smaller x draws parents with smaller x', async () => {
    // The contrarian validator commits children that lower x (and the score): its ratings rank the
    // pool against the scores. Weighted parents follow the scores (larger x); BT parents the ratings.
    for (const seed of [3, 4]) {
      const bt = await pairwiseSearch({ seed, proposals: 30, judging: 'contrarian', parents: 'bt', concurrency: 1 });
      const weighted = await pairwiseSearch({ seed, proposals: 30, judging: 'contrarian', parents: 'weighted', concurrency: 1 });
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(bt.outcome.commits).toBeGreaterThan(2);
      expect(mean(bt.parents)).toBeLessThan(mean(weighted.parents) - 0.05);
    }
  });

  it('is reproducible with proposals in flight: the same seed gives the same journal', async () => {
    const a = await pairwiseSearch({ seed: 5, proposals: 16, judging: 'truthful', parents: 'bt', concurrency: 3 });
    const b = await pairwiseSearch({ seed: 5, proposals: 16, judging: 'truthful', parents: 'bt', concurrency: 3 });
    expect(b.events).toEqual(a.events);
  });
});
