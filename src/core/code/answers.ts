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
 * tags at all when the answer still holds SEARCH/REPLACE blocks or one fenced program (Shinka hands
 * the whole answer to its patch functions); a fence inside a block's halves. Several sections (#25):
 * the last one that holds something of its kind — blocks in a `<DIFF>`, code in a `<CODE>` — is the
 * answer, so a tag named in prose ("a <DIFF> rather than a <CODE>") or an abandoned draft is not;
 * a `<DIFF>` that goes on from the one before it ("Now the margin:", "And …") adds to it, one
 * offered as an alternative is refused; with sections of both kinds, the kind the proposal asked
 * for. Blocks the model takes back ("Actually, ignore that block") are drafts; two blocks for the
 * same SEARCH text are refused. Anything else is an error value whose message tells the proposer
 * what to fix.
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
  /** Offsets in the answer: its opening tag, and just past its closing tag (or its body's end). */
  start: number;
  end: number;
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
    const body = close ? text.slice(from, from + close.index) : text.slice(from, limit);
    return { kind, body, line: lineAt(text, from), closed: close !== null, start: m.index, end: close ? from + close.index + close[0].length : from + body.length };
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
  const candidates = kinds.size > 1 ? real.filter((x) => x.s.kind === asked) : real;
  const pick = candidates.at(-1);
  if (pick?.content && 'edits' in pick.content) {
    const edits = joinedEdits(text, candidates);
    return Array.isArray(edits) ? { ok: true, answer: { kind: 'diff', name, description, edits } } : edits;
  }
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
  const programs = programFences(text);
  if (programs.length === 1) return { ok: true, answer: { kind: 'full', name, description, code: programs[0]! } };
  if (programs.length > 1) return fail('noProposal', `The answer has no <CODE> section and ${programs.length} fenced code blocks, so which one is the whole program is not clear. ${FORMAT_HELP}`);
  return fail('noProposal', `The answer has neither a <DIFF> nor a <CODE> section. ${FORMAT_HELP}`);
}

function fail(kind: AnswerErrorKind, message: string): ParsedAnswer {
  return { ok: false, error: { kind, message } };
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/** The SEARCH/REPLACE blocks of `body` (its first line is answer line `firstLine`), or an error naming the block. */
function readEdits(body: string, firstLine: number): SearchReplace[] | ParsedAnswer {
  const lines = body.split('\n');
  const edits: SearchReplace[] = [];
  let i = 0;
  // The first line after the last block read: the prose since then stands before the next block.
  let after = 0;
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
    // The divider is indented as the SEARCH marker is: "    =======" under a heading in the text
    // (an RST or Markdown underline) is text. Two such lines leave the halves unclear.
    const indent = indentOf(l);
    const dividers: number[] = [];
    let close = -1;
    for (let j = i + 1; j < lines.length; j++) {
      const lj = lines[j]!;
      if (SEARCH_LINE.test(lj)) break;
      if (DIVIDER_LINE.test(lj) && indentOf(lj) === indent) dividers.push(j);
      else if (dividers.length > 0 && REPLACE_LINE.test(lj)) {
        close = j;
        break;
      }
    }
    const divider = dividers[0] ?? -1;
    if (divider < 0) return fail('malformedDiff', `SEARCH/REPLACE block ${n} (answer line ${at(open)}) has no "=======" line between its SEARCH and REPLACE text. ${FORMAT_HELP}`);
    if (close < 0) return fail('malformedDiff', `SEARCH/REPLACE block ${n} (answer line ${at(open)}) is not closed by a ">>>>>>> REPLACE" line. ${FORMAT_HELP}`);
    if (dividers.length > 1)
      return fail(
        'malformedDiff',
        `SEARCH/REPLACE block ${n} (answer line ${at(open)}) has ${dividers.length} "=======" lines, so where its SEARCH text ends is not clear; indent a "=======" that belongs to the text, or send the block again. ${FORMAT_HELP}`,
      );
    // Prose before this block that takes the ones before it back ("Actually, ignore that block.") drops them.
    if (TAKEN_BACK.test(lines.slice(after, open).join('\n'))) edits.length = 0;
    const [search, replace] = unfencedHalves(lines.slice(open + 1, divider), lines.slice(divider + 1, close));
    const clash = sameSearch(edits, { search: search.join('\n'), replace: replace.join('\n'), line: at(open) });
    if (clash) return clash;
    i = close + 1;
    after = i;
  }
  return edits;
}

