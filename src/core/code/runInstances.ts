/**
 * A code search's instances, fixed by its first correct program (the seed, or a repair of a broken
 * seed): the evaluator's instance ids, the repeated seeds of `evaluator.repeats`, or one score —
 * trusted only when it is repeatable. Also each whole evaluation's scores read by them and cached.
 */
import { RatchetError } from '../errors';
import type { EngineEvent } from '../journal/events';
import type { EventPayload } from '../journal/control';
import type { RunLedger } from '../gates/thresholds';
import type { ScoreCache } from './gateTypes';
import type { Evaluations, ProgramEvaluation } from './evaluations';
import { textHash } from './novelty';
import { checkFirstScores, gatePreflight } from './preflight';
import type { ProgramEvents } from './programEvents';
import type { CodeRunSpec } from './spec';

/** The one instance of an evaluator that reports one score. */
const SINGLE = 'score';

/** The instances of a single noisy score evaluated `repeats` times (evaluator.repeats): one seed each. */
export function repeatSeeds(repeats: number): string[] {
  return Array.from({ length: repeats }, (_, i) => `seed-${i + 1}`);
}

export interface RunInstancesSetting {
  spec: CodeRunSpec;
  evaluations: Evaluations;
  cache: ScoreCache;
  events: ProgramEvents;
  emit: (e: EventPayload<EngineEvent>) => Promise<void>;
  signal: AbortSignal;
}

export class RunInstances {
  /** The instances every test runs on; none until the first correct program. */
  ids: string[] = [];
  /** One evaluation is the truth: declared so, or one score found repeatable. */
  deterministic: boolean;

  constructor(private readonly s: RunInstancesSetting) {
    this.deterministic = s.spec.evaluator.deterministic;
  }

  /** One whole evaluation of a program: every instance, or the repeated seeds of a single noisy score. */
  evaluateWhole(text: string): Promise<ProgramEvaluation> {
    const repeats = this.s.spec.evaluator.repeats;
    return this.s.evaluations.evaluate(text, repeats === undefined ? undefined : repeatSeeds(repeats), this.s.signal);
  }

  /**
   * The run's first correct program fixes the instances, shows whether one score is repeatable,
   * runs the gate's pre-flight, and has its scores cached. Says why the search stops when the
   * evaluation budget left no second run to tell whether one score is repeatable.
   */
  async establish(id: string, text: string, first: ProgramEvaluation, ledger: RunLedger): Promise<string | undefined> {
    const { spec, evaluations, events } = this.s;
    const who = id === 'p0' ? 'the starting program' : `${id}, the first correct program,`;
    const measured = first.instances ? Object.keys(first.instances) : [];
    const repeats = spec.evaluator.repeats;
    let stopped: string | undefined;
    if (repeats !== undefined) this.ids = repeatSeeds(repeats);
    else if (measured.length > 0) this.ids = measured;
    else {
      evaluations.useSingleScore();
      this.ids = [SINGLE];
      if (!this.deterministic) {
        // One score and no instances: only a repeatable evaluator can be trusted on one run.
        const again = await evaluations.evaluate(text, undefined, this.s.signal, 1).catch((err: unknown) => {
          if (!RatchetError.is(err, 'budgetExhausted')) throw err;
          stopped = err.message;
          return undefined;
        });
        // No budget left to tell whether one score is repeatable: the run ends with this program.
        if (again === undefined) {
          if (id === 'p0') await events.evaluated('p0', 0, first, this.ids.length);
          return stopped;
        }
        if (again.correct && again.score === first.score) {
          this.deterministic = true;
          await events.log('info', `The evaluator gave ${who} the same score twice: it is treated as deterministic, and a strict improvement commits (no statistics needed).`);
        } else {
          throw new RatchetError(
            'badInput',
            `The evaluator reports one score and it is not repeatable (${first.score} then ${again.score}): one evaluation cannot tell a better program from a lucky one. Set evaluator.repeats: N to score each program on N seeds, or report per-instance scores.`,
            { field: 'evaluator.repeats' },
          );
        }
      }
    }
    const scores = this.scoresOf(first);
    const setting = { instances: this.ids, range: spec.evaluator.scoreRange, gate: spec.gate, deterministicSingle: this.deterministic && evaluations.singleScore };
    checkFirstScores({ ...setting, who, scores });
    await this.cacheWhole(id, text, scores);
    if (id === 'p0') await events.evaluated('p0', 0, first, this.ids.length);
    const said = gatePreflight(setting, ledger);
    if (said) await events.log('info', said);
    return undefined;
  }

  /** A whole evaluation's score per instance of the run. */
  scoresOf(e: ProgramEvaluation): Readonly<Record<string, number>> {
    return this.s.evaluations.singleScore ? { [SINGLE]: e.score ?? NaN } : (e.instances ?? {});
  }

  async cacheWhole(id: string, text: string, scores: Readonly<Record<string, number>>): Promise<void> {
    for (const instance of this.ids) {
      this.s.cache.set(textHash(text), instance, scores[instance]!);
      await this.s.emit({ type: 'item/evaluated', candidateId: id, itemId: instance, score: scores[instance]!, cached: false });
    }
  }
}
