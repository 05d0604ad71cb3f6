/**
 * The lines around a block a model is asked to write back (answerBlock.ts): `<<<PROMPT-x>>>` and
 * `<<<END PROMPT-x>>>`, `x` the hex of the call's frame (untrusted.ts). The format is stated here
 * once: answerBlock.ts asks for and reads blocks by it, answer.ts keeps a block's text whole.
 */
import type { UntrustedFrame } from './untrusted';

export interface BlockLines {
  /** `<<<PROMPT-x>>>` */
  open: string;
  /** `<<<END PROMPT-x>>>` */
  close: string;
}

/** The lines of a block labelled `label` (a word: PROMPT, RUBRIC) in the frame's own hex. */
export function blockLines(frame: Pick<UntrustedFrame, 'answerTag'>, label: string): BlockLines {
  const hex = frame.answerTag.slice(frame.answerTag.indexOf('-') + 1);
  return { open: `<<<${label}-${hex}>>>`, close: `<<<END ${label}-${hex}>>>` };
}

/** Where each block of `content` lies, between its open line and its close line (a block never closed runs to the end). */
export function blockSpans(content: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const m of content.matchAll(/^[ \t]*<<<([A-Z][A-Z0-9_]*-[0-9a-f]+)>>>[ \t]*$/gm)) {
    const start = m.index + m[0].length;
    const close = content.indexOf(`<<<END ${m[1]}>>>`, start);
    spans.push({ start, end: close < 0 ? content.length : close });
  }
  return spans;
}
