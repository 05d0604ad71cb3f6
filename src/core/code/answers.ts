/**
 * A proposer's answer in ShinkaEvolve's formats, read into an edit, so a Shinka user's prompts carry
 * over: `<NAME>`, `<DESCRIPTION>`, then either `<DIFF>` holding `<<<<<<< SEARCH` / `=======` /
 * `>>>>>>> REPLACE` blocks or `<CODE>` holding a fenced block (a cross-over answer is a `<CODE>`
 * answer too).
 *
 * The answer comes reasoning removed (src/core/llm/answer.ts): a draft in a `<think>` section is
 * never read. Tolerated, because models do it and Shinka accepts it: CRLF; prose around the tags; a
 * missing closing tag (the section runs to the next section or the end); ``` or ~~~ fences, with or
 * without a language, and a missing closing fence at the end; an unfenced `<CODE>` section that is
 * closed; marker lines of 5 to 9 characters (`<<<<<< SEARCH`, `=========`), as Aider reads them; no
 * tags at all when the answer still holds SEARCH/REPLACE blocks or a fenced block (Shinka hands
 * the whole answer to its patch functions). Several sections (#25): the last one that holds
 * something of its kind — blocks in a `<DIFF>`, code in a `<CODE>` — is the answer, so a tag named
 * in prose ("a <DIFF> rather than a <CODE>") or an abandoned draft is not; with sections of both
 * kinds, the kind the proposal asked for. Anything else is an error value whose message tells the
 * proposer what to fix.
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

export type Answer = { kind: 'diff'; name: string; description: string; edits: SearchReplace[] } | { kind: 'full'; name: string; description: string; code: string };

export type AnswerErrorKind =
  | 'empty' // nothing but white space
  | 'noProposal' // neither a <DIFF> nor a <CODE> section, nor blocks or a fence to fall back on
  | 'bothKinds' // a <DIFF> and a <CODE> section
  | 'malformedDiff' // SEARCH/REPLACE blocks that are not closed or are out of order
  | 'noCode'; // a <CODE> section with nothing in it

export type ParsedAnswer = { ok: true; answer: Answer } | { ok: false; error: { kind: AnswerErrorKind; message: string } };

const SEARCH_LINE = /^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$/;
const DIVIDER_LINE = /^[ \t]*={5,9}[ \t]*$/;
const REPLACE_LINE = /^[ \t]*>{5,9}[ \t]*REPLACE[ \t]*$/;
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/;

const FORMAT_HELP = 'Answer with <NAME>…</NAME>, <DESCRIPTION>…</DESCRIPTION>, then either <DIFF> holding one or more "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE" blocks, or <CODE> holding the whole program in a fenced code block.';

/** The text of `<TAG>…</TAG>` (to the end when it is not closed), and the answer line it starts on; undefined when absent. */
function section(text: string, tag: string): { body: string; line: number } | undefined {
  const open = new RegExp(`<${tag}>`, 'i').exec(text);
  if (!open) return undefined;
  const from = open.index + open[0].length;
  const close = new RegExp(`</${tag}>`, 'i').exec(text.slice(from));
  const body = close ? text.slice(from, from + close.index) : text.slice(from);
  return { body, line: lineAt(text, from) };
}

interface Section {
  kind: 'diff' | 'full';
  body: string;
  /** Answer line the body starts on. */
  line: number;
  /** Closed by its own `</DIFF>` / `</CODE>`. */
  closed: boolean;
}

/**
 * Every `<DIFF>` and `<CODE>` section, in order: each runs from its opening tag to its closing tag,
 * or, when that is missing, to the next opening tag of either kind or the end of the answer.
 */
function sections(text: string): Section[] {
  const opens = [...text.matchAll(/<(DIFF|CODE)>/gi)];
  return opens.map((m, i) => {
    const kind = m[1]!.toUpperCase() === 'DIFF' ? ('diff' as const) : ('full' as const);
    const from = m.index + m[0].length;
    const limit = opens[i + 1]?.index ?? text.length;
    const close = new RegExp(`</${m[1]}>`, 'i').exec(text.slice(from, limit));
    return { kind, body: close ? text.slice(from, from + close.index) : text.slice(from, limit), line: lineAt(text, from), closed: close !== null };
  });
}

function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** What a section holds of its kind: edits, code, an error in its blocks, or nothing (a tag named in prose). */
function contentOf(s: Section): { edits: SearchReplace[] } | { code: string } | { error: ParsedAnswer } | undefined {
  if (s.kind === 'diff') {
    const edits = readEdits(s.body, s.line);
    if (!Array.isArray(edits)) return { error: edits };
    return edits.length > 0 ? { edits } : undefined;
  }
  const fenced = fencedCode(s.body, 'last');
  const code = fenced ?? (s.closed ? unfenced(s.body) : '');
  return code.trim() === '' ? undefined : { code };
}

/**
 * Reads an answer. `asked`: the kind the proposal asked for, which decides between sections of both
 * kinds; without it, such an answer is refused as holding both.
 */
export function parseAnswer(raw: string, asked?: 'diff' | 'full'): ParsedAnswer {
  const text = raw.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return fail('empty', `The answer was empty. ${FORMAT_HELP}`);
  const name = section(text, 'NAME')?.body.trim() ?? '';
  const description = section(text, 'DESCRIPTION')?.body.trim() ?? '';
  const all = sections(text).map((s) => ({ s, content: contentOf(s) }));
  const real = all.filter((x) => x.content !== undefined && !('error' in x.content));
  const kinds = new Set(real.map((x) => x.s.kind));
  if (kinds.size > 1 && asked === undefined) return fail('bothKinds', 'The answer has both a <DIFF> and a <CODE> section; send one of them: SEARCH/REPLACE blocks in <DIFF>, or the whole program in <CODE>.');
  const pick = (kinds.size > 1 ? real.filter((x) => x.s.kind === asked) : real).at(-1);
  if (pick?.content && 'edits' in pick.content) return { ok: true, answer: { kind: 'diff', name, description, edits: pick.content.edits } };
  if (pick?.content && 'code' in pick.content) return { ok: true, answer: { kind: 'full', name, description, code: pick.content.code } };
  // No section holds anything: the last broken one says what to fix.
  const broken = all.filter((x) => x.content !== undefined && 'error' in x.content).at(-1);
  if (broken?.content && 'error' in broken.content) return broken.content.error;
  const diff = all.find((x) => x.s.kind === 'diff');
  if (diff) return fail('malformedDiff', `The <DIFF> section holds no "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE" block. ${FORMAT_HELP}`);
  const code = all.find((x) => x.s.kind === 'full');
  if (code) return fail('noCode', 'The <CODE> section is empty; put the whole program in it, in a fenced code block.');
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
  return lines
    .slice(open + 1)
    .join('\n')
    .replace(/\n\s*$/, '');
}

/** An unfenced section without the blank lines that pad it. */
function unfenced(body: string): string {
  return body.replace(/^\s*\n/, '').replace(/\n\s*$/, '');
}
