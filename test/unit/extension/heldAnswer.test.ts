// An Accept given after a reload, while the suggestion is drawn from the window's record, is held
// until the language server confirms that the suggestion still waits. A wait that goes on gets a
// notification that can drop the answer: nothing is written, and the user is told so.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../../../src/extension/commands/context';

type Token = { onCancellationRequested(l: () => void): void };
const notifications: { title: string; cancel(): void }[] = [];
const messages: string[] = [];

vi.mock('vscode', () => ({
  ProgressLocation: { Window: 10, Notification: 15 },
  Uri: class {},
  commands: { executeCommand: async () => undefined },
  window: {
    withProgress: async (options: { location: number; title: string }, task: (p: unknown, token: Token) => Promise<unknown>) => {
      let cancel = () => undefined as void;
      const token: Token = { onCancellationRequested: (l) => void (cancel = l) };
      if (options.location === 15) notifications.push({ title: options.title, cancel: () => cancel() });
      return task({}, token);
    },
    showInformationMessage: async (m: string) => void messages.push(m),
    showWarningMessage: async (m: string) => void messages.push(m),
  },
}));

const { acceptSuggestion, HELD_ANSWER_NOTICE_MS } = await import('../../../src/extension/commands/reviewCommands');

const t = { uri: 'file:///w/a.prompt.md', runId: 'r1', candidateId: 'c1' };
const text = 'Solve it.\n';

function setup() {
  let confirm = (_pending: boolean) => undefined as void;
  const sent: string[] = [];
  const ctx = {
    review: {
      book: {
        get: () => ({ ...t, status: 'pending', version: null, baseText: text, newText: 'Solve it twice.\n', range: { start: { line: 0, character: 8 }, end: { line: 0, character: 9 } }, replacement: ' twice.' }),
        isUnconfirmed: () => true,
      },
      docView: () => ({ version: 3, text }),
      answering: async <T>(_r: string, _c: string, answer: () => Promise<T>) => answer(),
      confirmation: () => new Promise<boolean>((resolve) => (confirm = resolve)),
    },
    host: {
      whenRunning: async () => true,
      request: async (type: { method: string }) => {
        sent.push(type.method);
        return { outcome: 'applied' };
      },
    },
  } as unknown as CommandContext;
  return { ctx, sent, confirm: (pending: boolean) => confirm(pending) };
}

describe('an answer held for the language server', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    notifications.length = 0;
    messages.length = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('is sent once the server confirms, with no notification when that comes soon', async () => {
    const { ctx, sent, confirm } = setup();
    const outcome = acceptSuggestion(ctx, t);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toEqual([]);
    confirm(true);
    expect(await outcome).toBe('applied');
    expect(sent).toEqual(['ratchet/acceptSuggestion']);
    await vi.advanceTimersByTimeAsync(HELD_ANSWER_NOTICE_MS);
    expect(notifications).toEqual([]);
  });

  it('offers, after a while, to drop the answer; dropped, nothing is sent, even when the server confirms later', async () => {
    const { ctx, sent, confirm } = setup();
    const outcome = acceptSuggestion(ctx, t);
    await vi.advanceTimersByTimeAsync(HELD_ANSWER_NOTICE_MS);
    expect(notifications.map((n) => n.title)).toEqual([expect.stringContaining('your Accept of c1 waits for the language server')]);
    notifications[0]!.cancel();
    expect(await outcome).toBe('refused');
    confirm(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([]);
    expect(messages).toEqual([expect.stringContaining('your Accept was dropped; nothing was written')]);
  });

  it('says that nothing was written when the server says the suggestion no longer waits', async () => {
    const { ctx, sent, confirm } = setup();
    const outcome = acceptSuggestion(ctx, t);
    confirm(false);
    expect(await outcome).toBe('refused');
    expect(sent).toEqual([]);
    expect(messages).toEqual([expect.stringContaining('nothing was written — the language server did not confirm')]);
  });
});
