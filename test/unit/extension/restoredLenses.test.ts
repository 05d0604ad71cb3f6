// After a reload the server's start waits (restoredLenses.answered) until VS Code has had the lenses
// of the suggestions drawn from the window's record: its lens request otherwise waited behind the
// start, and was dropped when the language client's provider registered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SuggestionState } from '../../../src/protocol/lsp';
import { changedSpan } from '../../../src/server/textChange';

type Provider = { provideCodeLenses(doc: { uri: { toString(): string } }): unknown[] };
let provider: Provider | undefined;
const visible: string[] = [];
let lensesOff = false;

vi.mock('vscode', () => {
  class EventEmitter {
    private listeners: (() => void)[] = [];
    event = (l: () => void) => {
      this.listeners.push(l);
      return { dispose: () => undefined };
    };
    fire() {
      this.listeners.forEach((l) => l());
    }
    dispose() {}
  }
  return {
    EventEmitter,
    Disposable: { from: (...ds: { dispose(): void }[]) => ({ dispose: () => ds.forEach((d) => d.dispose()) }) },
    Range: class {
      constructor(...args: number[]) {
        Object.assign(this, { args });
      }
    },
    CodeLens: class {
      constructor(
        public range: unknown,
        public command: unknown,
      ) {}
    },
    languages: {
      registerCodeLensProvider: (_selector: unknown, p: Provider) => {
        provider = p;
        return { dispose: () => undefined };
      },
    },
    workspace: { getConfiguration: () => ({ get: (_key: string, fallback: unknown) => (lensesOff ? false : fallback) }) },
    window: {
      get visibleTextEditors() {
        return visible.map((uri) => ({ document: { uri: { toString: () => uri } } }));
      },
    },
  };
});

const { ANSWER_LEAVES_MS, registerRestoredLenses } = await import('../../../src/extension/review/restoredLenses');

const RESTORED = 'file:///w/a.prompt.md';
const OTHER = 'file:///w/b.prompt.md';
const base = 'Solve it.\nAnswer with a number.\n';
const restored: SuggestionState = {
  runId: 'r1',
  candidateId: 'c1',
  uri: RESTORED,
  status: 'pending',
  version: null,
  baseText: base,
  newText: 'Solve it step by step.\nAnswer with a number.\n',
  ...changedSpan(base, 'Solve it step by step.\nAnswer with a number.\n'),
};
const review = {
  restoredOnScreen: (uri: string) => (uri === RESTORED ? restored : undefined),
  onDidChangeUnconfirmed: () => ({ dispose: () => undefined }),
  onDidChangeAnswering: () => ({ dispose: () => undefined }),
  book: { hasUnconfirmed: () => true },
};
const ask = (uri: string) => provider!.provideCodeLenses({ uri: { toString: () => uri } });

describe('the restored lenses go to VS Code before the server starts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visible.length = 0;
    lensesOff = false;
  });
  afterEach(() => vi.useRealTimers());

  it('waits until VS Code has asked for the lenses of the visible file that shows a restored suggestion', async () => {
    visible.push(RESTORED, OTHER);
    const lenses = registerRestoredLenses(review as never);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    expect(ask(OTHER)).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    expect(ask(RESTORED).length).toBeGreaterThan(0);
    // Not in the same turn: the extension host sends the answer on a timer of its own, and the
    // server's start, run first, held it back.
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(ANSWER_LEAVES_MS);
    expect(settled).toBe(true);
  });

  it('does not wait for lenses VS Code already had', async () => {
    visible.push(RESTORED);
    const lenses = registerRestoredLenses(review as never);
    ask(RESTORED);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('does not wait where the user turned lenses off (VS Code never asks)', async () => {
    visible.push(RESTORED);
    lensesOff = true;
    const lenses = registerRestoredLenses(review as never);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('does not wait when no visible editor shows a restored suggestion', async () => {
    visible.push(OTHER);
    const lenses = registerRestoredLenses(review as never);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('waits no longer than it is given when VS Code never asks', async () => {
    visible.push(RESTORED);
    const lenses = registerRestoredLenses(review as never);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });
});