/**
 * Words with which a model takes back the blocks above it, wherever they stand ("Actually, ignore
 * that block. Instead:", "Scratch that.", "That edit was wrong."): those blocks are a draft. Only
 * words about the blocks themselves: "ignore the first element", "that's wrong for negatives" and
 * "Wait, we also need…" take nothing back.
 */
const TAKEN_BACK =
  /\b(?:ignore|disregard|discard|forget)[ \t]+(?:that|this|these|those|the[ \t]+(?:above|previous|earlier|first|last))(?:[ \t]+(?:blocks?|edits?|changes?|diffs?|versions?|attempts?)\b|(?:[ \t]+ones?)?(?=[ \t]*(?:[.,;:!—–-]|$)))|\bscratch[ \t]+that\b|\b(?:that|this|the[ \t]+(?:above|previous|first))[ \t]+(?:block|edit|change|diff|version|attempt)[ \t]+(?:is|was)[ \t]+(?:wrong|incorrect|a[ \t]+mistake|broken)\b/i;

/**
 * Between two `<DIFF>` sections, words that make the earlier a draft: the ones above, or a new
 * start ("Actually, fewer:", "Wait —", "Here is the corrected diff:").
 */
const REDONE = new RegExp(
  String.raw`${TAKEN_BACK.source}|(?:^|[.!?:;][ \t]+|\n[ \t]*)(?:(?:actually|instead|wait|oops|sorry|on[ \t]+second[ \t]+thought)\b|(?:no|correction)[ \t]*[,:.!;—–-])|\bthat(?:'s|[ \t]+is|[ \t]+was)[ \t]+(?:wrong|incorrect|a[ \t]+mistake)[ \t]*[.!:]?[ \t]*(?:\n|$)|\b(?:corrected|revised)[ \t]+(?:diff|version|block|blocks|edit|edits|answer)\b`,
  'i',
);

/** Between two `<DIFF>` sections, words that add to the first ("Wait, we also need the margin:"). */
const CONTINUES = /\b(?:also|as[ \t]+well|too|in[ \t]+addition|additionally|besides|furthermore|moreover)\b/i;

