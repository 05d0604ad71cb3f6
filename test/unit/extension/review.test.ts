// The edit-application decisions: whether a suggestion is drawn, waits for the server's re-base,
// is stale or gone, given the document as the editor has it; whether an Accept goes to the server.
import { describe, expect, it } from 'vitest';
import { SuggestionBook, acceptAction, keptSuggestions, reviewAction } from '../../../src/extension/review/decide';
import { hunkAtLine, hunkLines, hunkSummary, inlineHunks } from '../../../src/core/edit/hunks';
import { parseSuggestionPath, runTarget, suggestionPath, suggestionTarget } from '../../../src/extension/review/target';
import type { SuggestionState } from '../../../src/protocol/lsp';

const BASE = 'You are a tutor.\nAnswer briefly.\n';
const NEW = 'You are a patient tutor.\nAnswer briefly.\nShow your steps.\n';

function suggestion(over: Partial<SuggestionState> = {}): SuggestionState {
  return {
    runId: 'r1',
    candidateId: 'c1',
    uri: 'file:///w/a.prompt.md',
    status: 'pending',
    version: 3,
    baseText: BASE,
    newText: NEW,
    range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } },
    replacement: NEW,
    ...over,
  };
}

describe('reviewAction', () => {
  it.each([
    ['pending, same version and text', {}, { version: 3, text: BASE }, { kind: 'show' }],
    ['pending, the user typed since', {}, { version: 4, text: `${BASE}x` }, { kind: 'outdated' }],
    ['pending, undo back to the same text (new version)', {}, { version: 5, text: BASE }, { kind: 'outdated' }],
    ['pending, computed on disk, same text open', { version: null }, { version: 1, text: BASE }, { kind: 'show' }],
    ['pending, computed on disk, different text open', { version: null }, { version: 1, text: 'other' }, { kind: 'outdated' }],
    ['pending, file not open', {}, undefined, { kind: 'defer' }],
    ['stale with a reason', { status: 'stale', reason: 'line 2 changed' }, { version: 4, text: 'x' }, { kind: 'stale', reason: 'line 2 changed' }],
    ['stale without one', { status: 'stale' }, undefined, { kind: 'stale', reason: 'the file changed after Ratchet computed this suggestion' }],
    ['applied', { status: 'applied' }, { version: 3, text: BASE }, { kind: 'hide' }],
    ['rejected', { status: 'rejected' }, { version: 3, text: BASE }, { kind: 'hide' }],
    ['dropped', { status: 'dropped' }, undefined, { kind: 'hide' }],
  ] as const)('%s', (_name, over, doc, expected) => {
    expect(reviewAction(suggestion(over as Partial<SuggestionState>), doc)).toEqual(expected);
  });
});

describe('acceptAction', () => {
  it('sends an Accept for a drawn suggestion, and for a file that is not open (the server edits it on disk)', () => {
    expect(acceptAction(suggestion(), { version: 3, text: BASE })).toEqual({ kind: 'send' });
    expect(acceptAction(suggestion(), undefined)).toEqual({ kind: 'send' });
  });

  it('refuses, without asking the server, what cannot be applied over the current text', () => {
    expect(acceptAction(suggestion(), { version: 4, text: 'edited' })).toEqual({
      kind: 'refuse',
      message: 'Ratchet: not applied — the file changed since this suggestion was drawn; Ratchet is checking it against your edit. Your text was left as it is.',
    });
    expect(acceptAction(suggestion({ status: 'stale', reason: 'line 2 changed' }), undefined)).toEqual({
      kind: 'refuse',
      message: 'Ratchet: not applied — line 2 changed. Your text was left as it is; run Evolve again for a fresh suggestion.',
    });
    expect(acceptAction(undefined, undefined).kind).toBe('refuse');
  });
});

