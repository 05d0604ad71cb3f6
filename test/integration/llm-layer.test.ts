// The LLM layer as the product runs it: core layer → OpenAiTransport → the real openai SDK → real
// HTTP → the fake OpenAI-compatible server. What a user would notice: retries that respect the
// server, timeouts, cancellation, the concurrency cap, the cache, the bill, logprobs, clear errors.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RatchetError } from '../../src/core/errors';
import type { ChatRequest } from '../../src/core/llm/types';
import { DEFAULT_RETRY } from '../../src/core/llm/retry';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { promptTokens as promptTokensOf, tokenize } from '../fixtures/fakeOpenAI/tokens';
import { MemoryFiles } from '../fixtures/llmPorts';
import { TEST_KEY, layerFor, simRoles } from './llmHarness';
import { until } from '../until';

const items = [
  { id: 'q1', question: 'What is six times seven?', answer: 42 },
  { id: 'q2', question: 'How many legs has a spider?', answer: 8 },
];
const ask: ChatRequest = {
  role: 'agent',
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content: items[0]!.question },
  ],
};

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeServer({ scenario: { seed: 1, items, agent: { baseAccuracy: 1 } } });
});
afterEach(() => {
  server.clearFaults();
  server.setLatency(0);
  server.setScenario({ seed: 1, items, agent: { baseAccuracy: 1 } });
  server.resetStats();
});
afterAll(async () => {
  await server.close();
});

async function rejection(p: Promise<unknown>): Promise<RatchetError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof RatchetError)) throw new Error(`expected a RatchetError, got ${String(err)}`);
  return err;
}

describe('chat through the real SDK', () => {
  it('sends each role to its own model and reads the answer', async () => {
    const llm = layerFor(server.url);
    const res = await llm.chat(ask);
    expect(res).toMatchObject({ text: 'Let me work through it step by step.\nThe answer is 42', finishReason: 'stop', model: 'sim-agent', logprobs: undefined });
    await llm.chat({ role: 'validator', messages: [{ role: 'user', content: 'x' }] });
    expect(server.calls.map((c) => [c.path, c.model, c.status])).toEqual([
      ['/v1/chat/completions', 'sim-agent', 200],
      ['/v1/chat/completions', 'sim-validator', 200],
    ]);
  });

  it('returns embeddings, deterministic per text', async () => {
    const llm = layerFor(server.url);
    const { vectors, usage } = await llm.embed({ role: 'challenger', input: ['alpha', 'beta', 'alpha'] });
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(16);
    expect(vectors[2]).toEqual(vectors[0]);
    expect(vectors[1]).not.toEqual(vectors[0]);
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(server.calls[0]).toMatchObject({ path: '/v1/embeddings', model: 'sim-challenger' });
  });
});

