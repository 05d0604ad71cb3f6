import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactKnown, redactText, redactUrl, redactUrlsIn, urlCredentials } from '../../src/core/redact';

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

  it('blanks credentials in URLs: the user name and password, and every secret query value, keeping the rest', () => {
    expect(redactUrl('https://r.openai.azure.com/openai/v1?api-version=2024-10-21&api-key=S3CRET')).toBe('https://r.openai.azure.com/openai/v1?api-version=2024-10-21&api-key=[redacted]');
    expect(redactUrl('http://bob:hunter22@proxy:8080/v1')).toBe('http://[redacted]@proxy:8080/v1');
    expect(redactUrl('https://h/v1?key=a&sig=b&code=c&access_token=d&X-Amz-Signature=e&subscription-key=f&Token=g&page=2')).toBe(
      'https://h/v1?key=[redacted]&sig=[redacted]&code=[redacted]&access_token=[redacted]&X-Amz-Signature=[redacted]&subscription-key=[redacted]&Token=[redacted]&page=2',
    );
    expect(urlCredentials('http://u:p@h/v1?api_key=x&v=1')).toEqual({ userinfo: true, params: ['api_key'] });
  });

  it('returns a URL without credentials byte for byte (cache keys made from it stay valid)', () => {
    for (const url of ['http://127.0.0.1:8080/v1', 'HTTPS://Host.Example/v1/', 'https://h/v1?api-version=1&x=%5B', 'not a url', 'localhost:11434/v1']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('blanks URL credentials in fields named like a URL, and in messages, but not in free text a run keeps', () => {
    const written = redact({ baseURL: 'http://h/v1?api-key=S3CRET', models: { agent: { base_url: 'http://u:pw@h' } }, text: 'see https://x.test/?code=42' });
    expect(written).toEqual({ baseURL: 'http://h/v1?api-key=[redacted]', models: { agent: { base_url: 'http://[redacted]@h' } }, text: 'see https://x.test/?code=42' });
    expect(redactUrlsIn('The endpoint http://u:pw@h/v1?key=S3CRET answered 500.')).toBe('The endpoint http://[redacted]@h/v1?key=[redacted] answered 500.');
    // Already blanked text stays as it is.
    expect(redactUrlsIn('at http://h/v1?api-key=[redacted]: no')).toBe('at http://h/v1?api-key=[redacted]: no');
  });
});

describe('redactKnown', () => {
  it('blanks every secret Ratchet knows wherever a program printed it, the longest first, and bearer-looking values too', () => {
    const key = 'proj-key-0123456789abcdef';
    const printed = `OPENAI_API_KEY=${key}\nfound ${key}-extra and ${key.slice(0, 12)} and sk-abcdefghijklmnopqrstuvwx`;
    expect(redactKnown(printed, ['short', key, `${key}-extra`])).toBe(`OPENAI_API_KEY=${REDACTED}\nfound ${REDACTED} and ${key.slice(0, 12)} and ${REDACTED}`);
    // A secret shorter than 8 characters would blank ordinary words: it is left to the other nets.
    expect(redactKnown('a short word', ['short'])).toBe('a short word');
  });

  it('blanks a key raw and as a JSON string escapes it (a traced settings message)', () => {
    const key = 'sk-a"b\\c-0123';
    const traced = `Sending notification 'workspace/didChangeConfiguration'. Params: ${JSON.stringify({ settings: { apiKey: key } })}`;
    expect(redactKnown(traced, [key])).toBe(`Sending notification 'workspace/didChangeConfiguration'. Params: {"settings":{"apiKey":"${REDACTED}"}}`);
    expect(redactKnown(`key ${key}`, [key])).toBe(`key ${REDACTED}`);
    expect(redactKnown('hello', ['', key])).toBe('hello');
  });
});