describe('SuggestionBook', () => {
  it('draws the newest open suggestion of a file; a re-based one keeps its place', () => {
    const book = new SuggestionBook();
    expect(book.update(suggestion({ candidateId: 'c1' }))).toEqual(['file:///w/a.prompt.md']);
    book.update(suggestion({ candidateId: 'c2' }));
    expect(book.current('file:///w/a.prompt.md')?.candidateId).toBe('c2');
    book.update(suggestion({ candidateId: 'c1', version: 9 }));
    expect(book.current('file:///w/a.prompt.md')?.candidateId).toBe('c2');
    expect(book.get('r1', 'c1')?.version).toBe(9);
  });

  it('forgets answered and dropped suggestions', () => {
    const book = new SuggestionBook();
    book.update(suggestion());
    book.update(suggestion({ status: 'applied' }));
    expect(book.current('file:///w/a.prompt.md')).toBeUndefined();
    expect(book.all()).toEqual([]);
  });

  it('holds a suggestion answered here as answering until the server says how it ended, and draws it again if the answer failed', () => {
    const book = new SuggestionBook();
    book.update(suggestion());
    expect(book.setAnswering('r1', 'c1', true)).toEqual(['file:///w/a.prompt.md']);
    expect(book.isAnswering('r1', 'c1')).toBe(true);
    // The answer failed: pending again, drawn again.
    expect(book.setAnswering('r1', 'c1', false)).toEqual(['file:///w/a.prompt.md']);
    expect(book.isAnswering('r1', 'c1')).toBe(false);
    // Answered, and the server says rejected: forgotten, and no mark is left for a later suggestion with its ids.
    book.setAnswering('r1', 'c1', true);
    book.update(suggestion({ status: 'rejected' }));
    book.update(suggestion());
    expect(book.isAnswering('r1', 'c1')).toBe(false);
    // An Accept that turned out stale is drawn as stale, not hidden as still being answered.
    book.setAnswering('r1', 'c1', true);
    book.update(suggestion({ status: 'stale', reason: 'the file changed' }));
    expect(book.isAnswering('r1', 'c1')).toBe(false);
  });

  it('replaces everything after a server restart and reports every file to redraw', () => {
    const book = new SuggestionBook();
    book.update(suggestion({ uri: 'file:///w/old.md' }));
    expect(book.reset([suggestion({ uri: 'file:///w/new.md' })]).sort()).toEqual(['file:///w/new.md', 'file:///w/old.md']);
    expect(book.uris()).toEqual(['file:///w/new.md']);
  });
});

describe('SuggestionBook: the last session’s suggestions, drawn before the server is back', () => {
  const uri = 'file:///w/a.prompt.md';
  const kept = () => [suggestion({ version: 7 }), suggestion({ candidateId: 'c2', uri: 'file:///w/b.prompt.md' }), suggestion({ candidateId: 'c3', status: 'stale' })];

  it('draws the kept pending ones against the reopened file’s text (its versions were the old session’s), unconfirmed', () => {
    const book = new SuggestionBook();
    expect(book.restore(kept())).toEqual([uri, 'file:///w/b.prompt.md']);
    expect(book.get('r1', 'c3')).toBeUndefined();
    expect(book.current(uri)).toMatchObject({ candidateId: 'c1', version: null });
    expect(reviewAction(book.current(uri)!, { version: 1, text: BASE })).toEqual({ kind: 'show' });
    expect([book.isUnconfirmed('r1', 'c1'), book.isUnconfirmed('r1', 'c2'), book.hasUnconfirmed()]).toEqual([true, true, true]);
  });

  it('takes the server’s word on each: a change settles that one, its list settles all and drops what it leaves out', () => {
    const book = new SuggestionBook();
    book.restore(kept());
    book.update(suggestion({ version: 1 }));
    expect([book.isUnconfirmed('r1', 'c1'), book.isUnconfirmed('r1', 'c2')]).toEqual([false, true]);
    expect(book.reset([suggestion({ version: 1 })]).sort()).toEqual(['file:///w/a.prompt.md', 'file:///w/b.prompt.md']);
    expect([book.hasUnconfirmed(), book.get('r1', 'c2')]).toEqual([false, undefined]);
  });

  it('reads back only whole pending suggestions from the workspace state, never failing on what it finds there', () => {
    const whole = suggestion();
    const { range: _range, ...noRange } = whole;
    expect(keptSuggestions([whole, suggestion({ status: 'stale' }), noRange, { ...whole, runId: 7 }, null, 'x'])).toEqual([whole]);
    expect([keptSuggestions(undefined), keptSuggestions({ runId: 'r1' }), keptSuggestions('[]')]).toEqual([[], [], []]);
  });

  it('leaves alone what the server already said, and drops only the unconfirmed when the server does not start', () => {
    const book = new SuggestionBook();
    book.update(suggestion({ version: 2 }));
    book.restore(kept());
    expect(book.current(uri)).toMatchObject({ version: 2 });
    expect(book.isUnconfirmed('r1', 'c1')).toBe(false);
    expect(book.dropUnconfirmed()).toEqual(['file:///w/b.prompt.md']);
    expect(book.all().map((s) => s.candidateId)).toEqual(['c1']);
  });
});

