/**
 * What the editor does with a suggestion, decided from the suggestion the server sent and the
 * document as the editor has it now. The server is the authority on staleness (it refuses a
 * versioned `workspace/applyEdit`), but the client must not draw a diff over text that moved under
 * it, nor ask to apply what it can already see is stale. No VS Code import: unit-tested as a table.
 */
import type { SuggestionState } from '../../protocol/lsp';

/** The open document, as far as these decisions need it. */
export interface DocView {
  version: number;
  text: string;
}

export type ReviewAction =
  /** Draw the inline diff, its Accept / Reject links with it. */
  | { kind: 'show' }
  /**
   * The document moved past the suggestion's version. The server re-bases the suggestion onto the
   * new text (a new version, still pending) or marks it stale; until it says, nothing is drawn.
   */
  | { kind: 'outdated' }
  /** The edit no longer applies to the user's text: never drawn over it, never applied. */
  | { kind: 'stale'; reason: string }
  /** Answered, dropped, or superseded: nothing to draw. */
  | { kind: 'hide' }
  /** The file is not open in an editor: draw when it opens. */
  | { kind: 'defer' };

const EDITED = 'the file changed after Ratchet computed this suggestion';

export function reviewAction(s: SuggestionState, doc: DocView | undefined): ReviewAction {
  switch (s.status) {
    case 'applied':
    case 'rejected':
    case 'dropped':
      return { kind: 'hide' };
    case 'stale':
      return { kind: 'stale', reason: s.reason ?? EDITED };
    case 'pending':
      break;
  }
  if (doc === undefined) return { kind: 'defer' };
  // Undo back to the same text bumps the version, and the server's versioned edit would be refused,
  // so any version mismatch waits for the server's re-based suggestion.
  if (s.version !== null && doc.version !== s.version) return { kind: 'outdated' };
  if (doc.text !== s.baseText) return { kind: 'outdated' };
  return { kind: 'show' };
}

export type AcceptAction = { kind: 'send' } | { kind: 'refuse'; message: string };

/** Whether an Accept goes to the server, or is answered here without writing anything. */
export function acceptAction(s: SuggestionState | undefined, doc: DocView | undefined): AcceptAction {
  if (s === undefined) return { kind: 'refuse', message: 'Ratchet: that suggestion is no longer pending (it was answered, or its run ended).' };
  const action = reviewAction(s, doc);
  switch (action.kind) {
    case 'show':
      return { kind: 'send' };
    // Not open: the server applies it to the file on disk through workspace/applyEdit.
    case 'defer':
      return { kind: 'send' };
    case 'outdated':
      return { kind: 'refuse', message: 'Ratchet: not applied — the file changed since this suggestion was drawn; Ratchet is checking it against your edit. Your text was left as it is.' };
    case 'stale':
      return { kind: 'refuse', message: `Ratchet: not applied — ${action.reason}. Your text was left as it is; run Evolve again for a fresh suggestion.` };
    case 'hide':
      return { kind: 'refuse', message: `Ratchet: that suggestion was already ${s.status}.` };
  }
}

export const suggestionKey = (runId: string, candidateId: string): string => `${runId}\n${candidateId}`;

/**
 * The pending suggestions a session kept in the workspace's state, as far as they are whole: what
 * another version of Ratchet wrote there, or a damaged entry, is left out rather than fail the
 * extension's activation.
 */
export function keptSuggestions(value: unknown): SuggestionState[] {
  if (!Array.isArray(value)) return [];
  const isPosition = (p: unknown) => typeof p === 'object' && p !== null && typeof (p as { line?: unknown }).line === 'number' && typeof (p as { character?: unknown }).character === 'number';
  return value.filter((v): v is SuggestionState => {
    if (typeof v !== 'object' || v === null) return false;
    const s = v as Record<string, unknown>;
    const range = s.range as { start?: unknown; end?: unknown } | undefined;
    return (
      ['runId', 'candidateId', 'uri', 'baseText', 'newText', 'replacement'].every((k) => typeof s[k] === 'string') && s.status === 'pending' && typeof range === 'object' && range !== null && isPosition(range.start) && isPosition(range.end)
    );
  });
}

/**
 * The client's copy of the server's suggestions. A newer pending suggestion for a file supersedes
 * the older ones on screen (one inline diff per document); answered ones are forgotten.
 */
