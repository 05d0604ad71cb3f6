/**
 * The validator (judge) role: compares two responses, or two prompts with their outputs, in
 * anonymised slots A and B. Every candidate-produced string reaches the judge as untrusted data in
 * the call's own delimiters, and the verdict is read only after the tag with the call's word
 * (src/core/llm/untrusted.ts, #14), as real judges write it (#25). Callers judge each pair in both
 * orders (GATES.md 5) — this module makes one judgement: a call, and one more in the same chat when
 * the answer has no readable verdict.
 */
import type { JudgeReading, JudgeVerdict } from '../gates/pairwise';
import type { EngineEvent, EventOf } from '../journal/events';
import type { EventPayload } from '../journal/control';
import { twoTokenProbability } from '../gates/pairwise';
import { readVerdict } from '../llm/answerValues';
import { askAndRead } from '../llm/reask';
import type { Reading } from '../llm/reask';
import type { ChatMessage, ChatResponse } from '../llm/types';
import type { UntrustedFrame } from '../llm/untrusted';
import { lastReadValue, taggedValues, untrustedFrame } from '../llm/untrusted';

export const DEFAULT_RUBRIC = 'Prefer the response that answers the task correctly and completely. Ignore length and style unless they change correctness.';

/** One judge call: its messages and the frame its answer is read through. */
export interface JudgeCall {
  messages: ChatMessage[];
  frame: UntrustedFrame;
}

const VERDICTS = ['A', 'B', 'tie'] as const;

/** The system message and the closing request shared by every pairwise judge prompt (prompts here, programs in code/programJudge.ts). */
export function judgeCall(frame: UntrustedFrame, task: string, rubric: string, blocks: readonly string[], question: string): JudgeCall {
  return {
    frame,
    messages: [
      { role: 'system', content: `${task} ${rubric}\n${frame.rules}` },
      {
        role: 'user',
        content: [...blocks, `${question} Write one line "Rationale: <one sentence>". ${frame.answerInstruction(VERDICTS.map((v) => `${frame.answerTag}: ${v}`))}`].join('\n\n'),
      },
    ],
  };
}

export function itemJudgeCall(rubric: string, input: string, responseA: string, responseB: string): JudgeCall {
  const frame = untrustedFrame([input, responseA, responseB]);
  return judgeCall(frame, 'You judge which of two responses to a task is better.', rubric, [frame.block('task', input), frame.block('response A', responseA), frame.block('response B', responseB)], 'Which response is better?');
}

export interface PromptSide {
  prompt: string;
  outputs: readonly { input: string; output: string }[];
}

/** Direct pairwise gate: the judge compares two prompts given their outputs on the same minibatch. */
export function promptJudgeCall(rubric: string, a: PromptSide, b: PromptSide): JudgeCall {
  const texts = (s: PromptSide) => [s.prompt, ...s.outputs.flatMap((o) => [o.input, o.output])];
  const frame = untrustedFrame([...texts(a), ...texts(b)]);
  const side = (label: 'A' | 'B', s: PromptSide) => [
    frame.block(`prompt ${label}`, s.prompt),
    ...s.outputs.flatMap((o, i) => [frame.block(`prompt ${label} example ${i + 1} input`, o.input), frame.block(`prompt ${label} example ${i + 1} output`, o.output)]),
  ];
  return judgeCall(frame, 'You judge which of two prompts makes a model do its task better, from their outputs.', rubric, [...side('A', a), ...side('B', b)], 'Which prompt is better?');
}

export interface JudgeAnswer {
  /** What the judge picked; `abstained` when, asked twice, it gave no verdict that can be read — never a tie. */
  verdict: JudgeReading;
  /** Why no verdict was read: present exactly when the judge abstained. */
  problem?: string;
  rationale: string;
  /** P(A) normalised over the two verdict tokens, when the endpoint gave logprobs. */
  pA: number | undefined;
  /** The judge's reasoning, apart from its answer (never read for a verdict). */
  reasoning?: string;
  /** Chat calls it took: 1, or 2 when the judge was asked again. */
  calls: number;
  /** The model that answered (named in the warning about a judge that does not answer). */
  model?: string;
}

type Judged = Pick<JudgeAnswer, 'rationale' | 'pA'> & { verdict: JudgeVerdict };

/**
 * Reads one answer: the last value stated after the call's tag, when it names a verdict
 * (answerValues.ts; a last "undecided" takes back a draft "A"); anything outside the tagged
 * values — a quoted "Verdict: A", an echo of injected text — is never read. No such value is a
 * problem to tell the judge, not a tie.
 */
