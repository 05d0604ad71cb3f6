/**
 * Runs one version of the prompt on one item: the harness gives it to the agent (harness.ts: the
 * rendered prompt as the user message, instructions as the system message, a skill if the model
 * loads it, or a command), then the output is scored. Each (version, item) has exactly one
 * canonical draw (GATES.md 4.3): sampleIndex 0, so the LLM response cache returns the same output
 * on a rerun or a resume, and outputs are memoised here so the judge and the scorer see the very
 * same text.
 */
import type { DataItem } from '../data/item';
import type { ScoreOutcome, Scorer } from '../data/scorers/types';
import { scoreSafely } from '../data/scorers/types';
import type { AgentHarness } from './harness';

export interface Evaluation {
  itemId: string;
  input: string;
  /** The agent's final answer (reasoning removed: src/core/llm/answer.ts): what scorers and judges read. */
  output: string;
  /** The agent's reasoning, apart from its output: journaled, never scored. */
  thinking?: string;
  /** undefined in a reward-free run (no scorer), and when the judging scorer abstained. */
  score: number | undefined;
  reason: string | undefined;
  /** The judging scorer's judge gave no grade (asked twice): what was wrong. A gate leaves the item out. */
  abstained?: string;
  /** The model a judging scorer (llm-rubric) asked, when one graded this output. */
  judgedBy?: string;
  /** Mean token log-probability of the output, when the endpoint gave logprobs (Soft Elo). */
  tokenLogprobs: number[] | undefined;
  /** True when the output came from this run's memo (no call, no cache lookup). */
  memo: boolean;
}

export interface EvaluatorDeps {
  harness: AgentHarness;
  scorer: Scorer | undefined;
}

export class Evaluator {
  private readonly memo = new Map<string, Promise<Evaluation>>();
  /** Agent calls actually requested by this run (memo misses), per version. */
  readonly callsByVersion = new Map<string, number>();

  constructor(private readonly deps: EvaluatorDeps) {}

  /** `versionText` is the prompt body; `versionHash` its content hash. */
  evaluate(versionHash: string, versionText: string, item: DataItem, signal: AbortSignal): Promise<Evaluation> {
    const key = `${versionHash}\u0000${item.id}`;
    const hit = this.memo.get(key);
    if (hit) return hit.then((e) => ({ ...e, memo: true }));
    this.callsByVersion.set(versionHash, (this.callsByVersion.get(versionHash) ?? 0) + 1);
    const p = this.run(versionText, item, signal);
    this.memo.set(key, p);
    // A failed or cancelled evaluation is not a canonical draw: forget it so a resume retries.
    p.catch(() => this.memo.delete(key));
    return p;
  }

  /** Whether this run already has (or is getting) the version's output on the item: evaluating it costs no call. */
  has(versionHash: string, itemId: string): boolean {
    return this.memo.has(`${versionHash}\u0000${itemId}`);
  }

  /**
   * Drops a version's outputs once nothing can ask for them again (a rejected candidate), so a
   * long run holds the outputs of committed versions only, not of every candidate it tried.
   */
  forget(versionHash: string): void {
    const prefix = `${versionHash}\u0000`;
    for (const key of this.memo.keys()) if (key.startsWith(prefix)) this.memo.delete(key);
  }

  private async run(versionText: string, item: DataItem, signal: AbortSignal): Promise<Evaluation> {
    const answer = await this.deps.harness.answer(versionText, item, signal);
    // A scorer failure scores 0 for this version (GATES.md 4.7); infrastructure errors propagate.
    // A skill's trigger check decides some items itself; a reward-free run has no scores at all.
    // An answer cut off at the length limit has no final answer to score: the version's failure,
    // and never read as if it were final (#25).
    const scored: ScoreOutcome | undefined = !this.deps.scorer
      ? undefined
      : answer.decided
        ? { ...answer.decided, failed: false }
        : answer.cutOff !== undefined
          ? { score: 0, reason: answer.cutOff, failed: true }
          : await scoreSafely(this.deps.scorer, answer.output, item, { signal });
    return {
      itemId: item.id,
      input: answer.input,
      output: answer.output,
      ...(answer.thinking === undefined ? {} : { thinking: answer.thinking }),
      score: scored?.score,
      reason: scored?.reason,
      ...(scored?.abstained === undefined ? {} : { abstained: scored.abstained }),
      ...(scored?.judgedBy === undefined ? {} : { judgedBy: scored.judgedBy }),
      tokenLogprobs: answer.tokenLogprobs,
      memo: false,
    };
  }
}
