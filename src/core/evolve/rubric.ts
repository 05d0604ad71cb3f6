/**
 * Adaptive Focus (GATES.md 7.5): the meta role rewrites the judge's rubric every K decisions from
 * recent gate activity. Called between tests only, so no test runs under two rubrics (A3). The new
 * rubric is read between the call's own lines (src/core/llm/answerBlock.ts), a fenced block as a
 * fallback; an answer without one is asked again once in the same chat, then the rubric stays.
 */
import type { LlmClient } from '../ports';
import type { ModelSpec } from '../run/specTypes';
import { blockInstruction, readAnswerBlock } from '../llm/answerBlock';
import { blockLines } from '../llm/blockLines';
import type { BlockLines } from '../llm/blockLines';
import { askAndRead } from '../llm/reask';
import type { Reading } from '../llm/reask';
import { untrustedFrame } from '../llm/untrusted';
import { fence } from './fences';

/** Fence info strings a rubric may come in when the meta model fences it (the first is preferred). */
const RUBRIC_FENCE_INFOS = ['rubric', 'text', 'txt', 'markdown', 'md', ''] as const;

export async function refreshRubric(llm: LlmClient, current: string, recent: readonly { decision: string; rationale?: string }[], meta: ModelSpec, signal: AbortSignal, version: number): Promise<{ rubric: string; why: string } | undefined> {
  const accepted = recent.filter((d) => d.decision === 'commit').length;
  // The judge's rationales echo candidate outputs: data, in delimiters they cannot close (#14).
  const rationales = recent.map((d) => d.rationale).filter((r): r is string => !!r);
  const frame = untrustedFrame([current, ...rationales]);
  const block = blockLines(frame, 'RUBRIC');
  const asked = await askAndRead(
    (messages) => llm.chat({ role: 'meta', messages, temperature: meta.temperature ?? 0, sampleIndex: version }, signal),
    [
      {
        role: 'system',
        content: `You maintain the rubric a judge uses to compare two versions of a prompt. Rewrite it so the judge focuses on what distinguishes better outputs now. Answer with a "Reasoning:" line, then the new rubric. ${blockInstruction(block, 'the new rubric')}\n${frame.rules}`,
      },
      {
        role: 'user',
        content: [
          `Current rubric:\n${fence(current, 'rubric')}`,
          `Recent gate activity: ${accepted} of ${recent.length} candidates accepted.`,
          rationales.length > 0 ? `The judge's recent rationales:\n${rationales.map((r, i) => frame.block(`rationale ${i + 1}`, r)).join('\n')}` : '',
        ].join('\n\n'),
      },
    ],
    (res) => readRubric(res.text, block),
    `Answer again: a "Reasoning:" line, then the new rubric between the line ${block.open} and the line ${block.close}.`,
  );
  return asked.value;
}

/** The new rubric of an answer (between the call's lines, or fenced) and the reasoning line before it; else what is wrong. */
export function readRubric(answer: string, block: BlockLines): Reading<{ rubric: string; why: string }> {
  const read = readAnswerBlock(answer, block, { infos: RUBRIC_FENCE_INFOS, what: 'new rubric' });
  if (!read.ok) return read;
  const rubric = read.value.text.trim();
  if (rubric === '') return { ok: false, problem: 'The new rubric is empty.' };
  return { ok: true, value: { rubric, why: (/Reasoning\W*:\s*(.*)/i.exec(read.value.before)?.[1] ?? '').trim() } };
}
