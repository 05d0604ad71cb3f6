/**
 * Text crossing into an LLM prompt as data, and text coming back as a block. Candidate outputs
 * reach the judge fenced as untrusted data (DESIGN.md); fences are chosen longer than any run of
 * backticks inside the text so the text cannot close them.
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

/**
 * The content of the last fenced block whose info string is `info` (e.g. "prompt"), or undefined.
 * The closing fence is the last line made of at least as many backticks as the opening one, so a
 * prompt that itself contains shorter fenced examples survives intact.
 */
export function lastFencedBlock(text: string, info: string): string | undefined {
  const lines = text.split(/\r?\n/);
  let open = -1;
  let ticks = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^(`{3,})\s*([\w-]*)\s*$/.exec(lines[i]!);
    if (m && m[2] === info) {
      open = i;
      ticks = m[1]!.length;
      break;
    }
  }
  if (open < 0) return undefined;
  let close = -1;
  for (let i = lines.length - 1; i > open; i--) {
    const m = /^(`{3,})\s*$/.exec(lines[i]!);
    if (m && m[1]!.length >= ticks) {
      close = i;
      break;
    }
  }
  if (close < 0) return undefined;
  return lines.slice(open + 1, close).join('\n');
}
