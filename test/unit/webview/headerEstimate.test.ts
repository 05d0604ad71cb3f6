import { describe, expect, it } from 'vitest';
import { headerModel } from '../../../webview/model/header';
import { emptyRunState, foldEvents } from '../../../src/panelState/runState';
import { RUN, cost, decided, ev, started } from './events';

describe('run header: the estimate, then the real dollars', () => {
  it('says what the run expects to spend until the first decision, then the meters say what it spent', () => {
    const begun = foldEvents(emptyRunState(RUN), [started({ budget: { dollars: 2 }, estimate: { calls: 412, tokens: 900_000, dollars: 0.38 } })]);
    const m = headerModel(begun, 0);
    expect(m.estimate).toBe('≈ 412 calls, ≈ $0.38');
    expect(m.meters.find((x) => x.name === 'dollars')).toEqual({ name: 'dollars', used: '$0.0000', limit: '$2.00', fraction: 0 });
    const later = foldEvents(begun, [ev('cost/update', { cost: cost(40), llmCalls: 40 }), decided('c1', 'reject')]);
    expect(headerModel(later, 0).estimate).toBeUndefined();
    expect(headerModel(later, 0).meters.find((x) => x.name === 'dollars')).toEqual({ name: 'dollars', used: '$0.0400', limit: '$2.00', fraction: 0.02 });
  });

  it('Evaluate talks like Evaluate: no gate, α or mode, no "v0 → v0" report, and the estimate gives way to the meters at its end', () => {
    const events = [
      started({ kind: 'evaluate', budget: { candidates: 0 }, estimate: { calls: 11, tokens: 9_000, dollars: 0.01 } }),
      ev('report/test', { n: 10, baseline: { candidateId: 'v0', mean: 0.7, lo: 0.4, hi: 0.9 }, final: { candidateId: 'v0', mean: 0.7, lo: 0.4, hi: 0.9 }, difference: { mean: 0, lo: 0, hi: 0 } }),
      ev('cost/update', { cost: cost(11), llmCalls: 11 }),
    ];
    const running = headerModel(foldEvents(emptyRunState(RUN), [events[0]!]), 0);
    expect(running).toMatchObject({ gated: false, statusText: 'evaluating the prompt on the test split', estimate: '≈ 11 calls, ≈ $0.0100' });
    const done = headerModel(foldEvents(emptyRunState(RUN), [...events, ev('run/finished', { commits: 0, candidates: 0, incumbentId: 'v0' })]), 0);
    expect(done).toMatchObject({ gated: false, testReport: undefined, guarantee: undefined, estimate: undefined });
    expect(done.statusText).toBe('evaluated v0 on 10 test items: mean score 0.700 (95% interval 0.400–0.900)');
    // An evolve run keeps its gate.
    expect(headerModel(foldEvents(emptyRunState(RUN), [started()]), 0).gated).toBe(true);
  });

  it('names the unpriced models instead of a figure, and says nothing for a run without an estimate', () => {
    const unpriced = foldEvents(emptyRunState(RUN), [started({ estimate: { calls: 1, tokens: 500, unpriced: ['llama3'] } })]);
    expect(headerModel(unpriced, 0).estimate).toBe('≈ 1 call, cost unknown (model llama3 unpriced)');
    expect(headerModel(foldEvents(emptyRunState(RUN), [started()]), 0).estimate).toBeUndefined();
    expect(headerModel(undefined, 0).estimate).toBeUndefined();
  });
});

describe('run header: the models line', () => {
  it('says each called role’s model and where it was chosen, as the run said before its first call', () => {
    const models = [
      { role: 'agent', model: 'llama3.1', from: 'setting ratchet.models.default' },
      { role: 'proposer', model: 'gpt-4o', from: 'word-problems.ratchet.yaml:9' },
    ];
    const s = foldEvents(emptyRunState(RUN), [started({ models })]);
    expect(headerModel(s, 0).models).toBe('agent: llama3.1 (setting ratchet.models.default) · proposer: gpt-4o (word-problems.ratchet.yaml:9)');
    // A run journaled before runs said so has no line.
    expect(headerModel(foldEvents(emptyRunState(RUN), [started()]), 0).models).toBeUndefined();
  });
});

describe('run header: the guarantee line', () => {
  it('says what the run bounds: the whole run under the default schedule', () => {
    const s = foldEvents(emptyRunState(RUN), [started({ schedule: 'fwer-screened', budget: { candidates: 30 } })]);
    expect(headerModel(s, 0).guarantee).toBe('this run: P(any false commit) ≤ 0.05');
  });

  it('per candidate: each candidate, and what that adds up to over the declared candidates', () => {
    const s = foldEvents(emptyRunState(RUN), [started({ schedule: 'per-candidate', budget: { candidates: 25 } })]);
    expect(headerModel(s, 0).guarantee).toBe('each candidate: P(false commit) ≤ 0.05; over 25 candidates up to 0.72 if independent');
  });

  it('claims nothing for a run journaled before runs said their schedule, nor for a dev-set generation', () => {
    expect(headerModel(foldEvents(emptyRunState(RUN), [started()]), 0).guarantee).toBeUndefined();
    expect(headerModel(foldEvents(emptyRunState(RUN), [started({ kind: 'gen-data', schedule: 'fwer-screened' })]), 0).guarantee).toBeUndefined();
    expect(headerModel(undefined, 0).guarantee).toBeUndefined();
  });
});
