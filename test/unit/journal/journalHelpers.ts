// Shared by the journal tests: a temp workspace on the real file system, a clock the test moves,
// and events of every type with realistic payloads.
import { mkdtemp, rm, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../../../src/core/ports';
import type { EngineEvent, JournaledEvent } from '../../../src/core/journal/events';
import type { NewRun } from '../../../src/core/journal/journal';
import type { DecisionRecord } from '../../../src/core/gates/record';
import type { CostReport } from '../../../src/core/llm/types';

export async function tempWorkspace(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'ratchet-journal-'));
  return { root, dispose: () => rm(root, { recursive: true, force: true }) };
}

/** A workspace whose .ratchet/runs holds copies of test/fixtures/journals/runs (four runs, one corrupt). */
export async function fixtureWorkspace(): Promise<{ root: string; dispose: () => Promise<void> }> {
  const ws = await tempWorkspace();
  await cp(fileURLToPath(new URL('../../fixtures/journals/runs', import.meta.url)), path.join(ws.root, '.ratchet', 'runs'), { recursive: true });
  return ws;
}

export const FIXTURE_RUNS = {
  finished: '20261101-090000-c238c9',
  torn: '20261102-100000-c16e76',
  corrupt: '20261103-110000-a38496',
  failed: '20261104-120000-16fed1',
} as const;

/** The events as the journal numbers them: `seq` from `first` on, in order. */
export function numbered(events: readonly EngineEvent[], first = 1): JournaledEvent[] {
  return events.map((e, i) => ({ ...e, seq: first + i }));
}

export class ManualClock implements Clock {
  constructor(public t = Date.UTC(2026, 10, 29, 22, 34, 12)) {}
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    this.t += ms;
  }
}

export const NEW_RUN: NewRun = {
  kind: 'evolve',
  target: 'math/word-problems.prompt.md',
  seed: 7,
  version: '0.1.0-test',
  spec: { gate: { name: 'pace+', alpha: 0.05 }, dataset: 'math/dev.jsonl' },
};

const cost: CostReport = {
  agent: { calls: 4, cachedCalls: 1, retries: 0, promptTokens: 800, completionTokens: 400, dollars: 0.00036 },
  proposer: { calls: 1, cachedCalls: 0, retries: 1, promptTokens: 1200, completionTokens: 300, dollars: 0.006 },
  validator: { calls: 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: 0 },
  meta: { calls: 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: 0 },
  challenger: { calls: 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: 0 },
};

export function decisionRecord(over: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    candidateId: 'c1',
    parentId: 'c0',
    incumbentId: 'c0',
    gate: 'pace+',
    configHash: '8a4509f8135da6e2',
    alpha: 0.05,
    schedule: 'per-candidate',
    ledgerBefore: { tested: 0, commits: 0 },
    threshold: 20,
    orderSeed: 3679880248,
    itemsConsumed: 9,
    wins: 7,
    losses: 0,
    ties: 2,
    logWealth: 3.1,
    decision: 'commit',
    reason: 'evidence',
    candidateCalls: 9,
    incumbentCalls: 9,
    statistic: { evidence: 22.2 },
    ...over,
  };
}

/** One event of each type, in a plausible order, stamped one second apart from `t0`. */
export function sampleEvents(runId: string, t0: number): EngineEvent[] {
  const bodies = [
    { type: 'run/started', info: { kind: 'evolve', target: 'math/word-problems.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 7 } },
    { type: 'log', level: 'info', message: 'Dev set: 12 items.' },
    { type: 'candidate/proposed', candidateId: 'c1', parentId: 'c0', contentHash: 'ab'.repeat(32), text: 'Solve step by step.\nAnswer: <n>', reasoning: 'arithmetic slips' },
    { type: 'item/evaluated', candidateId: 'c1', itemId: 'wp-01', score: 1, cached: false, output: 'Answer: 12' },
    { type: 'verdict', candidateId: 'c1', parentId: 'c0', itemId: 'wp-01', order: 'child-first', winner: 'child', rationale: 'correct' },
    { type: 'wealth/step', candidateId: 'c1', k: 1, itemId: 'wp-01', delta: 1, logWealth: 0.4, logThreshold: Math.log(20), logBest: 6.2 },
    { type: 'decision', record: decisionRecord() },
    { type: 'suggestion', candidateId: 'c1', file: 'math/word-problems.prompt.md', baseText: 'Solve.', newText: 'Solve step by step.' },
    { type: 'edit/rejected', candidateId: 'c1', file: 'math/word-problems.prompt.md', by: 'user', why: 'too long' },
    { type: 'edit/applied', candidateId: 'c1', file: 'math/word-problems.prompt.md', by: 'user' },
    { type: 'cost/update', cost, llmCalls: 5 },
    { type: 'run/finished', commits: 1, candidates: 1, incumbentId: 'c1' },
  ] as const;
  return bodies.map((b, i) => ({ runId, at: t0 + i * 1000, ...b }) as EngineEvent);
}