/** Between two `<DIFF>` sections, an alternative offered ("Alternatively, a bolder change:"): which one is meant is not clear. */
const ALTERNATIVE = /\balternative(?:ly|s)?\b|\banother[ \t]+(?:option|approach|way)\b|\bor[ \t]*,?[ \t]+(?:instead|else)\b|\bif[ \t]+(?:that|this|it)[ \t]+(?:fails|doesn't|does[ \t]+not|is[ \t]+too)|\boption[ \t]+(?:\d|[a-c]\b|two|b\b)/i;

/**
 * Refuses a second block for SEARCH text an earlier block already replaces: a revision, a fallback
 * ("If that fails, try this instead:") or a duplicate — which one is meant is not clear. Else adds it.
 */
function sameSearch(edits: SearchReplace[], edit: SearchReplace): ParsedAnswer | undefined {
  const earlier = edits.find((e) => e.search === edit.search);
  if (earlier === undefined) {
    edits.push(edit);
    return undefined;
  }
  return fail('malformedDiff', `The SEARCH/REPLACE blocks at answer lines ${earlier.line} and ${edit.line} replace the same text; send one block for it (the one you mean). ${FORMAT_HELP}`);
}

/**
 * The edits of the last `<DIFF>` section that holds blocks, together with those of the sections
 * before it that it continues ("Now update the margin:", nothing, "And …"). Words that take the
 * earlier back or start again ("Actually, fewer:", "Here is the corrected diff:") make it a draft;
 * an alternative offered between them ("Alternatively, …"), or two blocks for the same SEARCH text,
 * leave which edit is meant unclear: refused, for the proposer to say.
 */
function joinedEdits(text: string, sections: { s: Section; content: ReturnType<typeof contentOf> }[]): SearchReplace[] | ParsedAnswer {
  let first = sections.length - 1;
  while (first > 0) {
    const [prev, next] = [sections[first - 1]!, sections[first]!];
    const between = text.slice(prev.s.end, next.s.start).trim();
    if (prev.s.kind !== 'diff' || TAKEN_BACK.test(between) || (REDONE.test(between) && !CONTINUES.test(between))) break;
    if (ALTERNATIVE.test(between)) return fail('malformedDiff', `The answer offers two <DIFF> sections as alternatives ("${between.slice(0, 60)}"); send the one you mean. ${FORMAT_HELP}`);
    first--;
  }
  const edits: SearchReplace[] = [];
  for (const { content } of sections.slice(first)) {
    if (!content || !('edits' in content)) continue;
    for (const e of content.edits) {
      const clash = sameSearch(edits, e);
      if (clash) return clash;
    }
  }
  return edits;
}

/**
 * A block's SEARCH and REPLACE lines without a code fence the model wrapped around them inside the
 * markers (each half fenced, or one fence opening the SEARCH text and closing the REPLACE text):
 * the file holds no fence lines, so the SEARCH text would never be found.
 */
function unfencedHalves(search: string[], replace: string[]): [string[], string[]] {
  const opens = (l: string | undefined): boolean => l !== undefined && FENCE_OPEN.test(l);
  const closes = (l: string | undefined): boolean => l !== undefined && /^[ \t]*(?:`{3,}|~{3,})[ \t]*$/.test(l);
  const [s, r] = [[...search], [...replace]];
  for (const half of [s, r])
    if (half.length >= 2 && opens(half[0]) && closes(half.at(-1))) {
      half.shift();
      half.pop();
    }
  if (opens(s[0]) && closes(r.at(-1))) {
    s.shift();
    r.pop();
  }
  return [s, r];
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
  return open < 0 ? undefined : fenceFrom(lines, open, closing).code;
}

/** The block whose opening fence is line `open`, and the index of the line after its closing fence. */
function fenceFrom(lines: string[], open: number, closing: 'first' | 'last'): { code: string; next: number } {
  const fence = FENCE_OPEN.exec(lines[open]!)![1]!;
  const closes = (l: string): boolean => {
    const t = l.trim();
    return t.length >= fence.length && t === fence[0]!.repeat(t.length);
  };
  const after = lines.slice(open + 1);
  const firstClose = after.findIndex(closes);
  // Inside <CODE> a fence inside the program (a docstring's example) is not its end, but prose or a
  // new fenced block after a closing fence ("Example:\n```python …") says the program ended there.
  const endsThere = firstClose >= 0 && PROSE_OR_NEW_FENCE.test(after.slice(firstClose + 1).find((l) => l.trim() !== '') ?? '');
  const found = closing === 'last' && !endsThere ? after.findLastIndex(closes) : firstClose;
  if (found >= 0) return { code: lines.slice(open + 1, open + 1 + found).join('\n'), next: open + found + 2 };
  // Never closed: the code runs to the end, less the blank lines before </CODE> or the answer's end.
  return { code: after.join('\n').replace(/\n\s*$/, ''), next: lines.length };
}

/** A line after a closing fence that is no code: prose ending in a colon or full stop, or a fence opening with a language. */
const PROSE_OR_NEW_FENCE = /^[ \t]{0,3}(?:[*_]*[A-Z][\p{L}'’ ,()-]*[:.][*_]*|(?:`{3,}|~{3,})[ \t]*\w+)[ \t]*$/u;

/** Fences for running or showing output, not a program: "Run it with: ```bash python x.py```". */
const NOT_A_PROGRAM = /^(?:bash|sh|shell|zsh|console|shell-session|powershell|ps1?|cmd|bat|text|txt|plaintext|output|log)$/i;

/**
 * The fenced blocks of a tag-less answer that may be the program: all of them when there is one,
 * else those not marked as a shell session or output — the one marked with a language, when the
 * others are not. Each runs from its opening fence to the first closing one (or to the end when
 * never closed). Two left is no answer: a model that quotes the current code before its rewrite
 * ("The loop is: ```python …``` Here is the new program: ```python …```") did not say which.
 */
function programFences(text: string): string[] {
  const lines = text.split('\n');
  const blocks: { info: string; code: string }[] = [];
  for (let i = 0; i < lines.length;) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open) {
      i++;
      continue;
    }
    const { code, next } = fenceFrom(lines, i, 'first');
    if (code.trim() !== '') blocks.push({ info: open[2]!, code });
    i = next;
  }
  if (blocks.length <= 1) return blocks.map((b) => b.code);
  const programs = blocks.filter((b) => !NOT_A_PROGRAM.test(b.info));
  // One fence marked with a language among unmarked ones ("an example: ``` … ```"): that one.
  const marked = programs.filter((b) => b.info !== '');
  return (marked.length === 1 ? marked : programs).map((b) => b.code);
}

/** An unfenced section without the blank lines that pad it. */
function unfenced(body: string): string {
  return body.replace(/^\s*\n/, '').replace(/\n\s*$/, '');
}
