import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactText } from '../../../src/core/run/redact';

describe('redact', () => {
  it('blanks credential-named keys at any depth and in any spelling, keeping everything else', () => {
    const input = {
      model: 'gpt-4o-mini',
      apiKey: 'anything',
      nested: { api_key: 'x', deeper: [{ Authorization: 'Basic Zm9vOmJhcg==' }, { 'x-api-key': 'k' }] },
      auth: { token: 't', accessToken: 'a', clientSecret: 's', password: 'p', secret: { even: 'objects' } },
      usage: { promptTokens: 120, completionTokens: 40, maxTokens: 256, topLogprobs: 5 },
      emptyKey: { apiKey: '' },
    };
    expect(redact(input)).toEqual({
      model: 'gpt-4o-mini',
      apiKey: REDACTED,
      nested: { api_key: REDACTED, deeper: [{ Authorization: REDACTED }, { 'x-api-key': REDACTED }] },
      auth: { token: REDACTED, accessToken: REDACTED, clientSecret: REDACTED, password: REDACTED, secret: REDACTED },
      usage: { promptTokens: 120, completionTokens: 40, maxTokens: 256, topLogprobs: 5 },
      emptyKey: { apiKey: '' },
    });
  });

  it('blanks bearer-looking values wherever they hide in text', () => {
    const key = 'sk-proj-AbCdEf0123456789ghIJKLmnop';
    expect(redact({ text: `Use ${key} here`, list: [key, 'sk-short'], err: `Authorization: Bearer ${key.slice(3)}` })).toEqual({
      text: `Use ${REDACTED} here`,
      list: [REDACTED, 'sk-short'],
      err: `Authorization: Bearer ${REDACTED}`,
    });
    expect(redactText('a risk-free task-list: sk-abc')).toBe('a risk-free task-list: sk-abc');
  });

  it('returns a copy and leaves the input untouched', () => {
    const input = { apiKey: 'k', inner: { text: 'sk-0123456789abcdefXYZ' } };
    const out = redact(input);
    expect(input).toEqual({ apiKey: 'k', inner: { text: 'sk-0123456789abcdefXYZ' } });
    expect(out.inner).not.toBe(input.inner);
  });

  it('survives cycles and keeps shared (non-cyclic) values', () => {
    const shared = { v: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared };
    cyclic.self = cyclic;
    expect(redact(cyclic)).toEqual({ a: { v: 1 }, b: { v: 1 }, self: '[circular]' });
  });
});
