/**
 * Text crossing into an LLM prompt as a fenced block: fences are chosen longer than any run of
 * backticks inside the text so the text cannot close them. (Blocks coming back are read by
 * src/core/llm/answerBlock.ts.)
 */

export function fence(text: string, info = ''): string {
  const ticks = '`'.repeat(Math.max(2, longestBacktickRun(text)) + 1);
  return `${ticks}${info}\n${text}\n${ticks}`;
}

/** A scan, not a spread of every run's length into Math.max: a text may hold 100k+ runs (#14). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 96 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
