import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { checkOverrides } from '../../../src/core/run/overrides';

// The editor and the run daemon pass overrides that never went through the CLI's flag parsers.
describe('checkOverrides', () => {
  it('accepts values in range and absent ones', () => {
    expect(() => checkOverrides({})).not.toThrow();
    expect(() => checkOverrides({ alpha: 0.05, budgetCalls: 1, concurrency: 4, callTimeoutSeconds: 0.5, budgetDollars: 2 })).not.toThrow();
    // A budget of 0 calls (send nothing) and 0 candidates (the editor's Evaluate) are runs too.
    expect(() => checkOverrides({ budgetCalls: 0, candidates: 0 })).not.toThrow();
  });

  it.each([
    [{ alpha: 0 }, '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got 0.'],
    [{ alpha: Number.NaN }, '--alpha (gate.alpha) must be a number between 0 and 1 (exclusive), got NaN.'],
    [{ budgetCalls: -3 }, '--budget-calls (budget.calls) must be a whole number, 0 or more, got -3.'],
    [{ concurrency: 1.5 }, '--concurrency (concurrency) must be a whole number above 0, got 1.5.'],
    [{ callTimeoutSeconds: 0 }, '--call-timeout (callTimeoutSeconds) must be a number above 0, got 0.'],
  ])('refuses %j naming the flag', (o, message) => {
    let thrown: unknown;
    try {
      checkOverrides(o);
    } catch (err) {
      thrown = err;
    }
    expect(RatchetError.is(thrown, 'badInput')).toBe(true);
    expect((thrown as Error).message).toBe(message);
  });
});
