import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { createLlmClient } from '../../../src/core/llm/client';
import type { CallAdmission, LlmClientOptions, LlmWait } from '../../../src/core/llm/client';
import { DEFAULT_RETRY } from '../../../src/core/llm/retry';
import type { ChatRequest, CostReport } from '../../../src/core/llm/types';
import { MemoryFiles, MemoryLog, VirtualClock, constantRandom } from '../../fixtures/llmPorts';
import { FakeTransport, answer, deaf, fail, hang } from './fakeTransport';
import type { Behaviour } from './fakeTransport';
import { until } from '../../until';

const ask: ChatRequest = { role: 'agent', messages: [{ role: 'user', content: 'What is 6 × 7?' }] };

function setup(script: Behaviour[], overrides: Partial<LlmClientOptions> = {}) {
  const transport = new FakeTransport(script);
  const clock = new VirtualClock();
  const files = new MemoryFiles();
  const log = new MemoryLog();
  const llm = createLlmClient({
    transport,
    roles: { default: { baseURL: 'http://fake/v1', model: 'm-default', apiKey: 'sk-test' }, validator: { model: 'm-judge' } },
    concurrency: 4,
    timeoutMs: 10_000,
    retry: { ...DEFAULT_RETRY, maxFailures: 4, baseDelayMs: 100, maxDelayMs: 1000 },
    clock,
    random: constantRandom(0.5),
    log,
    ...overrides,
  });
  return { transport, clock, files, log, llm };
}

async function rejection(p: Promise<unknown>): Promise<RatchetError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RatchetError)) throw new Error(`expected a RatchetError, got ${String(err)}`);
  return err;
}

describe('LlmLayer: roles', () => {
  it("fills in each role's model, falling back to the default", async () => {
    const { llm, transport } = setup([answer('ok')]);
    await llm.chat(ask);
    await llm.chat({ ...ask, role: 'validator' });
    await llm.chat({ ...ask, role: 'meta', model: 'explicit' });
    expect(transport.requests.map((r) => [r.role, r.model])).toEqual([
      ['agent', 'm-default'],
      ['validator', 'm-judge'],
      ['meta', 'explicit'],
    ]);
    expect(llm.endpoints().validator).toEqual({ baseURL: 'http://fake/v1', model: 'm-judge' });
  });

  it('leaves the model to the transport where no role names one (the editor picks), pricing the answer by the model that gave it', async () => {
    const { llm, transport } = setup([answer('ok')], {
      roles: { default: {}, validator: { model: 'm-judge' } },
      prices: { '?': { inputPerMTok: 1, outputPerMTok: 1 } },
    });
    await llm.chat(ask);
    await llm.chat({ ...ask, role: 'validator' });
    expect(transport.requests.map((r) => [r.role, r.model])).toEqual([
      ['agent', undefined],
      ['validator', 'm-judge'],
    ]);
    expect('model' in transport.requests[0]!).toBe(false);
    expect(llm.cost().agent.dollars).toBe(15 / 1e6);
    expect(llm.endpoints().agent).toEqual({});
  });

  it('refuses a concurrency below 1', () => {
    expect(() => setup([answer('ok')], { concurrency: 0 })).toThrow(/at least 1/);
  });
});