export class SuggestionBook {
  private readonly byKey = new Map<string, SuggestionState & { seq: number }>();
  /**
   * Answered here, the server's word on how it ended not yet in: drawn no more, so the change goes
   * from the screen, links and all, when the key is pressed, not a round trip later.
   */
  private readonly answering = new Set<string>();
  /**
   * Kept from the last session (`restore`) and drawn before the server is back; the server has not
   * said yet whether they still wait. Its first word on one (a change, or its full list) settles it.
   */
  private readonly unconfirmed = new Set<string>();
  private seq = 0;

  /** Applies a `ratchet/suggestionChanged`; returns the URIs whose drawing must be refreshed. */
  update(s: SuggestionState): string[] {
    const key = suggestionKey(s.runId, s.candidateId);
    const previous = this.byKey.get(key);
    this.unconfirmed.delete(key);
    if (s.status === 'applied' || s.status === 'rejected' || s.status === 'dropped') {
      this.byKey.delete(key);
      this.answering.delete(key);
    } else {
      this.byKey.set(key, { ...s, seq: previous?.seq ?? ++this.seq });
    }
    return previous && previous.uri !== s.uri ? [previous.uri, s.uri] : [s.uri];
  }

  /** The user answered the suggestion (true) or the answer failed (false); returns the URIs whose drawing must be refreshed. */
  setAnswering(runId: string, candidateId: string, answering: boolean): string[] {
    const key = suggestionKey(runId, candidateId);
    if (answering) this.answering.add(key);
    else this.answering.delete(key);
    const s = this.byKey.get(key);
    return s ? [s.uri] : [];
  }

  /** Pending, and answered here: its answer is on its way to the server. */
  isAnswering(runId: string, candidateId: string): boolean {
    return this.answering.has(suggestionKey(runId, candidateId)) && this.byKey.get(suggestionKey(runId, candidateId))?.status === 'pending';
  }

  /** Replaces everything (after a restart, from `ratchet/listSuggestions`): the server's word on every suggestion. */
  reset(all: readonly SuggestionState[]): string[] {
    const uris = new Set([...this.byKey.values()].map((s) => s.uri));
    this.byKey.clear();
    this.unconfirmed.clear();
    for (const s of all) {
      this.update(s);
      uris.add(s.uri);
    }
    return [...uris];
  }

  /**
   * The pending suggestions the last session kept, before the server has said anything: each is
   * unconfirmed until it does. Their document versions belonged to that session, so they are
   * matched to the reopened file by its text alone. Returns the URIs to draw.
   */
  restore(saved: readonly SuggestionState[]): string[] {
    const uris: string[] = [];
    for (const s of saved) {
      const key = suggestionKey(s.runId, s.candidateId);
      if (s.status !== 'pending' || this.byKey.has(key)) continue;
      this.byKey.set(key, { ...s, version: null, seq: ++this.seq });
      this.unconfirmed.add(key);
      uris.push(s.uri);
    }
    return uris;
  }

  /** Drops what the server never confirmed (it did not start); returns the URIs to redraw. */
  dropUnconfirmed(): string[] {
    const uris = [...this.unconfirmed].flatMap((key) => this.byKey.get(key)?.uri ?? []);
    for (const key of this.unconfirmed) this.byKey.delete(key);
    this.unconfirmed.clear();
    return uris;
  }

  hasUnconfirmed(): boolean {
    return this.unconfirmed.size > 0;
  }

  /** Drawn from the last session's record, the server's word on it not in yet. */
  isUnconfirmed(runId: string, candidateId: string): boolean {
    return this.unconfirmed.has(suggestionKey(runId, candidateId));
  }

  get(runId: string, candidateId: string): SuggestionState | undefined {
    return this.byKey.get(suggestionKey(runId, candidateId));
  }

  /** The one suggestion drawn for a file: the newest open one. */
  current(uri: string): SuggestionState | undefined {
    let best: (SuggestionState & { seq: number }) | undefined;
    for (const s of this.byKey.values()) if (s.uri === uri && (best === undefined || s.seq > best.seq)) best = s;
    return best;
  }

  uris(): string[] {
    return [...new Set([...this.byKey.values()].map((s) => s.uri))];
  }

  all(): SuggestionState[] {
    return [...this.byKey.values()];
  }
}
