import { describe, expect, it } from 'vitest';
import { CostMeter, emptyRoleCost } from '../../../src/core/llm/cost';

describe('CostMeter', () => {
  it('adds tokens and dollars per role from $/MTok prices', () => {
    const meter = new CostMeter({ big: { inputPerMTok: 2.5, outputPerMTok: 10 } });
    meter.recordCall('agent', 'big', { promptTokens: 1000, completionTokens: 200 });
    meter.recordCall('agent', 'big', { promptTokens: 3000, completionTokens: 800 });
    meter.recordRetry('agent');
    meter.recordRateLimit('agent');
    meter.recordRateLimit('agent');
    meter.recordCacheHit('agent');
    expect(meter.report().agent).toEqual({
      calls: 2,
      cachedCalls: 1,
      retries: 1,
      rateLimited: 2,
      promptTokens: 4000,
      completionTokens: 1000,
      dollars: (4000 * 2.5 + 1000 * 10) / 1e6,
    });
    expect(meter.report().proposer).toEqual(emptyRoleCost());
    expect(meter.totalCalls()).toBe(2);
    expect(meter.totalDollars()).toBeCloseTo(0.02, 12);
  });

  it("counts an unpriced model in tokens only, and the role's dollars become unknown", () => {
    const meter = new CostMeter({ big: { inputPerMTok: 1, outputPerMTok: 1 } });
    meter.recordCall('validator', 'big', { promptTokens: 10, completionTokens: 10 });
    meter.recordCall('validator', 'local-llama', { promptTokens: 5, completionTokens: 5 });
    meter.recordCall('validator', 'big', { promptTokens: 10, completionTokens: 10 });
    expect(meter.report().validator).toMatchObject({ calls: 3, promptTokens: 25, completionTokens: 25, dollars: undefined });
    expect(meter.totalDollars()).toBeUndefined();
  });

  it('bills prompt tokens the endpoint served from its cache at the cached rate, else at the input rate', () => {
    const meter = new CostMeter({
      cached: { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 },
      flat: { inputPerMTok: 2, outputPerMTok: 8 },
    });
    meter.recordCall('agent', 'cached', { promptTokens: 1000, completionTokens: 100, cachedPromptTokens: 600 });
    meter.recordCall('proposer', 'flat', { promptTokens: 1000, completionTokens: 100, cachedPromptTokens: 600 });
    expect(meter.report().agent.dollars).toBeCloseTo((400 * 2 + 600 * 0.5 + 100 * 8) / 1e6, 15);
    expect(meter.report().proposer.dollars).toBeCloseTo((1000 * 2 + 100 * 8) / 1e6, 15);
    expect(meter.report().agent.promptTokens).toBe(1000);
  });

  it('hands out snapshots that later calls do not change', () => {
    const meter = new CostMeter();
    const before = meter.report();
    meter.recordCall('meta', 'x', { promptTokens: 1, completionTokens: 1 });
    expect(before.meta.calls).toBe(0);
    expect(meter.report().meta.dollars).toBeUndefined();
  });
});
