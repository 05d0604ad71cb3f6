/**
 * A search's meta notes as they come and go (metaNotes.ts writes the prompt and reads the answer):
 * the tested children since the last notes, a new set of notes every search.metaEvery of them,
 * and the notes' recommendations handed out in turn, one a proposal.
 */
import { RatchetError } from '../errors';
import type { LlmClient } from '../ports';
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import { hashSeed } from '../random';
import { metaMessages, parseRecommendations } from './metaNotes';
import type { ProgramSummary } from './metaNotes';

export interface MetaNotebookSetting {
  llm: LlmClient;
  runSeed: number;
  /** search.metaEvery: tested children between notes (0: no notes). */
  every: number;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  signal: AbortSignal;
}

export class MetaNotebook {
  /** Tested children since the last meta notes, and the notes' recommendations, handed out in turn. */
  private sinceNotes: ProgramSummary[] = [];
  private recommendations: string[] = [];
  private nextRecommendation = 0;

  constructor(private readonly s: MetaNotebookSetting) {}

  /** The next proposal's hint: the latest notes' next recommendation, or none before the first notes. */
  hint(): string | undefined {
    return this.recommendations.length > 0 ? this.recommendations[this.nextRecommendation++ % this.recommendations.length]! : undefined;
  }

  /** A tested child, summed up; when it completes a round, the meta role writes new notes. Says why the search stops when the LLM budget refused them. */
  async tested(summary: ProgramSummary): Promise<string | undefined> {
    this.sinceNotes.push(summary);
    if (this.s.every > 0 && this.sinceNotes.length >= this.s.every) return this.write(summary.id);
    return undefined;
  }

  private async write(afterProgram: string): Promise<string | undefined> {
    let reply;
    try {
      reply = await this.s.llm.chat({ role: 'meta', messages: metaMessages(this.sinceNotes, this.recommendations), seed: hashSeed(this.s.runSeed, 'meta', afterProgram) }, this.s.signal);
    } catch (err) {
      if (!(RatchetError.is(err) && err.code === 'budgetExhausted')) throw err;
      return err.message;
    }
    this.sinceNotes = [];
    const recommendations = parseRecommendations(reply.text);
    if (recommendations.length === 0) return undefined;
    this.recommendations = recommendations;
    this.nextRecommendation = 0;
    await this.s.emit({ type: 'meta/notes', afterProgram, recommendations });
    return undefined;
  }
}
