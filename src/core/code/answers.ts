/**
 * A proposer's answer in ShinkaEvolve's formats, read into an edit, so a Shinka user's prompts carry
 * over: `<NAME>`, `<DESCRIPTION>`, then either `<DIFF>` holding `<<<<<<< SEARCH` / `=======` /
 * `>>>>>>> REPLACE` blocks or `<CODE>` holding a fenced block (a cross-over answer is a `<CODE>`
 * answer too).
 *
 * Tolerated, because models do it and Shinka accepts it: CRLF; prose around the tags; a missing
 * closing tag (the section runs to the end); ``` or ~~~ fences, with or without a language, and a
 * missing closing fence at the end; an unfenced `<CODE>` section; no tags at all when the answer
 * still holds SEARCH/REPLACE blocks or a fenced block (Shinka hands the whole answer to its patch
 * functions). Anything else is an error value whose message tells the proposer what to fix.
 *
 * Why not src/core/evolve/fences.ts: it finds the last ```-fenced block with a given info string,
 * while an answer's code may use ~~~, any language tag, and lose its closing fence.
 */

export interface SearchReplace {
  /** The text to find and its replacement, `\n` line breaks, no final line break. */
  search: string;
  replace: string;
  /** 1-based line of the answer where the block's SEARCH marker stands. */
  line: number;
}

export type Answer =
  | { kind: 'diff'; name: string; description: string; edits: SearchReplace[] }
  | { kind: 'full'; name: string; description: string; code: string };

export type AnswerErrorKind =
  | 'empty' // nothing but white space
  | 'noProposal' // neither a <DIFF> nor a <CODE> section, nor blocks or a fence to fall back on
  | 'bothKinds' // a <DIFF> and a <CODE> section
  | 'malformedDiff' // SEARCH/REPLACE blocks that are not closed or are out of order
  | 'noCode'; // a <CODE> section with nothing in it

export type ParsedAnswer = { ok: true; answer: Answer } | { ok: false; error: { kind: AnswerErrorKind; message: string } };

const SEARCH_LINE = /^[ \t]*<{7}[ \t]*SEARCH[ \t]*$/;
const DIVIDER_LINE = /^[ \t]*={7}[ \t]*$/;
const REPLACE_LINE = /^[ \t]*>{7}[ \t]*REPLACE[ \t]*$/;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;

const FORMAT_HELP =
  'Answer with <NAME>…</NAME>, <DESCRIPTION>…</DESCRIPTION>, then either <DIFF> holding one or more "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE" blocks, or <CODE> holding the whole program in a fenced code block.';

/** The text of `<TAG>…</TAG>` (to the end when it is not closed), and the answer line it starts on; undefined when absent. */
function section(text: string, tag: string): { body: string; line: number } | undefined {
  const open = new RegExp(`<${tag}>`, 'i').exec(text);
  if (!open) return undefined;
  const from = open.index + open[0].length;
  const close = new RegExp(`</${tag}>`, 'i').exec(text.slice(from));
  const body = close ? text.slice(from, from + close.index) : text.slice(from);
  return { body, line: lineAt(text, from) };
}

function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function parseAnswer(raw: string): ParsedAnswer {
  const text = raw.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return fail('empty', `The answer was empty. ${FORMAT_HELP}`);
  const name = section(text, 'NAME')?.body.trim() ?? '';
  const description = section(text, 'DESCRIPTION')?.body.trim() ?? '';
  const diff = section(text, 'DIFF');
  const code = section(text, 'CODE');
  if (diff && code) return fail('bothKinds', 'The answer has both a <DIFF> and a <CODE> section; send one of them: SEARCH/REPLACE blocks in <DIFF>, or the whole program in <CODE>.');
  if (diff) {
    const edits = readEdits(diff.body, diff.line);
    if (!Array.isArray(edits)) return edits;
    if (edits.length === 0) return fail('malformedDiff', `The <DIFF> section holds no "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE" block. ${FORMAT_HELP}`);
    return { ok: true, answer: { kind: 'diff', name, description, edits } };
  }
  if (code) {
    const body = fencedCode(code.body, 'last') ?? unfenced(code.body);
    if (body.trim() === '') return fail('noCode', 'The <CODE> section is empty; put the whole program in it, in a fenced code block.');
    return { ok: true, answer: { kind: 'full', name, description, code: body } };
  }
  const edits = readEdits(text, 1);
  if (!Array.isArray(edits)) return edits;
  if (edits.length > 0) return { ok: true, answer: { kind: 'diff', name, description, edits } };
  const fenced = fencedCode(text, 'first');
  if (fenced !== undefined && fenced.trim() !== '') return { ok: true, answer: { kind: 'full', name, description, code: fenced } };
  return fail('noProposal', `The answer has neither a <DIFF> nor a <CODE> section. ${FORMAT_HELP}`);
}

