/** The validator as the gates ask it: under the test's frozen rubric and decoding, its verdicts journaled. */
import type { GateContext } from './gateContext';
import { itemJudgeCall, judge, verdictEvent } from './judge';
import type { JudgeAnswer, JudgeCall } from './judge';
import type { Version } from './versions';

/**
 * One judgement under the frozen rubric and decoding of this test (A3): the call, and once more in
 * the same chat when its answer has no readable verdict (judge.ts).
 */
export function askJudge(ctx: GateContext, call: JudgeCall): Promise<JudgeAnswer> {
  return judge((messages) => ctx.llm.chat({ role: 'validator', messages, temperature: ctx.validator.temperature ?? 0, logprobs: true, sampleIndex: 0 }, ctx.signal), call);
}

export function judgeItem(ctx: GateContext, input: string, first: string, second: string): Promise<JudgeAnswer> {
  return askJudge(ctx, itemJudgeCall(ctx.rubric.text, input, first, second));
}

export async function emitVerdicts(ctx: GateContext, child: Version, parent: Version, itemId: string | undefined, childFirst: JudgeAnswer, parentFirst: JudgeAnswer) {
  await ctx.emit(verdictEvent(child.id, parent.id, itemId, 'child-first', childFirst));
  await ctx.emit(verdictEvent(child.id, parent.id, itemId, 'parent-first', parentFirst));
}
