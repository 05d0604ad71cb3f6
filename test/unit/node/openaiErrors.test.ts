import { APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../../src/core/redact';
import { toRatchetError } from '../../../src/node/openaiErrors';
import type { CallContext } from '../../../src/node/openaiErrors';

const KEY = 'sk-proj-AbCdEf0123456789ghIJKLmnop';
const ctx: CallContext = { baseURL: 'http://127.0.0.1:9/v1', shownURL: 'http://127.0.0.1:9/v1', model: 'm', role: 'agent', apiKey: KEY, apiKeyFrom: 'OPENAI_API_KEY' };

function said(message: string, apiKey: string | undefined = KEY): string {
  return toRatchetError(new APIError(400, { message }, undefined, new Headers()), { ...ctx, apiKey }, new AbortController().signal).message;
}

describe('what the server said, as an error quotes it', () => {
  it('blanks the key and bearer values with the one marker every redaction uses', () => {
    const message = said(`Bad request from key ${KEY} (Authorization: Bearer abcdefghijklmnop).`);
    expect(message).toContain(`Bad request from key ${REDACTED} (Authorization: Bearer ${REDACTED}).`);
    expect(message).not.toContain('AbCdEf');
    expect(message).not.toContain('abcdefghijklmnop');
  });

  it('blanks a key it was not told of by its shape', () => {
    expect(said('unknown key sk-0123456789abcdefXYZ', undefined)).toContain(`unknown key ${REDACTED}`);
  });
});
