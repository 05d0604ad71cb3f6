/** Small builders for panel events in tests: each fills the fields a test does not care about. */
import type { DecisionRecord } from '../../../src/core/gates/record';
import type { CostReport } from '../../../src/core/llm/types';
import type { EngineEvent } from '../../../src/core/journal/events';
import type { PanelEvent } from '../../../src/panelState/types';

export const RUN = 'run-1';
let clock = 1_000;

/**
 * The `at` of the latest event built. Test files that share a worker share this module and its
 * clock, so a test that needs a time after its events asks for it instead of writing a number.
 */
export function eventClock(): number {
  return clock;
}

export function ev<T extends PanelEvent['type']>(type: T, fields: Omit<Extract<PanelEvent, { type: T }>, 'type' | 'runId' | 'at'> & { at?: number; runId?: string }): Extract<PanelEvent, { type: T }> {
  clock += 10;
  return { runId: RUN, at: clock, ...fields, type } as unknown as Extract<PanelEvent, { type: T }>;
}

export function started(extra: Record<string, unknown> = {}): EngineEvent {
  return ev('run/started', { info: { kind: 'evolve', target: 'p/x.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1, ...extra } });
}

export function proposed(candidateId: string, parentId: string | undefined, text = `text of ${candidateId}`, reasoning?: string): EngineEvent {
  return ev('candidate/proposed', { candidateId, parentId, contentHash: `h-${candidateId}`, text, ...(reasoning ? { reasoning } : {}) });
}

export function record(candidateId: string, decision: 'commit' | 'reject', over: Partial<DecisionRecord> = {}): DecisionRecord {
  return {
    candidateId,
    parentId: 'c0',
    incumbentId: 'c0',
    gate: 'pace+',
    configHash: 'cfg',
    alpha: 0.05,
    schedule: 'per-candidate',
    ledgerBefore: { tested: 0, commits: 0 },
    threshold: 20,
    orderSeed: 1,
    itemsConsumed: 9,
    wins: 7,
    losses: 1,
    ties: 1,
    logWealth: decision === 'commit' ? Math.log(21.5) : Math.log(0.4),
    decision,
    reason: decision === 'commit' ? 'evidence' : 'futile',
    candidateCalls: 9,
    incumbentCalls: 3,
    ...over,
  };
}

export function decided(candidateId: string, decision: 'commit' | 'reject', over: Partial<DecisionRecord> = {}): EngineEvent {
  return ev('decision', { record: record(candidateId, decision, over) });
}

export function step(candidateId: string, k: number, delta: number, logWealth: number, logBest = 10): EngineEvent {
  return ev('wealth/step', { candidateId, k, itemId: `i${k}`, delta, logWealth, logThreshold: Math.log(20), logBest });
}

/** Agent calls only; `priced: false` is a model without a known price (dollars unknown). */
export function cost(calls: number, priced = true): CostReport {
  const dollars = priced ? calls * 0.001 : undefined;
  const none = { calls: 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: 0 };
  return {
    agent: { calls, cachedCalls: 1, retries: 0, promptTokens: calls * 100, completionTokens: calls * 10, dollars },
    proposer: { ...none },
    validator: { ...none },
    meta: { ...none },
    challenger: { ...none },
  };
}