describe('LlmLayer: retries', () => {
  it('waits out a 429 as its Retry-After says, counted as a rate limit and not as a retry', async () => {
    const { llm, transport, clock, log } = setup([fail('llmHttp', { status: 429, retryAfterMs: 7000 }), answer('42')]);
    const waits: LlmWait[] = [];
    llm.onWait((w) => waits.push(w));
    const res = await llm.chat(ask);
    expect(res.text).toBe('42');
    expect(transport.calls).toBe(2);
    expect(clock.sleeps.filter((ms) => ms !== 10_000)).toEqual([7000]);
    expect(llm.cost().agent).toMatchObject({ calls: 1, retries: 0, rateLimited: 1 });
    expect(log.entries[0]).toMatchObject({ level: 'info', data: { code: 'llmHttp', status: 429, retry: 1, delayMs: 7000 } });
    expect(waits).toEqual([{ role: 'agent', model: 'm-default', why: 'rate-limited', waitMs: 7000, status: 429, message: 'scripted llmHttp' }]);
  });

  it('tells wait listeners of each backoff after a real failure, and says when a Retry-After was cut to the cap', async () => {
    const { llm } = setup([fail('llmNetwork'), fail('llmHttp', { status: 503, retryAfterMs: 3_600_000 }), answer('ok')]);
    const waits: LlmWait[] = [];
    const stop = llm.onWait((w) => waits.push(w));
    llm.onWait(() => {
      throw new Error('a broken face');
    });
    await llm.chat(ask);
    stop();
    expect(waits.map((w) => [w.why, w.waitMs, w.status])).toEqual([
      ['retry', 50, undefined],
      ['rate-limited', 60_000, 503],
    ]);
    expect(waits[1]!.message).toBe('The endpoint asked to wait 60 min, more than the 60 s Ratchet waits at once; it asks again after that. scripted llmHttp');
    expect(llm.cost().agent).toMatchObject({ retries: 1, rateLimited: 1 });
  });

  it("fails a call with budgetExhausted, without waiting, when the wait would end past the run's deadline", async () => {
    const clock = new VirtualClock();
    const admission: CallAdmission = { admit: () => undefined, release: () => undefined, deadline: () => clock.now() + 5000 };
    const { llm, transport } = setup([fail('llmHttp', { status: 429, retryAfterMs: 20_000 }), answer('never')], { clock, admission });
    const err = await rejection(llm.chat(ask));
    expect(err.code).toBe('budgetExhausted');
    expect(err.message).toMatch(/wall-time budget ran out while rate limited/);
    expect(transport.calls).toBe(1);
    expect(clock.sleeps.filter((ms) => ms !== 10_000)).toEqual([]);
  });

  it('retries a 500 with exponential backoff, then surfaces the last error with its code', async () => {
    const { llm, transport, clock } = setup([fail('llmHttp', { status: 500 })]);
    const err = await rejection(llm.chat(ask));
    expect(err.code).toBe('llmHttp');
    expect(err.details).toMatchObject({ status: 500, attempts: 4 });
    expect(transport.calls).toBe(4);
    // Full jitter at a draw of 0.5: half of 100, 200, 400.
    expect(clock.sleeps.filter((ms) => ms !== 10_000)).toEqual([50, 100, 200]);
  });

  it('never retries a 400', async () => {
    const { llm, transport } = setup([fail('llmHttp', { status: 400 }), answer('never')]);
    expect((await rejection(llm.chat(ask))).details).toEqual({ status: 400 });
    expect(transport.calls).toBe(1);
    expect(llm.cost().agent.retries).toBe(0);
  });

  it('retries malformed answers and network errors', async () => {
    const { llm, transport } = setup([fail('llmMalformed'), fail('llmNetwork'), answer('fine')]);
    expect((await llm.chat(ask)).text).toBe('fine');
    expect(transport.calls).toBe(3);
  });
});

