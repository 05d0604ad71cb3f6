/**
 * Test Evaluator's answer in words: one line for the notification — the score and metrics of a
 * program the evaluator accepts, or exactly why it did not — and the whole of it for the log
 * (feedback, what the evaluator printed). No VS Code import, so the wording is unit-tested.
 */
import { formatScore } from '../../core/journal/runStatus';
import type { TestEvaluatorResult } from '../../protocol/lsp';

export interface TestEvaluatorReport {
  ok: boolean;
  message: string;
  /** For the log. */
  details: string[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function metricsText(metrics: TestEvaluatorResult['metrics']): string {
  const entries = Object.entries(metrics ?? {});
  return entries.length === 0 ? '' : `; ${entries.map(([k, v]) => `${k} ${typeof v === 'number' ? formatScore(v) : String(v)}`).join(', ')}`;
}

export function testEvaluatorReport(program: string, r: TestEvaluatorResult): TestEvaluatorReport {
  const how = r.command === undefined ? 'evaluate.py (ShinkaEvolve)' : r.command;
  const details = [`Test Evaluator on ${program}: ${how}, ${seconds(r.ms)}.`];
  if (r.feedback) details.push(`Feedback: ${r.feedback}`);
  if (r.output) details.push(`What it printed:\n${r.output}`);
  if (!r.correct) {
    details.push(`Incorrect: ${r.error ?? 'the evaluator said so'}`);
    return { ok: false, message: `Ratchet: the evaluator found ${program} incorrect — ${r.error ?? 'it gave no reason'}.`, details };
  }
  const score = r.score === undefined ? 'no combined_score' : `combined_score ${formatScore(r.score)}`;
  const instances = r.instances > 0 ? `, ${r.instances} instance score${r.instances === 1 ? '' : 's'}` : '';
  details.push(`Correct: ${score}${instances}${metricsText(r.metrics)}.`);
  return { ok: true, message: `Ratchet: the evaluator works — ${program} is correct, ${score}${instances}${metricsText(r.metrics)} (${seconds(r.ms)}).`, details };
}
