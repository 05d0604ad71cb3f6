/**
 * Adaptive Focus (GATES.md 7.5): the meta role rewrites the judge's rubric every K decisions from
 * recent gate activity. Called between tests only, so no test runs under two rubrics (A3).
 */
import type { LlmClient } from '../ports';
import type { ModelSpec } from '../run/specTypes';
import { untrustedFrame } from '../llm/untrusted';
import { fence, lastFencedBlock } from './fences';

export async function refreshRubric(
  llm: LlmClient,
  current: string,
  recent: readonly { decision: string; rationale?: string }[],
  meta: ModelSpec,
  signal: AbortSignal,
  version: number,
): Promise<{ rubric: string; why: string } | undefined> {
  const accepted = recent.filter((d) => d.decision === 'commit').length;
  // The judge's rationales echo candidate outputs: data, in delimiters they cannot close (#14).
  const rationales = recent.map((d) => d.rationale).filter((r): r is string => !!r);
  const frame = untrustedFrame(rationales);
  const res = await llm.chat(
    {
      role: 'meta',
      messages: [
        {
          role: 'system',
          content: `You maintain the rubric a judge uses to compare two versions of a prompt. Rewrite it so the judge focuses on what distinguishes better outputs now. Answer with a "Reasoning:" line, then the new rubric in a fenced block with the info string "rubric".\n${frame.rules}`,
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
      temperature: meta.temperature ?? 0,
      sampleIndex: version,
    },
    signal,
  );
  const rubric = lastFencedBlock(res.text, 'rubric')?.trim();
  if (!rubric) return undefined;
  return { rubric, why: (/Reasoning:\s*(.*)/i.exec(res.text)?.[1] ?? '').trim() };
}