describe('LlmLayer: timeout and cancellation', () => {
  it('aborts an attempt that hangs past the timeout and retries it', async () => {
    const { llm, transport } = setup([hang(), answer('second try')], { timeoutMs: 5000 });
    expect((await llm.chat(ask)).text).toBe('second try');
    expect(transport.signals[0]!.aborted).toBe(true);
    expect(RatchetError.is(transport.signals[0]!.reason, 'llmTimeout')).toBe(true);
  });

  it('gives up with llmTimeout even when the transport ignores its signal', async () => {
    const { llm, transport } = setup([deaf()], { timeoutMs: 5000, retry: { ...DEFAULT_RETRY, maxFailures: 2, baseDelayMs: 1, maxDelayMs: 1 }, concurrency: 2 });
    const err = await rejection(llm.chat(ask));
    expect(err.code).toBe('llmTimeout');
    expect(err.message).toMatch(/did not answer within 5 s/);
    expect(transport.calls).toBe(2);
  });

  it("names the role, not an endpoint, when the editor's model does not answer", async () => {
    const { llm } = setup([deaf()], { roles: { default: {} }, timeoutMs: 5000, retry: { ...DEFAULT_RETRY, maxFailures: 1 } });
    const err = await rejection(llm.chat(ask));
    expect(err.message).toBe('The language model of the agent role did not answer within 5 s: it may be overloaded or still loading the model; raise the per-call timeout if this model is slow.');
    expect(err.details).toEqual({ role: 'agent', timeoutMs: 5000 });
  });

  it('rejects promptly with cancelled when aborted mid-call', async () => {
    const { llm, transport } = setup([hang()], { timeoutMs: 0 });
    const ac = new AbortController();
    const call = llm.chat(ask, ac.signal);
    await until('one call at the transport', () => transport.calls === 1);
    ac.abort();
    expect((await rejection(call)).code).toBe('cancelled');
    expect(transport.signals[0]!.aborted).toBe(true);
  });

  it('rejects with cancelled while queued, without ever calling the transport for it', async () => {
    const { llm, transport } = setup([hang()], { timeoutMs: 0, concurrency: 1 });
    const first = new AbortController();
    const second = new AbortController();
    const running = llm.chat(ask, first.signal);
    const queued = llm.chat({ ...ask, role: 'proposer' }, second.signal);
    await until('one call at the transport', () => transport.calls === 1);
    second.abort();
    expect((await rejection(queued)).code).toBe('cancelled');
    first.abort();
    await rejection(running);
    await tick();
    expect(transport.requests.map((r) => r.role)).toEqual(['agent']);
  });

  it("keeps the signal's own cancellation reason, and does not call at all when already aborted", async () => {
    const { llm, transport } = setup([answer('x')]);
    const reason = new RatchetError('cancelled', 'Cancelled the run.');
    const err = await rejection(llm.chat(ask, AbortSignal.abort(reason)));
    expect(err).toBe(reason);
    expect(transport.calls).toBe(0);
  });
});

describe('LlmLayer: concurrency', () => {
  it('never has more calls in flight than the limit, across roles', async () => {
    const clock = new VirtualClock();
    const slow: Behaviour = async (req, signal) => {
      await clock.sleep(10 + (req.messages[0]!.content.length % 7), signal);
      return answer('ok')(req, signal);
    };
    const { llm, transport } = setup([slow], { clock, concurrency: 4 });
    const roles = ['agent', 'validator', 'proposer'] as const;
    await Promise.all(Array.from({ length: 50 }, (_, i) => llm.chat({ role: roles[i % 3]!, messages: [{ role: 'user', content: 'q'.repeat(i) }] })));
    expect(transport.calls).toBe(50);
    expect(transport.maxInFlight).toBe(4);
  });
});

describe('LlmLayer: cache', () => {
  it('serves a repeated call from the cache: no transport call, no dollars', async () => {
    const files = new MemoryFiles();
    const { llm, transport } = setup([answer('42')], {
      cache: { files, dir: '/c' },
      prices: { 'm-default': { inputPerMTok: 1, outputPerMTok: 2 } },
    });
    const first = await llm.chat(ask);
    const again = await llm.chat(ask);
    expect(first.cached).toBeUndefined();
    expect(again).toEqual({ ...first, cached: true });
    expect(transport.calls).toBe(1);
    expect(llm.cost().agent).toEqual({ calls: 1, cachedCalls: 1, retries: 0, rateLimited: 0, promptTokens: 10, completionTokens: 5, dollars: 20 / 1e6 });
    expect(llm.totalCalls()).toBe(1);

    await llm.chat({ ...ask, sampleIndex: 1 });
    expect(transport.calls).toBe(2);
    expect(JSON.stringify([...files.data.values()])).not.toContain('sk-test');
  });

  it('never caches an error', async () => {
    const files = new MemoryFiles();
    const { llm, transport } = setup([fail('llmHttp', { status: 400 }), answer('now it works')], { cache: { files, dir: '/c' } });
    await rejection(llm.chat(ask));
    expect(files.data.size).toBe(0);
    expect((await llm.chat(ask)).text).toBe('now it works');
    expect(transport.calls).toBe(2);
  });

  it('caches embeddings too', async () => {
    const files = new MemoryFiles();
    const { llm } = setup([answer('x')], { cache: { files, dir: '/c' } });
    const first = await llm.embed({ role: 'challenger', input: ['abc', 'de'] });
    const again = await llm.embed({ role: 'challenger', input: ['abc', 'de'] });
    expect(again).toEqual({ ...first, cached: true });
    expect(llm.cost().challenger).toMatchObject({ calls: 1, cachedCalls: 1, promptTokens: 2 });
  });
});