function fail(kind: AnswerErrorKind, message: string): ParsedAnswer {
  return { ok: false, error: { kind, message } };
}

/** The SEARCH/REPLACE blocks of `body` (its first line is answer line `firstLine`), or an error naming the block. */
function readEdits(body: string, firstLine: number): SearchReplace[] | ParsedAnswer {
  const lines = body.split('\n');
  const edits: SearchReplace[] = [];
  let i = 0;
  const at = (k: number): number => firstLine + k;
  while (i < lines.length) {
    const l = lines[i]!;
    if (DIVIDER_LINE.test(l) || REPLACE_LINE.test(l)) {
      // A lone ======= line is ordinary text (a Markdown underline); a stray REPLACE marker is not.
      if (REPLACE_LINE.test(l)) return fail('malformedDiff', `Answer line ${at(i)}: ">>>>>>> REPLACE" without a "<<<<<<< SEARCH" and "=======" before it. ${FORMAT_HELP}`);
      i++;
      continue;
    }
    if (!SEARCH_LINE.test(l)) {
      i++;
      continue;
    }
    const n = edits.length + 1;
    const open = i;
    let divider = -1;
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const lj = lines[j]!;
      if (SEARCH_LINE.test(lj)) break;
      if (divider < 0 && DIVIDER_LINE.test(lj)) divider = j;
      else if (divider >= 0 && REPLACE_LINE.test(lj)) {
        close = j;
        break;
      }
    }
    if (divider < 0) return fail('malformedDiff', `SEARCH/REPLACE block ${n} (answer line ${at(open)}) has no "=======" line between its SEARCH and REPLACE text. ${FORMAT_HELP}`);
    if (close < 0) return fail('malformedDiff', `SEARCH/REPLACE block ${n} (answer line ${at(open)}) is not closed by a ">>>>>>> REPLACE" line. ${FORMAT_HELP}`);
    edits.push({ search: lines.slice(open + 1, divider).join('\n'), replace: lines.slice(divider + 1, close).join('\n'), line: at(open) });
    i = close + 1;
  }
  return edits;
}

/**
 * The first fenced block of `text`: from an opening ``` or ~~~ line to a closing fence of the same
 * kind and at least its length, or to the end when it is never closed; undefined when there is no
 * fence. Inside <CODE> the last closing fence counts, so code that shows a fenced example survives;
 * in a tag-less answer the first does, so prose and other fences after the code stay out.
 */
function fencedCode(text: string, closing: 'first' | 'last'): string | undefined {
  const lines = text.split('\n');
  const open = lines.findIndex((l) => FENCE_OPEN.test(l));
  if (open < 0) return undefined;
  const fence = FENCE_OPEN.exec(lines[open]!)![1]!;
  const closes = (l: string): boolean => {
    const t = l.trim();
    return t.length >= fence.length && t === fence[0]!.repeat(t.length);
  };
  const after = lines.slice(open + 1);
  const found = closing === 'last' ? after.findLastIndex(closes) : after.findIndex(closes);
  if (found >= 0) return lines.slice(open + 1, open + 1 + found).join('\n');
  // Never closed: the code runs to the end, less the blank lines before </CODE> or the answer's end.
  return lines.slice(open + 1).join('\n').replace(/\n\s*$/, '');
}

/** An unfenced section without the blank lines that pad it. */
function unfenced(body: string): string {
  return body.replace(/^\s*\n/, '').replace(/\n\s*$/, '');
}
