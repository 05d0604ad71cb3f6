import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { NodeLog } from '../../../src/node/log';

const at = Date.UTC(2026, 10, 29, 22, 34, 12, 345);

describe('NodeLog', () => {
  it('drops records below the threshold and prints the rest one per line', () => {
    const lines: string[] = [];
    const log = new NodeLog({ level: 'info', write: (l) => lines.push(l), now: () => at });
    log.log('debug', 'noise');
    log.log('info', 'run started', { runId: 'r1' });
    log.log('error', 'two\nlines');
    expect(lines).toEqual(['2026-11-29T22:34:12.345Z info  run started {"runId":"r1"}\n', '2026-11-29T22:34:12.345Z error two ⏎ lines\n']);
  });

  it('redacts secrets in the message and the data, and keeps error messages', () => {
    const lines: string[] = [];
    const log = new NodeLog({ level: 'trace', write: (l) => lines.push(l), now: () => at });
    const key = 'sk-AbCdEf0123456789ghIJKL';
    log.log('warn', `retrying with ${key}`, { endpoint: { baseURL: 'http://x', apiKey: key }, err: new RatchetError('llmHttp', `bad key ${key}`) });
    expect(lines.join('')).not.toContain(key);
    expect(lines[0]).toBe('2026-11-29T22:34:12.345Z warn  retrying with [redacted] {"endpoint":{"baseURL":"http://x","apiKey":"[redacted]"},"err":{"name":"RatchetError","message":"bad key [redacted]","code":"llmHttp"}}\n');
  });

  it('appends to a file and flushes it on close', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ratchet-log-'));
    try {
      const file = path.join(dir, 'ratchet.log');
      const log = new NodeLog({ file, now: () => at });
      log.log('info', 'one');
      log.log('warn', 'two');
      await log.close();
      expect(await readFile(file, 'utf8')).toBe('2026-11-29T22:34:12.345Z info  one\n2026-11-29T22:34:12.345Z warn  two\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