/** Cache writes that land only when the test releases them: a disk slower than the endpoint, deterministically. */
class ParkedWrites extends MemoryFiles {
  private readonly held: (() => void)[] = [];
  private readonly waiters: (() => void)[] = [];
  get parked(): number {
    return this.held.length;
  }
  override async writeTextAtomic(path: string, text: string): Promise<void> {
    await new Promise<void>((release) => {
      this.held.push(release);
      for (const w of this.waiters.splice(0)) w();
    });
    await super.writeTextAtomic(path, text);
  }
  async untilParked(n: number): Promise<void> {
    while (this.held.length < n) await new Promise<void>((r) => this.waiters.push(r));
  }
  releaseOne(): void {
    this.held.shift()?.();
  }
}

describe('LlmLayer: durability', () => {
  it("frees an answer's slot only once its cache entry is written: answers paid for and not yet on disk never outnumber the concurrency", async () => {
    const files = new ParkedWrites();
    const { llm, transport } = setup([answer('ok')], { cache: { files, dir: '/c' }, concurrency: 2 });
    const calls = Array.from({ length: 5 }, (_, i) => llm.chat({ ...ask, sampleIndex: i }));
    await files.untilParked(2);
    // Both answers are in, both writes held: the endpoint is asked nothing more until one lands.
    for (let i = 0; i < 20; i++) await tick();
    expect(transport.calls).toBe(2);
    expect(files.data.size).toBe(0);
    files.releaseOne();
    await files.untilParked(2);
    expect(transport.calls).toBe(3);
    expect(files.data.size).toBe(1);
    while (files.data.size < 5) {
      files.releaseOne();
      await tick();
    }
    expect((await Promise.all(calls)).map((r) => r.text)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(transport.maxInFlight).toBe(2);
  });

  it('does not time an answer out while its cache entry is being written (that would pay for it again)', async () => {
    const files = new ParkedWrites();
    const clock = new VirtualClock({ auto: false });
    const { llm, transport } = setup([answer('ok')], { cache: { files, dir: '/c' }, clock, timeoutMs: 1000 });
    const call = llm.chat(ask);
    await files.untilParked(1);
    await clock.advance(5000);
    files.releaseOne();
    expect((await call).text).toBe('ok');
    expect(transport.calls).toBe(1);
    expect(llm.cost().agent.retries).toBe(0);
  });
});

describe('LlmLayer: cost', () => {
  it('tells listeners after each paid call, cache hit or retry, until they unsubscribe', async () => {
    const { llm } = setup([fail('llmHttp', { status: 502 }), answer('a')]);
    const seen: [CostReport, number][] = [];
    const stop = llm.onCost((cost, calls) => seen.push([cost, calls]));
    llm.onCost(() => {
      throw new Error('a broken face');
    });
    await llm.chat(ask);
    stop();
    await llm.chat(ask);
    expect(seen.map(([c, n]) => [c.agent.retries, c.agent.calls, n])).toEqual([
      [1, 0, 0],
      [1, 1, 1],
    ]);
  });

  it('prices by the configured model, or by the dated alias the endpoint answered with', async () => {
    const dated: Behaviour = async (req) => ({ ...(await answer('x')(req, new AbortController().signal)), model: 'm-default-2025-01-01' });
    const { llm } = setup([dated], { prices: { 'm-default-2025-01-01': { inputPerMTok: 1e6, outputPerMTok: 0 } } });
    await llm.chat(ask);
    expect(llm.cost().agent.dollars).toBe(10);
    expect(llm.totalDollars()).toBe(10);
  });
});

async function tick(): Promise<void> {
  await new Promise<void>((r) => setImmediate(r));
}
