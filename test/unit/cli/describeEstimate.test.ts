import { describe, expect, it } from 'vitest';
import { describeEstimate, describeEvent } from '../../../src/cli/output';
import type { EngineEvent } from '../../../src/core/journal/events';

describe('describeEstimate', () => {
  it('says calls, tokens and dollars, or which models left the cost unknown', () => {
    expect(describeEstimate({ calls: 412, tokens: 1_234_000, dollars: 0.38 })).toBe('≈ 412 calls, ≈ 1.23M tok, ≈ $0.3800');
    expect(describeEstimate({ calls: 1, tokens: 900, dollars: 12.5 })).toBe('≈ 1 call, ≈ 900 tok, ≈ $12.50');
    expect(describeEstimate({ calls: 60, tokens: 40_000, unpriced: ['llama3', 'x\u001b[2J'] })).toBe('≈ 60 calls, ≈ 40.0k tok, cost unknown (models llama3, x [2J unpriced)');
  });

  it('is part of the run/started line that `runs show` prints', () => {
    const e: EngineEvent = { type: 'run/started', runId: 'r', at: 0, info: { kind: 'evolve', target: 't.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1, estimate: { calls: 3, tokens: 10, unpriced: ['m'] } } };
    expect(describeEvent(e)).toBe('evolve t.prompt.md · gate pace+ α 0.05 · suggest · seed 1 · estimate ≈ 3 calls, ≈ 10 tok, cost unknown (model m unpriced)');
  });
});
