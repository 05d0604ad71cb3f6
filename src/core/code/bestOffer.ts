/**
 * A code search's best program, offered the way a prompt run offers a gated edit: each time the
 * run commits a program scoring above every program it committed before, the whole new program is
 * a `suggestion` on the file (suggest mode) or is written (autopilot).
 *
 * Unlike a prompt run, the search does not stop for the user: it goes on proposing and evaluating
 * while the suggestion is shown, since its evaluator slots cost more idle than a prompt run's next
 * LLM call. A newer best withdraws a suggestion still unanswered (`edit/rejected` by the run,
 * superseded): the user is asked about the best program, not about each step towards it. Only when
 * the search is done does the run wait for the last answer (or a Cancel).
 *
 * Each suggestion's base is the file's text as the run last left it — the text it started from,
 * then each best written since — so an Accept after an Accept edits what the first one wrote; the
 * editor re-bases it onto whatever the user typed meanwhile, or marks it stale.
 */
import type { EngineEvent } from '../journal/events';
import type { CommittedProgram, CommittedPrograms } from './searchTypes';
import type { RunControl, Suggestion } from '../journal/control';
import type { EventPayload } from '../journal/control';

export interface BestOfferOptions {
  /** The program file, as suggestions name it. */
  file: string;
  /** The file's text when the run started (the seed program). */
  startText: string;
  mode: 'suggest' | 'autopilot';
  control: RunControl;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  /** The run's signal: a Cancel ends a wait for the user at once. */
  signal: AbortSignal;
  /** The search is done and its last suggestion waits for the user (the run's status says so). */
  onWaiting?: (candidateId: string) => void;
}

interface Pending {
  readonly suggestion: Suggestion;
  /** Aborted to withdraw it; `supersededBy` says for which program. */
  readonly withdraw: AbortController;
  supersededBy?: CommittedProgram;
  /** The user answered: it is being written (or was rejected) and can no longer be withdrawn. */
  answered: boolean;
  /** Settles (never rejects) once answered and landed, withdrawn, or the run has ended. */
  done: Promise<void>;
}

export class BestOffer implements CommittedPrograms {
  private best: number | undefined;
  /** The file's text as the run last left it: the next suggestion's base. */
  private fileText: string;
  private pending: Pending | undefined;
  /** A face's failure while a suggestion waited (not a Cancel): the run fails with it at its next step. */
  private failure: { error: unknown } | undefined;
  /** Ends a wait the run no longer needs (it failed, or ended some other way). */
  private readonly closed = new AbortController();

  constructor(private readonly o: BestOfferOptions) {
    this.fileText = o.startText;
  }

  async committed(program: CommittedProgram): Promise<void> {
    this.rethrow();
    if (this.best !== undefined && program.score <= this.best) return;
    this.best = program.score;
    await this.withdraw(program);
    // The starting program changes nothing.
    if (program.text === this.fileText) return;
    const suggestion: Suggestion = { candidateId: program.id, file: this.o.file, baseText: this.fileText, newText: program.text };
    if (this.o.mode === 'autopilot') return this.land(suggestion, 'autopilot');
    await this.o.emit({ type: 'suggestion', ...suggestion });
    this.pending = this.ask(suggestion);
  }

  async settled(): Promise<void> {
    const pending = this.pending;
    if (pending && !pending.answered) this.o.onWaiting?.(pending.suggestion.candidateId);
    await pending?.done;
    this.o.signal.throwIfAborted();
    this.rethrow();
  }

  /** The run is over: a suggestion still waiting is dropped without a word (the run's end says it). */
  close(): void {
    this.closed.abort();
  }

  /** A newer best withdraws the suggestion still waiting; one already answered is let land first. */
  private async withdraw(by: CommittedProgram): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    if (!pending.answered) {
      pending.supersededBy = by;
      pending.withdraw.abort();
    }
    await pending.done;
    this.pending = undefined;
    this.rethrow();
  }

  private ask(suggestion: Suggestion): Pending {
    const withdraw = new AbortController();
    const pending: Pending = { suggestion, withdraw, answered: false, done: Promise.resolve() };
    const signal = AbortSignal.any([this.o.signal, this.closed.signal, withdraw.signal]);
    const { candidateId, file } = suggestion;
    pending.done = (async () => {
      try {
        const answer = await this.o.control.decide(suggestion, signal);
        pending.answered = true;
        if (answer === 'reject') await this.o.emit({ type: 'edit/rejected', candidateId, file, by: 'user' });
        else await this.land(suggestion, 'user');
      } catch (error) {
        if (this.o.signal.aborted || this.closed.signal.aborted) return;
        const newer = pending.supersededBy;
        if (newer && withdraw.signal.aborted && !pending.answered) {
          await this.o.emit({ type: 'edit/rejected', candidateId, file, by: 'run', reason: 'superseded', why: `${newer.id} scores higher (${newer.score.toPrecision(4)})` }).catch((err: unknown) => this.fail(err));
          return;
        }
        this.fail(error);
      }
    })();
    return pending;
  }

  /** Writes the program through the face; a file changed where it edits is not written over. */
  private async land(suggestion: Suggestion, by: 'autopilot' | 'user'): Promise<void> {
    const { candidateId, file } = suggestion;
    const outcome = await this.o.control.apply(suggestion, by);
    if (outcome === 'applied') {
      this.fileText = suggestion.newText;
      await this.o.emit({ type: 'edit/applied', candidateId, file, by });
    } else if (outcome === 'stale') {
      await this.o.emit({ type: 'edit/rejected', candidateId, file, by: 'run', reason: 'stale', why: `${file} changed where ${candidateId} edits it; your text was not written over` });
    }
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
  }

  private rethrow(): void {
    if (this.failure) throw this.failure.error;
  }
}

/** The events of an offer: journaled when the user answers, so outside the order a resume replays and compares. */
export function isOfferEvent(e: EngineEvent): boolean {
  return e.type === 'suggestion' || e.type === 'edit/applied' || e.type === 'edit/rejected';
}
