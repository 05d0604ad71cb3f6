/**
 * Suggest mode: each gated edit waits here for the user's Accept or Reject, and the engine's
 * RunControl is answered from this book. It is also where the rule "the user's text is never
 * lost" is kept: a suggestion follows the document as the user types — re-based onto their text
 * when its change still applies cleanly, stale when it does not — and is written only through a
 * versioned edit on the text it was last re-based onto.
 */
import { RatchetError } from '../core/errors';
import type { AcceptSuggestionResult, SuggestionRef, SuggestionState, SuggestionStatus } from '../protocol/lsp';
import type { EditApplier } from './applyEdit';
import type { CurrentText, OpenDocuments } from './documents';
import { changedSpan, rebase } from './textChange';
import { abortReason } from '../node/clock';
import { pathToUri } from './uris';
import type { RunControl, Suggestion } from '../core/journal/control';

export interface SuggestionListener {
  changed(state: SuggestionState): void;
  /**
   * The user answered a suggestion in `path`: it offers Accept and Reject no more. An Accept's state
   * changes only once the engine has had the edit written, a round trip through the run daemon and
   * the editor later; the lenses need not wait for that.
   */
  answered(path: string): void;
}

interface Entry {
  path: string;
  state: SuggestionState;
  /** Answers the engine's `decide`, while it waits. */
  answer?: (a: 'accept' | 'reject') => void;
  /** Accept requests waiting for the write. */
  waiters: ((r: AcceptSuggestionResult | Error) => void)[];
}

const STALE_WHY = 'The file changed where this suggestion edits it; it was not applied, and your text is untouched.';

export class SuggestionBook {
  private readonly entries = new Map<string, Entry>();
  /** Suggestions the engine asked about whose file is still being read (`arrived`). */
  private readonly arriving = new Set<Promise<unknown>>();

  constructor(
    private readonly docs: OpenDocuments,
    private readonly applier: EditApplier,
    private readonly listener: SuggestionListener,
  ) {}

  /** The engine's side of a hosted run. `runId` is read late: it is known from the run's first event. */
  controlFor(runId: () => string): RunControl {
    return {
      decide: (s, signal) => this.decide(runId(), s, signal),
      apply: (s) => this.apply(runId(), s),
    };
  }

  list(path?: string): SuggestionState[] {
    return [...this.entries.values()].filter((e) => path === undefined || e.path === path).map((e) => e.state);
  }

  /** The suggestions in the file that wait for the user's answer (an accepted one being written no longer does). */
  awaitingAnswer(path: string): SuggestionState[] {
    return [...this.entries.values()].filter((e) => e.path === path && e.state.status === 'pending' && e.answer !== undefined).map((e) => e.state);
  }

  async accept(ref: SuggestionRef): Promise<AcceptSuggestionResult> {
    const entry = this.find(ref);
    const { status } = entry.state;
    if (status === 'applied' || status === 'stale') return { outcome: status };
    if (status !== 'pending') throw new RatchetError('badInput', `Suggestion ${ref.candidateId} was already ${status}.`, { ...ref });
    return new Promise<AcceptSuggestionResult>((resolve, reject) => {
      entry.waiters.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      this.answer(entry, 'accept');
      this.listener.answered(entry.path);
    });
  }

  reject(ref: SuggestionRef): void {
    const entry = this.find(ref);
    if (entry.state.status !== 'pending') throw new RatchetError('badInput', `Suggestion ${ref.candidateId} was already ${entry.state.status}.`, { ...ref });
    this.settle(entry, 'rejected');
    this.answer(entry, 'reject');
  }

  /** The document at `path` changed, opened or closed: re-base its pending suggestions or mark them stale. */
  async documentChanged(path: string): Promise<void> {
    const waiting = [...this.entries.values()].filter((e) => e.path === path && e.state.status === 'pending' && e.answer);
    if (waiting.length === 0) return;
    const current = await this.docs.current(path);
    for (const entry of waiting) {
      if (entry.state.status !== 'pending' || !entry.answer) continue;
      if (current && current.text === entry.state.baseText) {
        if (current.version !== entry.state.version) this.update(entry, { version: current.version, uri: current.uri });
        continue;
      }
      const next = current && rebase(entry.state.baseText, entry.state.newText, current.text);
      if (current && next !== undefined) {
        this.update(entry, { ...texts(current, next), reason: 'Re-based onto your edit.' });
      } else {
        this.settle(entry, 'stale', STALE_WHY);
        // The engine has no "stale" answer: it accepts, and apply() then reports 'stale' without writing.
        this.answer(entry, 'accept');
      }
    }
  }

