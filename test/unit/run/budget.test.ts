// Budgets as hard limits: the LLM layer asks RunBudget before each attempt is sent, so a budget of
// N calls sends at most N requests; tokens, dollars and active wall time stop the next call.
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { createLlmClient } from '../../../src/core/llm/client';
import { DEFAULT_RETRY } from '../../../src/core/llm/retry';
import type { ChatRequest } from '../../../src/core/llm/types';
import { RunBudget } from '../../../src/core/run/budget';
import type { BudgetSpec } from '../../../src/core/run/specTypes';
import { MemoryFiles, VirtualClock, constantRandom } from '../../fixtures/llmPorts';
import { FakeTransport, answer } from '../llm/fakeTransport';
import type { Behaviour } from '../llm/fakeTransport';

const ask = (i: number): ChatRequest => ({ role: 'agent', messages: [{ role: 'user', content: `question ${i}` }] });

function setup(budget: Partial<BudgetSpec>, script: Behaviour[] = [answer('ok')], opts: { concurrency?: number; prices?: boolean } = {}) {
  const clock = new VirtualClock();
  const transport = new FakeTransport(script);
  const run = new RunBudget({ candidates: 10, ...budget }, clock);
  const llm = createLlmClient({
    transport,
    roles: { default: { baseURL: 'http://fake/v1', model: 'm' } },
    concurrency: opts.concurrency ?? 4,
    timeoutMs: 0,
    retry: DEFAULT_RETRY,
    ...(opts.prices ? { prices: { m: { inputPerMTok: 1_000_000, outputPerMTok: 0 } } } : {}),
    admission: run,
    clock,
    random: constantRandom(0.5),
  });
  run.measure(llm);
  return { clock, transport, run, llm };
}

async function settle(p: Promise<unknown>): Promise<'ok' | string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return RatchetError.is(err) ? err.code : String(err);
  }
}

describe("RunBudget as the LLM layer's admission", () => {
  it('sends at most N requests for a budget of N calls, even when 12 are asked at once', async () => {
    const { llm, transport, run } = setup({ calls: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => settle(llm.chat(ask(i)))));
    expect(transport.calls).toBe(5);
    expect(results.filter((r) => r === 'ok')).toHaveLength(5);
    expect(results.filter((r) => r === 'budgetExhausted')).toHaveLength(7);
    expect(run.exceeded()).toBe('5 of 5 LLM calls');
  });

  it('sends nothing with a budget of 0 calls', async () => {
    const { llm, transport } = setup({ calls: 0 });
    expect(await settle(llm.chat(ask(1)))).toBe('budgetExhausted');
    expect(transport.calls).toBe(0);
  });

  it('names the budget in the error, so the user sees which one ran out', async () => {
    const { llm } = setup({ tokens: 20 }, [answer('ok', { promptTokens: 15, completionTokens: 5 })]);
    await llm.chat(ask(1));
    const err = await llm.chat(ask(2)).catch((e: unknown) => e as RatchetError);
    expect(err).toMatchObject({ code: 'budgetExhausted', details: { budget: '20 of 20 tokens' } });
  });

  it('stops at the dollars budget once the meter has prices', async () => {
    // 1 $/token of input: each call of 10 prompt tokens costs $10.
    const { llm, transport } = setup({ dollars: 25 }, [answer('ok')], { prices: true });
    for (let i = 0; i < 5; i++) await settle(llm.chat(ask(i)));
    expect(transport.calls).toBe(3);
    expect(llm.totalDollars()).toBe(30);
  });

  it('counts the known input price of the calls in flight: eight calls at once send only those the budget has room for', async () => {
    // 1 $/token of input; each question is 3 tokens by the estimate and by the answer's usage: $3 a call.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const slow: Behaviour = async (req, signal) => {
      await held;
      return answer('ok', { promptTokens: 3, completionTokens: 0 })(req, signal);
    };
    const { llm, transport } = setup({ dollars: 10 }, [slow], { prices: true, concurrency: 8 });
    const calls = Array.from({ length: 8 }, (_, i) => settle(llm.chat(ask(i))));
    release();
    const outcomes = await Promise.all(calls);
    expect(transport.calls).toBe(3);
    expect(outcomes.filter((o) => o === 'budgetExhausted')).toHaveLength(5);
    expect(llm.totalDollars()).toBe(9);
  });

  it("counts a resumed run's earlier active time toward its wall-time budget, and its deadline moves with it", async () => {
    const { llm, clock, run, transport } = setup({ wallTimeMinutes: 1 });
    run.continueFrom(50_000);
    expect(run.deadline()).toBe(clock.now() + 10_000);
    await llm.chat(ask(1));
    await clock.advance(10_000);
    expect(run.exceeded()).toBe('1 minutes of wall time');
    expect(await settle(llm.chat(ask(2)))).toBe('budgetExhausted');
    expect(transport.calls).toBe(1);
  });

  it('cannot run out of wall time while a resume re-executes what its journal holds', async () => {
    const { llm, clock, run, transport } = setup({ wallTimeMinutes: 1 });
    let replaying = true;
    run.continueFrom(70_000, () => replaying);
    expect(run.exceeded()).toBeUndefined();
    expect(await settle(llm.chat(ask(1)))).toBe('ok');
    replaying = false;
    await clock.advance(1);
    expect(run.exceeded()).toBe('1 minutes of wall time');
    expect(await settle(llm.chat(ask(2)))).toBe('budgetExhausted');
    expect(transport.calls).toBe(1);
  });

  it('says how many calls are left, counting those in flight', async () => {
    const { run } = setup({ calls: 3 });
    expect(run.callsLeft()).toBe(3);
    run.admit();
    expect(run.callsLeft()).toBe(2);
    run.release();
    expect(run.callsLeft()).toBe(3);
  });
});

describe('the meter across a resume (cache entries name the run that paid)', () => {
  it("counts a replayed call of this run as paid, once; another run's entry stays a free hit", async () => {
    const files = new MemoryFiles();
    const make = (runId: string) => {
      const transport = new FakeTransport([answer('ok')]);
      const llm = createLlmClient({
        transport,
        roles: { default: { baseURL: 'http://fake/v1', model: 'm' } },
        concurrency: 2,
        timeoutMs: 0,
        retry: DEFAULT_RETRY,
        cache: { files, dir: '/cache' },
        clock: new VirtualClock(),
        random: constantRandom(0.5),
      });
      llm.payFor(runId);
      return { llm, transport };
    };
    const first = make('run-a');
    await first.llm.chat(ask(1));
    await first.llm.chat(ask(2));
    await first.llm.chat(ask(1)); // the same request again: a free hit in the uninterrupted run
    expect(first.llm.cost().agent).toMatchObject({ calls: 2, cachedCalls: 1, promptTokens: 20 });

    // The same run, resumed in a new process: the replay pays nothing and counts the same.
    const resumed = make('run-a');
    for (const i of [1, 2, 1]) await resumed.llm.chat(ask(i));
    expect(resumed.transport.calls).toBe(0);
    expect(resumed.llm.cost().agent).toEqual(first.llm.cost().agent);

    // Another run reusing those answers pays nothing and is not billed for them.
    const other = make('run-b');
    await other.llm.chat(ask(1));
    expect(other.llm.cost().agent).toMatchObject({ calls: 0, cachedCalls: 1 });
  });
});
