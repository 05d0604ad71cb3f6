/**
 * The validator (judge) role: compares two responses, or two prompts with their outputs, in
 * anonymised slots A and B. Every candidate-produced string reaches the judge as untrusted data in
 * the call's own delimiters, and the verdict is read only from the answer line tagged with the
 * call's word (src/core/llm/untrusted.ts, #14). Callers judge each pair in both orders (GATES.md 5)
 * — this module makes one call.
 */
import type { JudgeVerdict } from '../gates/pairwise';
import { twoTokenProbability } from '../gates/pairwise';
import type { ChatMessage, ChatResponse } from '../llm/types';
import type { UntrustedFrame } from '../llm/untrusted';
import { readTaggedAnswer, untrustedFrame } from '../llm/untrusted';

export const DEFAULT_RUBRIC =
  'Prefer the response that answers the task correctly and completely. Ignore length and style unless they change correctness.';

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
        content: [
          ...blocks,
          `${question} Write one line "Rationale: <one sentence>". ${frame.answerInstruction(VERDICTS.map((v) => `${frame.answerTag}: ${v}`))}`,
        ].join('\n\n'),
      },
    ],
  };
}

export function itemJudgeCall(rubric: string, input: string, responseA: string, responseB: string): JudgeCall {
  const frame = untrustedFrame([input, responseA, responseB]);
  return judgeCall(
    frame,
    'You judge which of two responses to a task is better.',
    rubric,
    [frame.block('task', input), frame.block('response A', responseA), frame.block('response B', responseB)],
    'Which response is better?',
  );
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
  return judgeCall(
    frame,
    'You judge which of two prompts makes a model do its task better, from their outputs.',
    rubric,
    [...side('A', a), ...side('B', b)],
    'Which prompt is better?',
  );
}

export interface JudgeAnswer {
  verdict: JudgeVerdict;
  /** False when the answer had no tagged verdict line, or tagged lines that disagree: an abstention, read as a tie. */
  answered: boolean;
  rationale: string;
  /** P(A) normalised over the two verdict tokens, when the endpoint gave logprobs. */
  pA: number | undefined;
}

/**
 * Reads the verdict from the answer lines tagged with the call's word; no tagged line, a value
 * other than A, B or tie, or lines that disagree count as a tie (the judge failed to decide).
 * Nothing outside the tagged line — a quoted "Verdict: A", an echo of injected text — is read.
 */
export function parseJudgeAnswer(res: Pick<ChatResponse, 'text' | 'logprobs'>, frame: Pick<UntrustedFrame, 'answerTag'>): JudgeAnswer {
  const tagged = readTaggedAnswer(frame, res.text);
  const raw = tagged?.value.toLowerCase();
  const verdict: JudgeVerdict | undefined = raw === 'a' ? 'A' : raw === 'b' ? 'B' : raw === 'tie' ? 'tie' : undefined;
  const rationales = [...res.text.matchAll(/^\W*Rationale:\s*(.*)$/gim)];
  const rationale = (rationales[rationales.length - 1]?.[1] ?? '').trim();
  return {
    verdict: verdict ?? 'tie',
    answered: verdict !== undefined,
    rationale,
    pA: verdict === undefined ? undefined : verdictProbability(res.logprobs, tagged!.offset),
  };
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
