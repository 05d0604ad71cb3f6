/**
 * A code search's word on its programs, as the journal has it: `program/evaluated` with the
 * evaluator's public metrics and feedback over every shard the program ran, and the run's log lines.
 */
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import type { MetricValue } from '../journal/payloadTypes';
import type { Evaluations, ProgramEvaluation } from './evaluations';
import { textHash } from './novelty';

export interface ProgramEventsSetting {
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  evaluations: Evaluations;
  /** Each program's text by id. */
  texts: ReadonlyMap<string, string>;
  /** The seed's text, which is filed under its island records only after its evaluation. */
  seedText: string;
}

export class ProgramEvents {
  constructor(private readonly s: ProgramEventsSetting) {}

  async evaluated(id: string, island: number, e: ProgramEvaluation, instances: number): Promise<void> {
    const reported = e.correct ? this.reported(this.s.texts.get(id) ?? (id === 'p0' ? this.s.seedText : undefined)) : undefined;
    const feedback = e.feedback ?? reported?.feedback;
    await this.s.emit({
      type: 'program/evaluated',
      candidateId: id,
      island,
      correct: e.correct,
      ...(e.score === undefined ? {} : { score: e.score }),
      instances,
      ...(feedback ? { feedback } : {}),
      ...(reported?.metrics ? { metrics: reported.metrics } : {}),
      ...(e.error === undefined ? {} : { error: e.error }),
      ...(e.output === undefined ? {} : { output: e.output }),
    });
  }

  async log(level: 'info' | 'warn', message: string): Promise<void> {
    await this.s.emit({ type: 'log', level, message });
  }

  /** The evaluator's public metrics and text feedback for a program, over every shard it ran. */
  private reported(text: string | undefined): { metrics?: Record<string, MetricValue>; feedback?: string } | undefined {
    if (text === undefined) return undefined;
    const { metrics, feedback } = this.s.evaluations.reportOf(textHash(text));
    return { ...(Object.keys(metrics).length > 0 ? { metrics } : {}), ...(feedback ? { feedback } : {}) };
  }
}
