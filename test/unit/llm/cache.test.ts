import { describe, expect, it } from 'vitest';
import { ResponseCache, cacheKey, canonicalJson, chatKeyMaterial } from '../../../src/core/llm/cache';
import type { ChatRequest, ChatResponse } from '../../../src/core/llm/types';
import { MemoryFiles, MemoryLog } from '../../fixtures/llmPorts';

const req: ChatRequest & { model: string } = {
  role: 'agent',
  model: 'm1',
  messages: [{ role: 'user', content: 'What is 6 × 7?' }],
  temperature: 0.7,
  maxTokens: 100,
};
const key = (r: ChatRequest & { model: string }, baseURL = 'http://h/v1') => cacheKey(chatKeyMaterial(baseURL, r));
const response: ChatResponse = {
  text: '42',
  finishReason: 'stop',
  logprobs: undefined,
  usage: { promptTokens: 3, completionTokens: 1 },
  model: 'm1',
};

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: undefined } })).toBe('{"a":{"d":[3,{"z":1}]},"b":1}');
  });
});

describe('cache key', () => {
  it('ignores the role, the order of fields and a trailing slash on the base URL', () => {
    const reordered = { maxTokens: 100, temperature: 0.7, messages: req.messages, model: 'm1', role: 'validator' as const };
    expect(key(reordered, 'http://h/v1/')).toBe(key(req));
  });

  it('changes with anything that changes the answer', () => {
    const variants: (ChatRequest & { model: string })[] = [
      { ...req, model: 'm2' },
      { ...req, temperature: 0 },
      { ...req, maxTokens: 10 },
      { ...req, seed: 1 },
      { ...req, stop: ['\n'] },
      { ...req, logprobs: true },
      { ...req, sampleIndex: 1 },
      { ...req, messages: [{ role: 'system', content: 'What is 6 × 7?' }] },
    ];
    const keys = new Set([key(req), key(req, 'http://other/v1'), ...variants.map((v) => key(v))]);
    expect(keys.size).toBe(variants.length + 2);
  });

  it('treats sampleIndex 0 as the default sample', () => {
    expect(key({ ...req, sampleIndex: 0 })).toBe(key(req));
  });

  it('never includes the API key', () => {
    const material = chatKeyMaterial('http://h/v1', { ...req, apiKey: 'sk-secret' } as ChatRequest & { model: string });
    expect(JSON.stringify(material)).not.toContain('sk-secret');
  });

  it('keeps a key written into the base URL out of the key and its stored material, still telling endpoints apart', () => {
    const azure = (host: string, secret: string, version = '2024-10-21') => `https://${host}/openai/v1?api-version=${version}&api-key=${secret}`;
    expect(JSON.stringify(chatKeyMaterial(azure('a.azure.com', 'S3CRET-ONE'), req))).not.toContain('S3CRET-ONE');
    expect(JSON.stringify(chatKeyMaterial('http://bob:hunter22@h/v1', req))).not.toContain('hunter22');
    // A rotated key keeps the answers already paid for; another host or API version does not share them.
    expect(key(req, azure('a.azure.com', 'S3CRET-TWO'))).toBe(key(req, azure('a.azure.com', 'S3CRET-ONE')));
    expect(new Set([key(req, azure('a.azure.com', 'K')), key(req, azure('b.azure.com', 'K')), key(req, azure('a.azure.com', 'K', '2025-01-01'))]).size).toBe(3);
    // A URL without credentials keys exactly as before.
    expect(chatKeyMaterial('http://h/v1/', req)['baseURL']).toBe('http://h/v1');
  });
});

describe('ResponseCache', () => {
  it('stores an entry at <dir>/<2 hex>/<hash>.json and reads it back with the same shape', async () => {
    const files = new MemoryFiles();
    const cache = new ResponseCache(files, '/ws/.ratchet/cache/llm');
    const k = key(req);
    await cache.put(k, chatKeyMaterial('http://h/v1', req), { ...response, cached: false });
    expect([...files.data.keys()]).toEqual([`/ws/.ratchet/cache/llm/${k.slice(0, 2)}/${k}.json`]);
    expect(files.dirs.has(`/ws/.ratchet/cache/llm/${k.slice(0, 2)}`)).toBe(true);
    expect(await cache.get('chat', k)).toEqual(response);
    expect(await cache.get('chat', key({ ...req, sampleIndex: 1 }))).toBeUndefined();
  });

  it('treats a corrupt or mismatched entry as a miss and says so in the log', async () => {
    const files = new MemoryFiles();
    const log = new MemoryLog();
    const cache = new ResponseCache(files, '/c', log);
    const k = key(req);
    files.data.set(cache.pathOf(k), '{"version":1,"key":"');
    expect(await cache.get('chat', k)).toBeUndefined();
    files.data.set(cache.pathOf(k), JSON.stringify({ version: 1, key: 'other', request: {}, response }));
    expect(await cache.get('chat', k)).toBeUndefined();
    expect(log.entries.map((e) => e.level)).toEqual(['warn', 'warn']);
  });

  it('logs a failed write instead of throwing', async () => {
    const files = new MemoryFiles();
    files.failWrites = true;
    const log = new MemoryLog();
    await new ResponseCache(files, '/c', log).put(key(req), {}, response);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]!.message).toContain('not cached');
  });
});
