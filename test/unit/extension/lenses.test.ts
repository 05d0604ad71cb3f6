// Ratchet's one lens provider (review/lenses.ts): the restored suggestions' lenses until the server
// has spoken, the server's otherwise. After a reload the server's start waits (lenses.answered) until
// VS Code has had the restored lenses: its lens request otherwise waited behind the start.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SuggestionState } from '../../../src/protocol/lsp';
import { changedSpan } from '../../../src/server/textChange';

type Doc = { uri: { toString(): string } };
type Provider = { provideCodeLenses(doc: Doc, token?: unknown): unknown; onDidChangeCodeLenses(listener: () => void): unknown };
let provider: Provider | undefined;
/** The files the server answers for, by the selector's verdict (the test's stand-in for VS Code's glob match). */
const served = new Set<string>();
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
      match: (_selector: unknown, doc: Doc) => (served.has(doc.uri.toString()) ? 10 : 0),
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

const { ANSWER_LEAVES_MS, registerLenses } = await import('../../../src/extension/review/lenses');

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
/** The server's side (ServerHost): a lens for every file it is asked about, and the files it was asked about. */
const SERVER_LENS = { title: 'Evolve this prompt' };
const serverAsked: string[] = [];
const serverListeners = new Set<() => void>();
/** How many lens requests the server's side heard of (its door to VS Code counts them: lensRefresh.ts). */
let requestsHeard = 0;
const server = {
  lensesAsked: () => requestsHeard++,
  codeLenses: (doc: Doc) => {
    serverAsked.push(doc.uri.toString());
    return Promise.resolve([SERVER_LENS]);
  },
  onDidChangeCodeLenses: (listener: () => void) => {
    serverListeners.add(listener);
    return { dispose: () => serverListeners.delete(listener) };
  },
} as never;
const ask = (uri: string) => provider!.provideCodeLenses({ uri: { toString: () => uri } }) as unknown[] | Promise<unknown[]>;

describe("one lens provider for the restored lenses and the server's", () => {
  beforeEach(() => {
    visible.length = 0;
    served.clear();
    serverAsked.length = 0;
    serverListeners.clear();
    requestsHeard = 0;
  });

  it("gives the server's lenses for a file the server answers for", async () => {
    served.add(OTHER);
    registerLenses(review as never, server);
    expect(await ask(OTHER)).toEqual([SERVER_LENS]);
    expect(serverAsked).toEqual([OTHER]);
  });

  it('does not ask the server for a file showing a restored suggestion: a server still starting would hold its lenses back', () => {
    served.add(RESTORED);
    registerLenses(review as never, server);
    const lenses = ask(RESTORED) as unknown[];
    expect(lenses.map((l) => (l as { command: { command: string } }).command.command)).toEqual(expect.arrayContaining(['ratchet.acceptSuggestion', 'ratchet.rejectSuggestion']));
    expect(serverAsked).toEqual([]);
    // The request still counts as one VS Code made: the changes told so far are in it.
    expect(requestsHeard).toBe(1);
  });

  it('does not ask the server for a file it does not answer for', () => {
    registerLenses(review as never, server);
    expect(ask(OTHER)).toEqual([]);
    expect(serverAsked).toEqual([]);
    expect(requestsHeard).toBe(1);
  });

  it("has VS Code ask again when the server's lenses change", () => {
    registerLenses(review as never, server);
    let asked = 0;
    provider!.onDidChangeCodeLenses(() => asked++);
    serverListeners.forEach((tell) => tell());
    expect(asked).toBe(1);
  });
});

describe('the restored lenses go to VS Code before the server starts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    visible.length = 0;
    lensesOff = false;
  });
  afterEach(() => vi.useRealTimers());

  it('waits until VS Code has asked for the lenses of the visible file that shows a restored suggestion', async () => {
    visible.push(RESTORED, OTHER);
    const lenses = registerLenses(review as never, server);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    expect(ask(OTHER)).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    expect((ask(RESTORED) as unknown[]).length).toBeGreaterThan(0);
    // Not in the same turn: the extension host sends the answer on a timer of its own, and the
    // server's start, run first, held it back.
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(ANSWER_LEAVES_MS);
    expect(settled).toBe(true);
  });

  it('does not wait for lenses VS Code already had', async () => {
    visible.push(RESTORED);
    const lenses = registerLenses(review as never, server);
    ask(RESTORED);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('does not wait where the user turned lenses off (VS Code never asks)', async () => {
    visible.push(RESTORED);
    lensesOff = true;
    const lenses = registerLenses(review as never, server);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('does not wait when no visible editor shows a restored suggestion', async () => {
    visible.push(OTHER);
    const lenses = registerLenses(review as never, server);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
  });

  it('waits no longer than it is given when VS Code never asks', async () => {
    visible.push(RESTORED);
    const lenses = registerLenses(review as never, server);
    let settled = false;
    void lenses.answered(1_000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });
});