describe('retries', () => {
  it('waits out a 429 no sooner than its Retry-After, counted as a rate limit and not a retry', async () => {
    server.inject({ kind: 'status', status: 429, retryAfter: '1' });
    const llm = layerFor(server.url);
    expect((await llm.chat(ask)).text).toContain('42');
    expect(server.calls.map((c) => c.status)).toEqual([429, 200]);
    expect(server.calls[1]!.at - server.calls[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(llm.cost().agent).toMatchObject({ calls: 1, retries: 0, rateLimited: 1 });
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    server.inject({ kind: 'status', status: 429, retryAfter: new Date(Date.now() + 30_000).toUTCString() });
    const err = await rejection(layerFor(server.url, { retry: { ...DEFAULT_RETRY, maxRateLimitedMs: 0 } }).chat(ask));
    expect(err.code).toBe('llmHttp');
    expect(err.details['status']).toBe(429);
    expect(err.details['retryAfterMs']).toBeGreaterThan(25_000);
    expect(err.details['retryAfterMs']).toBeLessThanOrEqual(30_000);
    expect(err.message).toMatch(/answered 429 Too Many Requests/);
  });

  it('retries a 500 and counts the retry', async () => {
    server.inject({ kind: 'status', status: 500 });
    const llm = layerFor(server.url);
    await llm.chat(ask);
    expect(server.calls.map((c) => c.status)).toEqual([500, 200]);
    expect(llm.cost().agent.retries).toBe(1);
  });

  it('rides out a storm where half the requests get a 429: every call answers, none counted as a retry', async () => {
    server.inject({ kind: 'status', status: 429, retryAfterMs: 5, rate: 0.5, times: Infinity });
    const llm = layerFor(server.url, { concurrency: 8 });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => llm.chat({ role: 'agent', messages: [{ role: 'user', content: `What is ${i} + 1?` }] })));
    expect(answers.every((a) => a.text.includes('The answer is'))).toBe(true);
    const limited = server.calls.filter((c) => c.status === 429).length;
    expect(limited).toBeGreaterThan(0);
    expect(llm.cost().agent).toMatchObject({ calls: 40, retries: 0, rateLimited: limited });
  });

  it('gives up on a persistent 503 with the status in the error', async () => {
    server.inject({ kind: 'status', status: 503, times: 5 });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.details).toMatchObject({ status: 503, attempts: 3 });
    expect(server.calls).toHaveLength(3);
  });

  it('does not retry a 400, and shows what the server said', async () => {
    server.inject({ kind: 'status', status: 400, message: "Unsupported parameter: 'seed'." });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.code).toBe('llmHttp');
    expect(err.details['status']).toBe(400);
    expect(err.message).toContain("Unsupported parameter: 'seed'.");
    expect(server.calls).toHaveLength(1);
  });

  it('scrubs the key from any server text it shows', async () => {
    server.inject({ kind: 'status', status: 400, message: `Bad request from key ${TEST_KEY} (Bearer ${TEST_KEY}).` });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.message).toContain('Bad request from key');
    expect(err.message).not.toContain(TEST_KEY);
    expect(err.message).not.toContain('0123456789');
  });

  it('explains a 401 without ever showing the key', async () => {
    const guarded = await startFakeServer({ apiKey: 'the-right-key' });
    try {
      const err = await rejection(layerFor(guarded.url, { roles: simRoles(guarded.url, TEST_KEY) }).chat(ask));
      expect(err.message).toBe(`The endpoint ${guarded.url} answered 401 Unauthorized: check the API key, which came from OPENAI_API_KEY.`);
      const everything = JSON.stringify({ message: err.message, details: err.details });
      expect(everything).not.toContain(TEST_KEY);
      expect(everything).not.toContain('sk-tes');
      expect(guarded.calls).toHaveLength(1);
      const ok = await layerFor(guarded.url, { roles: simRoles(guarded.url, 'the-right-key') }).chat({ ...ask, role: 'meta' });
      expect(ok.text).toContain('Rubric');
    } finally {
      await guarded.close();
    }
  });

  it('names the model when the endpoint does not know it', async () => {
    const roles = { ...simRoles(server.url), agent: { model: 'gpt-typo' } };
    const err = await rejection(layerFor(server.url, { roles }).chat(ask));
    expect(err.details['status']).toBe(404);
    expect(err.message).toMatch(/answered 404 Not Found .*check the model name "gpt-typo"/);
  });

  it('retries malformed JSON, then surfaces llmMalformed', async () => {
    server.inject({ kind: 'malformed', times: 3 });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.code).toBe('llmMalformed');
    expect(err.message).toMatch(/not valid JSON/);
    expect(server.calls).toHaveLength(3);
  });

  it('retries a truncated body, then surfaces llmMalformed', async () => {
    server.inject({ kind: 'truncated', times: 3 });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.code).toBe('llmMalformed');
    expect(err.message).toMatch(/closed the connection before the whole answer arrived/);
    expect(server.calls).toHaveLength(3);
  });

  it('recovers when only the first answer is broken', async () => {
    server.inject({ kind: 'truncated' });
    server.inject({ kind: 'malformed' });
    expect((await layerFor(server.url).chat(ask)).text).toContain('42');
    expect(server.calls.map((c) => c.fault)).toEqual(['truncated', 'malformed', undefined]);
  });

  it('treats an answer without choices as malformed', async () => {
    server.inject({ kind: 'noChoices', times: 3 });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.code).toBe('llmMalformed');
    expect(err.message).toMatch(/no choices/);
  });

  it('retries a dropped connection as a network error', async () => {
    server.inject({ kind: 'reset', times: 3 });
    const err = await rejection(layerFor(server.url).chat(ask));
    expect(err.code).toBe('llmNetwork');
    expect(server.calls).toHaveLength(3);
  });

  it('says which endpoint could not be reached', async () => {
    const gone = await startFakeServer();
    const url = gone.url;
    await gone.close();
    const err = await rejection(layerFor(url, { retry: { ...DEFAULT_RETRY, maxFailures: 1 } }).chat(ask));
    expect(err.code).toBe('llmNetwork');
    expect(err.message).toBe(`Could not reach the endpoint ${url} (ECONNREFUSED): check that the server is running and that the base URL is right.`);
  });
});

describe('timeouts and cancellation', () => {
  it('aborts a hanging call at the timeout and retries it', async () => {
    server.inject({ kind: 'hang', times: 2 });
    const llm = layerFor(server.url, { timeoutMs: 300, retry: { ...DEFAULT_RETRY, maxFailures: 2, baseDelayMs: 1, maxDelayMs: 1 } });
    const err = await rejection(llm.chat(ask));
    expect(err.code).toBe('llmTimeout');
    expect(err.message).toMatch(/did not answer within 0.3 s/);
    expect(server.calls).toHaveLength(2);
    await until('no call in flight at the server', () => server.inFlight === 0);
  });

  it('cancels a call in flight', async () => {
    server.inject({ kind: 'hang' });
    const llm = layerFor(server.url);
    const ac = new AbortController();
    const call = llm.chat(ask, ac.signal);
    await until('one call at the server', () => server.calls.length === 1);
    ac.abort();
    expect((await rejection(call)).code).toBe('cancelled');
    await until('no call in flight at the server', () => server.inFlight === 0);
    expect(server.calls[0]!.status).toBe(0);
    expect(llm.totalCalls()).toBe(0);
  });

  it('cancels a queued call before it reaches the server', async () => {
    server.inject({ kind: 'hang' });
    const llm = layerFor(server.url, { concurrency: 1 });
    const first = new AbortController();
    const second = new AbortController();
    const running = llm.chat(ask, first.signal);
    const queued = llm.chat({ ...ask, role: 'proposer' }, second.signal);
    await until('one call at the server', () => server.calls.length === 1);
    second.abort();
    expect((await rejection(queued)).code).toBe('cancelled');
    first.abort();
    await rejection(running);
    await until('no call in flight at the server', () => server.inFlight === 0);
    expect(server.calls.map((c) => c.model)).toEqual(['sim-agent']);
  });
});