describe('inlineHunks', () => {
  it('marks replaced lines as removed and shows the additions under them', () => {
    expect(inlineHunks(BASE, NEW)).toEqual([
      { removed: { start: 0, end: 0 }, added: ['You are a patient tutor.'], anchorLine: 0 },
      { removed: undefined, added: ['Show your steps.'], anchorLine: 1 },
    ]);
    expect(hunkSummary(inlineHunks(BASE, NEW))).toBe('+2 −1 lines in 2 places');
  });

  it('anchors an addition at the very top before the first line', () => {
    expect(inlineHunks('b\n', 'a\nb\n')).toEqual([{ removed: undefined, added: ['a'], anchorLine: -1 }]);
  });

  it('draws a pure deletion without additions', () => {
    expect(inlineHunks('a\nb\nc\n', 'a\nc\n')).toEqual([{ removed: { start: 1, end: 1 }, added: [], anchorLine: 1 }]);
  });

  it('has nothing to draw for identical texts', () => {
    expect(inlineHunks(BASE, BASE)).toEqual([]);
  });

  it('keeps every added line of a multi-line addition, blank lines included, in order', () => {
    expect(inlineHunks('a\nb\n', 'a\nb\n\n<!-- edit:1 -->\nHint 1.\n')).toEqual([{ removed: undefined, added: ['', '<!-- edit:1 -->', 'Hint 1.'], anchorLine: 1 }]);
  });

  it('reads CRLF text line by line, without a stray carriage return on the drawn lines', () => {
    expect(inlineHunks('a\r\nb\r\n', 'a\r\nc\r\nd\r\n')).toEqual([{ removed: { start: 1, end: 1 }, added: ['c', 'd'], anchorLine: 1 }]);
  });
});

describe('hunkLines and hunkAtLine (where the lenses go, and when the review keys answer)', () => {
  const hunks = inlineHunks('a\nb\nc\nd\ne\n', 'a\nB\nC\nd\ne\nf\n');

  it('spans the removed lines of a replacement, and the anchor line of a pure addition', () => {
    expect(hunks.map(hunkLines)).toEqual([
      { first: 1, last: 2 },
      { first: 4, last: 4 },
    ]);
    expect(hunkLines({ removed: undefined, added: ['top'], anchorLine: -1 })).toEqual({ first: 0, last: 0 });
  });

  it('finds the hunk under the cursor, and none between hunks', () => {
    expect([0, 1, 2, 3, 4, 5].map((line) => hunkAtLine(hunks, line))).toEqual([-1, 0, 0, -1, 1, -1]);
  });
});

describe('runTarget (Accept All / Reject All)', () => {
  const book = new SuggestionBook();
  book.update(suggestion({ candidateId: 'c1' }));
  book.update(suggestion({ candidateId: 'c2', uri: 'file:///w/b.prompt.md' }));
  book.update(suggestion({ runId: 'r2', candidateId: 'c9', uri: 'file:///w/c.prompt.md' }));
  book.update(suggestion({ candidateId: 'c3', status: 'stale' }));

  it("takes a lens's [uri, runId]: every pending suggestion of that run, oldest first, in any file", () => {
    expect(runTarget(['file:///w/a.prompt.md', 'r1'], undefined, book).map((t) => t.candidateId)).toEqual(['c1', 'c2']);
  });

  it("falls back to the run of the active editor's drawn suggestion, and to nothing", () => {
    expect(runTarget([], 'file:///w/c.prompt.md', book).map((t) => t.candidateId)).toEqual(['c9']);
    expect(runTarget([], 'file:///w/none.md', book)).toEqual([]);
  });
});

describe('suggestionTarget', () => {
  const book = new SuggestionBook();
  book.update(suggestion());

  it('takes a code lens’s [uri, runId, candidateId] as given', () => {
    expect(suggestionTarget(['file:///w/b.md', 'r9', 'c9'], undefined, book)).toEqual({ uri: 'file:///w/b.md', runId: 'r9', candidateId: 'c9' });
  });

  it('reads the diff editor’s ratchet-suggestion: document', () => {
    const uri = { scheme: 'ratchet-suggestion', path: suggestionPath('r1', 'c1', 'a.prompt.md'), toString: () => 'x' };
    expect(suggestionTarget([uri], undefined, book)).toEqual({ uri: 'file:///w/a.prompt.md', runId: 'r1', candidateId: 'c1' });
  });

  it('falls back to the active editor’s pending suggestion', () => {
    expect(suggestionTarget([], 'file:///w/a.prompt.md', book)?.candidateId).toBe('c1');
    expect(suggestionTarget([], 'file:///w/other.md', book)).toBeUndefined();
  });

  it('round-trips ids with slashes and spaces through the path', () => {
    expect(parseSuggestionPath(suggestionPath('2026/11 run', 'c/1', 'a b.md'))).toEqual({ runId: '2026/11 run', candidateId: 'c/1' });
  });
});
