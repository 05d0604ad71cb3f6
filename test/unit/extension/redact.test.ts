import { describe, expect, it, vi } from 'vitest';
import type { LogOutputChannel } from 'vscode';
import { REDACTED } from '../../../src/core/redact';
import { redactingChannel } from '../../../src/extension/server/redact';

describe('redactingChannel', () => {
  function fakeChannel() {
    const lines: unknown[][] = [];
    const record = (level: string) => vi.fn((...args: unknown[]) => lines.push([level, ...args]));
    const inner = {
      name: 'Ratchet',
      logLevel: 1,
      onDidChangeLogLevel: vi.fn(),
      trace: record('trace'),
      debug: record('debug'),
      info: record('info'),
      warn: record('warn'),
      error: record('error'),
      append: record('append'),
      appendLine: record('appendLine'),
      replace: record('replace'),
      clear: vi.fn(),
      show: vi.fn(),
      hide: vi.fn(),
      dispose: vi.fn(),
    };
    return { inner: inner as unknown as LogOutputChannel, lines, raw: inner };
  }

  it('scrubs the current secrets from every method the language client writes with', () => {
    const { inner, lines } = fakeChannel();
    let secrets = ['sk-old-key'];
    const ch = redactingChannel(inner, () => secrets);
    ch.trace('initialize {"apiKey":"sk-old-key"}');
    secrets = ['sk-old-key', 'sk-new-key'];
    ch.info('got sk-new-key', { settings: { apiKey: 'sk-new-key' } });
    ch.error(new Error('bad key sk-new-key'));
    ch.appendLine('sk-old-key');
    expect(lines[0]).toEqual(['trace', `initialize {"apiKey":"${REDACTED}"}`]);
    expect(lines[1]).toEqual(['info', `got ${REDACTED}`, `{"settings":{"apiKey":"${REDACTED}"}}`]);
    expect((lines[2]![1] as Error).message).toBe(`bad key ${REDACTED}`);
    expect(lines[3]).toEqual(['appendLine', REDACTED]);
  });

  it('takes no line, and throws nothing, once VS Code has closed the inner channel', () => {
    const { inner, raw } = fakeChannel();
    for (const write of [raw.trace, raw.debug, raw.info, raw.warn, raw.error, raw.append, raw.appendLine, raw.replace]) {
      write.mockImplementation(() => {
        throw new Error('Channel has been closed');
      });
    }
    const ch = redactingChannel(inner, () => []);
    expect(() => {
      ch.trace('t');
      ch.debug('d');
      ch.info('Server process exited successfully');
      ch.warn('w');
      ch.error('Request textDocument/codeAction failed.');
      ch.append('a');
      ch.appendLine('l');
      ch.replace('r');
    }).not.toThrow();
    expect(raw.error).toHaveBeenCalledWith('Request textDocument/codeAction failed.');
  });

  it('leaves the inner channel to its owner', () => {
    const { inner, raw } = fakeChannel();
    redactingChannel(inner, () => []).dispose();
    expect(raw.dispose).not.toHaveBeenCalled();
  });
});