export function readJudgeAnswer(res: Pick<ChatResponse, 'text' | 'logprobs'>, frame: Pick<UntrustedFrame, 'answerTag'>): Reading<Judged> {
  const values = taggedValues(frame, res.text);
  const read = lastReadValue(values, readVerdict, (v) => v.verdict);
  if (read) return { ok: true, value: { verdict: read.value.verdict, rationale: rationaleOf(res.text), pA: verdictProbability(res.logprobs, read.tagged.offset + read.value.at) } };
  const last = values.at(-1);
  return {
    ok: false,
    problem: last === undefined ? `Your answer has no line "${frame.answerTag}: …".` : `Your line "${frame.answerTag}: ${last.raw.trim().slice(0, 60)}" does not say A, B or tie.`,
  };
}

/** One answer read on its own, without asking again (the injection bench measures single calls). */
export function parseJudgeAnswer(res: Pick<ChatResponse, 'text' | 'logprobs'>, frame: Pick<UntrustedFrame, 'answerTag'>): JudgeAnswer {
  const read = readJudgeAnswer(res, frame);
  return read.ok ? { ...read.value, calls: 1 } : { verdict: 'abstained', problem: read.problem, rationale: rationaleOf(res.text), pA: undefined, calls: 1 };
}

/** What the judge is told when its answer had no verdict, after the problem. */
export function verdictReminder(frame: Pick<UntrustedFrame, 'answerTag'>): string {
  return `Answer again: end with one line "${frame.answerTag}: A", "${frame.answerTag}: B" or "${frame.answerTag}: tie", and nothing after it.`;
}

/**
 * One judgement: the call, and when its answer has no readable verdict the same chat once more
 * with the precise problem (reask.ts); still none, the judge abstained.
 */
export async function judge(ask: (messages: ChatMessage[]) => Promise<ChatResponse>, call: JudgeCall): Promise<JudgeAnswer> {
  const asked = await askAndRead(ask, call.messages, (res) => readJudgeAnswer(res, call.frame), verdictReminder(call.frame));
  const extra = { calls: asked.calls, model: asked.response.model, ...(asked.reasoning === undefined ? {} : { reasoning: asked.reasoning }) };
  if (asked.value) return { ...asked.value, ...extra };
  return { verdict: 'abstained', problem: asked.problem!, rationale: rationaleOf(asked.response.text), pA: undefined, ...extra };
}

function rationaleOf(text: string): string {
  const rationales = [...text.matchAll(/^\W*Rationale\W*:\s*(.*)$/gim)];
  return (rationales[rationales.length - 1]?.[1] ?? '').replace(/[*_]+$/, '').trim();
}
/** From the token that holds the tagged verdict (at `offset` in the text): P(A) over A and B. */
function verdictProbability(logprobs: ChatResponse['logprobs'], offset: number): number | undefined {
  if (!logprobs) return undefined;
  let at = 0;
  for (const tok of logprobs) {
    at += tok.token.length;
    if (at <= offset) continue;
    const alts = new Map<string, number>((tok.top ?? []).map((x) => [x.token.trim().toLowerCase(), x.logprob]));
    alts.set(tok.token.trim().toLowerCase(), tok.logprob);
    const la = alts.get('a');
    const lb = alts.get('b');
    if (la === undefined && lb === undefined) return undefined;
    return twoTokenProbability(la ?? -Infinity, lb ?? -Infinity);
  }
  return undefined;
}

/** Who a judgement favoured: the child's slot is A when it was shown first. */
export function winnerOf(v: JudgeReading, childSlot: 'A' | 'B'): EventOf<'verdict'>['winner'] {
  return v === 'abstained' || v === 'tie' ? v : v === childSlot ? 'child' : 'parent';
}

/** One order's 'verdict' event, for prompt and code runs alike: an abstention says why, and the judge's reasoning goes along. */
export function verdictEvent(candidateId: string, parentId: string, itemId: string | undefined, order: 'child-first' | 'parent-first', a: JudgeAnswer): EventPayload<EngineEvent> {
  return {
    type: 'verdict',
    candidateId,
    parentId,
    itemId,
    order,
    winner: winnerOf(a.verdict, order === 'child-first' ? 'A' : 'B'),
    rationale: a.rationale,
    ...(a.problem === undefined ? {} : { problem: a.problem }),
    ...(a.reasoning === undefined ? {} : { thinking: a.reasoning }),
  };
}