describe('concurrency', () => {
  it('never has more than the limit in flight at the server', async () => {
    server.setLatency(30);
    const llm = layerFor(server.url, { concurrency: 4 });
    const roles = ['agent', 'validator', 'proposer', 'meta'] as const;
    await Promise.all(Array.from({ length: 50 }, (_, i) => llm.chat({ role: roles[i % 4]!, messages: [{ role: 'user', content: `${items[i % 2]!.question} #${i}` }] })));
    expect(server.calls).toHaveLength(50);
    expect(server.maxInFlight).toBe(4);
  });
});

describe('cache', () => {
  it('answers a repeated call from the cache; another sample is a miss', async () => {
    const files = new MemoryFiles();
    const llm = layerFor(server.url, { cache: { files, dir: '/ws/.ratchet/cache/llm' } });
    const first = await llm.chat({ ...ask, temperature: 0.7 });
    const again = await llm.chat({ ...ask, temperature: 0.7 });
    expect(again).toEqual({ ...first, cached: true });
    expect(server.calls).toHaveLength(1);
    await llm.chat({ ...ask, temperature: 0.7, sampleIndex: 1 });
    expect(server.calls).toHaveLength(2);
    expect(llm.cost().agent).toMatchObject({ calls: 2, cachedCalls: 1 });
    const stored = [...files.data.entries()];
    expect(stored).toHaveLength(2);
    expect(stored[0]![0]).toMatch(/^\/ws\/\.ratchet\/cache\/llm\/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/);
    expect(JSON.stringify(stored)).not.toContain(TEST_KEY);
  });

  it('never caches an error', async () => {
    const files = new MemoryFiles();
    const llm = layerFor(server.url, { cache: { files, dir: '/c' } });
    server.inject({ kind: 'status', status: 400 });
    await rejection(llm.chat(ask));
    expect(files.data.size).toBe(0);
    await llm.chat(ask);
    await llm.chat(ask);
    expect(server.calls.map((c) => c.status)).toEqual([400, 200]);
  });
});

describe('cost', () => {
  it('adds up tokens per role, in dollars where the model has a price', async () => {
    const llm = layerFor(server.url, { prices: { 'sim-agent': { inputPerMTok: 3, outputPerMTok: 15 } } });
    await llm.chat(ask);
    await llm.chat({ role: 'proposer', messages: [{ role: 'user', content: '```prompt\nBe brief.\n```' }] });
    const cost = llm.cost();
    // The fake server bills ceil(chars/4)+3 per message in, one per word or sign out.
    const promptTokens = promptTokensOf(ask.messages);
    const completionTokens = tokenize('Let me work through it step by step.\nThe answer is 42').length;
    expect(cost.agent).toEqual({
      calls: 1,
      cachedCalls: 0,
      retries: 0,
      rateLimited: 0,
      promptTokens,
      completionTokens,
      dollars: (promptTokens * 3 + completionTokens * 15) / 1e6,
    });
    expect(cost.proposer).toMatchObject({ calls: 1, dollars: undefined });
    expect(cost.proposer.completionTokens).toBeGreaterThan(0);
    expect(llm.totalCalls()).toBe(2);
    expect(llm.totalDollars()).toBeUndefined();
  });
});

describe('logprobs', () => {
  it('come back per token when asked for', async () => {
    const res = await layerFor(server.url).chat({ ...ask, logprobs: true, topLogprobs: 3 });
    expect(res.logprobs).toBeDefined();
    expect(res.logprobs!.map((t) => t.token).join('')).toBe(res.text);
    const last = res.logprobs![res.logprobs!.length - 1]!;
    expect(last.token).toBe(' 42');
    expect(last.top).toHaveLength(3);
    expect(last.top![0]).toEqual({ token: ' 42', logprob: last.logprob });
  });

  it('are undefined when not asked for, or when the endpoint omits them', async () => {
    expect((await layerFor(server.url).chat(ask)).logprobs).toBeUndefined();
    server.setScenario({ items, logprobs: 'omitted' });
    const res = await layerFor(server.url).chat({ ...ask, logprobs: true });
    expect(res.text).toContain('The answer is');
    expect(res.logprobs).toBeUndefined();
  });

  it('surface an endpoint that rejects them as a 400, not retried', async () => {
    server.setScenario({ items, logprobs: 'rejected' });
    const err = await rejection(layerFor(server.url).chat({ ...ask, logprobs: true }));
    expect(err.details['status']).toBe(400);
    expect(err.message).toContain('logprobs are not supported');
    expect(server.calls).toHaveLength(1);
  });
});