  /** A hosted run ended: what still waits for the user is dropped, and the run's entries forgotten. */
  endRun(runId: string, why: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.state.runId !== runId) continue;
      if (entry.state.status === 'pending') this.settle(entry, 'dropped', why);
      for (const w of entry.waiters.splice(0)) w(new RatchetError('cancelled', `The run ended before ${entry.state.candidateId} was written.`));
      this.entries.delete(key);
    }
  }

  /**
   * Settles once every suggestion the engine has asked about so far is in the list: an asked one
   * is listed only after its file was read, and a list that left it out would tell the editor it
   * no longer waits.
   */
  async arrived(): Promise<void> {
    await Promise.allSettled([...this.arriving]);
  }

  private async decide(runId: string, s: Suggestion, signal: AbortSignal): Promise<'accept' | 'reject'> {
    const arrival = this.enter(runId, s);
    this.arriving.add(arrival);
    const entry = await arrival.finally(() => this.arriving.delete(arrival));
    // The file already holds the edit's result (accepted before an interruption, or typed): yes.
    if (entry === 'done') return 'accept';
    if (entry.state.status === 'stale') return 'accept';
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        entry.answer = undefined;
        this.settle(entry, 'dropped', 'The run ended before you answered.');
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.answer = (a) => {
        signal.removeEventListener('abort', onAbort);
        resolve(a);
      };
    });
  }

  /** The asked suggestion, listed (pending, or stale when it no longer applies); 'done' when the file already holds its result. */
  private async enter(runId: string, s: Suggestion): Promise<Entry | 'done'> {
    const current = await this.docs.current(s.file);
    if (current?.text === s.newText) return 'done';
    const next = current && rebase(s.baseText, s.newText, current.text);
    const base: CurrentText = current ?? { uri: pathToUri(s.file), text: s.baseText, version: null };
    const entry: Entry = {
      path: s.file,
      waiters: [],
      state: { runId, candidateId: s.candidateId, status: 'pending', ...texts(base, next ?? s.newText) },
    };
    if (current && current.text !== s.baseText && next !== undefined) entry.state.reason = 'Re-based onto your edit.';
    this.entries.set(key(entry.state), entry);
    if (next === undefined) this.settle(entry, 'stale', STALE_WHY);
    else this.listener.changed(entry.state);
    return entry;
  }

  /** Writes the suggestion onto the text the user has now (re-based if needed), or reports 'stale'. */
  private async apply(runId: string, s: Suggestion): Promise<'applied' | 'stale'> {
    let entry = this.entries.get(key({ runId, candidateId: s.candidateId }));
    if (!entry) {
      // Autopilot: no decide() came first.
      entry = { path: s.file, waiters: [], state: { runId, candidateId: s.candidateId, status: 'pending', ...texts({ uri: pathToUri(s.file), text: s.baseText, version: null }, s.newText) } };
      this.entries.set(key(entry.state), entry);
    }
    if (entry.state.status === 'stale') return this.done(entry, 'stale');
    const current = await this.docs.current(s.file);
    if (current?.text === entry.state.newText) {
      // The file already holds the edit's result: this edit, written before an interruption
      // (autopilot, Accept or the user's own typing) — applied, not stale.
      this.settle(entry, 'applied');
      return this.done(entry, 'applied');
    }
    const next = current && rebase(entry.state.baseText, entry.state.newText, current.text);
    if (!current || next === undefined) {
      this.settle(entry, 'stale', STALE_WHY);
      return this.done(entry, 'stale');
    }
    const outcome = await this.applier.apply({ uri: current.uri, path: s.file, version: current.version, baseText: current.text, newText: next }, `Ratchet: accept ${s.candidateId}`);
    entry.state = { ...entry.state, ...texts(current, next) };
    if (outcome === 'applied') this.settle(entry, 'applied');
    else this.settle(entry, 'stale', STALE_WHY);
    return this.done(entry, outcome);
  }

  private done(entry: Entry, outcome: 'applied' | 'stale'): 'applied' | 'stale' {
    for (const w of entry.waiters.splice(0)) w({ outcome });
    return outcome;
  }

  private answer(entry: Entry, a: 'accept' | 'reject'): void {
    const answer = entry.answer;
    entry.answer = undefined;
    answer?.(a);
  }

  private settle(entry: Entry, status: SuggestionStatus, reason?: string): void {
    entry.state = { ...entry.state, status };
    if (reason === undefined) delete entry.state.reason;
    else entry.state.reason = reason;
    this.listener.changed(entry.state);
  }

  private update(entry: Entry, patch: Partial<SuggestionState>): void {
    entry.state = { ...entry.state, ...patch };
    this.listener.changed(entry.state);
  }

  private find(ref: SuggestionRef): Entry {
    const entry = this.entries.get(key(ref));
    if (!entry) throw new RatchetError('notFound', `No suggestion ${ref.candidateId} in run ${ref.runId}; the run may have ended.`, { ...ref });
    return entry;
  }
}

function key(ref: SuggestionRef): string {
  return `${ref.runId}\u0000${ref.candidateId}`;
}

function texts(current: CurrentText, newText: string): Pick<SuggestionState, 'uri' | 'version' | 'baseText' | 'newText' | 'range' | 'replacement'> {
  return { uri: current.uri, version: current.version, baseText: current.text, newText, ...changedSpan(current.text, newText) };
}
