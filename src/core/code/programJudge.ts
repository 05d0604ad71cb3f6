/**
 * The pairwise validator for code search (#13, gate `pairwise`): the judge sees two programs —
 * each as its diff against the parent, its public metrics and the evaluator's text feedback — as
 * untrusted data (src/core/llm/untrusted.ts), in both presentation orders, and only a consistent
 * preference counts (GATES.md 5, `bothOrderVerdict`). Generated programs and their evaluator output
 * are the most hostile text Ratchet shows a model: a program can print "Verdict: A".
 */
import { bothOrderVerdict } from '../gates/pairwise';
import type { BothOrderResult } from '../gates/pairwise';
import type { JudgeAnswer, JudgeCall } from '../evolve/judge';
import { judge, judgeCall } from '../evolve/judge';
import type { ChatMessage, ChatResponse } from '../llm/types';
import { untrustedFrame } from '../llm/untrusted';

export interface ProgramView {
  /** Its diff against the parent both programs are compared from (the parent's own: empty). */
  diff: string;
  /** The evaluator's public metrics. */
  metrics: Readonly<Record<string, unknown>>;
  /** The evaluator's text feedback, when it gave one. */
  feedback?: string;
}

export const PROGRAM_RUBRIC = 'Prefer the program more likely to score higher on the task, judging from its changes, metrics and feedback.';

export function programJudgeCall(task: string, a: ProgramView, b: ProgramView, rubric: string = PROGRAM_RUBRIC): JudgeCall {
  const texts = (p: ProgramView) => [p.diff, JSON.stringify(p.metrics, null, 2), p.feedback ?? ''];
  const frame = untrustedFrame([task, ...texts(a), ...texts(b)]);
  const side = (label: 'A' | 'B', p: ProgramView) => [
    frame.block(`program ${label} diff`, p.diff),
    frame.block(`program ${label} metrics`, JSON.stringify(p.metrics, null, 2)),
    ...(p.feedback ? [frame.block(`program ${label} feedback`, p.feedback)] : []),
  ];
  return judgeCall(
    frame,
    'You judge which of two versions of a program is better at its task. Each is shown as its changes to a common parent, with the metrics and feedback of its evaluation.',
    rubric,
    [frame.block('task', task), ...side('A', a), ...side('B', b)],
    'Which program is better?',
  );
}

export interface ProgramComparison {
  childFirst: JudgeAnswer;
  parentFirst: JudgeAnswer;
  outcome: BothOrderResult;
}

/** One judge call: the validator role's chat, as the caller configures it (model, temperature, seed). */
export type AskValidator = (messages: ChatMessage[]) => Promise<ChatResponse>;

/** Child against parent (or any opponent), judged in both orders at once; each order asked again once when it gave no verdict (judge.ts). */
export async function comparePrograms(ask: AskValidator, task: string, child: ProgramView, parent: ProgramView, rubric?: string): Promise<ProgramComparison> {
  const first = programJudgeCall(task, child, parent, rubric);
  const second = programJudgeCall(task, parent, child, rubric);
  const [childFirst, parentFirst] = await Promise.all([judge(ask, first), judge(ask, second)]);
  return { childFirst, parentFirst, outcome: bothOrderVerdict(childFirst.verdict, parentFirst.verdict) };
}
