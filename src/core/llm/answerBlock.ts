/**
 * A block of text a model is asked to write back — the proposer's revised prompt, the meta role's
 * rubric — read exactly (#25). The call asks for it between two lines of its own, `<<<PROMPT-x>>>`
 * and `<<<END PROMPT-x>>>`, `x` the hex of the call's frame (untrusted.ts): no text the model was
 * shown holds it, so nothing quoted or copied can open or close the block. Models that fence the
 * text instead are read the CommonMark way (markdown-it): any info string the caller allows, ``` or
 * ~~~, indented or in a list, closed by the first fence that closes it — so an example fenced after
 * the block stays out of it. An answer that ends inside an open block (cut off, or a fence inside
 * the text closed it early) is refused rather than read, and so is a choice between several blocks
 * or a block that is only a placeholder (the format echoed back).
 * A refusal says what was wrong, for the caller to put to the model in the same chat (reask.ts).
 */
import MarkdownIt from 'markdown-it';
import type { BlockLines } from './blockLines';
import { isPlaceholder } from './placeholder';
import type { Reading } from './reask';

/** The instruction: where the block goes. */
export function blockInstruction(lines: BlockLines, what: string): string {
  return `Write ${what} between the line ${lines.open} and the line ${lines.close}, each on a line of its own, and nothing else between them.`;
}

export interface AnswerBlock {
  /** The block's text, without the lines around it. */
  text: string;
  /** What the answer says before the block (its reasoning paragraph). */
  before: string;
}

export interface BlockOptions {
  /** Fence info strings that may hold the block, lower-case (`prompt`, `markdown`, '' for none…). */
  infos: readonly string[];
  /** The block's name in messages to the model, without an article ("revised prompt"). */
  what: string;
  /** A tag the block may be written in instead (`prompt`: `<prompt>…</prompt>`). */
  tag?: string;
}

const md = new MarkdownIt();

/** The block of an answer (see the header), or the problem to tell the model. */
export function readAnswerBlock(answer: string, lines: BlockLines, o: BlockOptions): Reading<AnswerBlock> {
  const read = findBlock(answer.replace(/\r\n?/g, '\n'), lines, o);
  if (read.ok && isPlaceholder(read.value.text)) return { ok: false, problem: `Your ${o.what} is only a placeholder, "${read.value.text.trim().slice(0, 60)}": write the ${o.what} itself.` };
  return read;
}

function findBlock(text: string, lines: BlockLines, o: BlockOptions): Reading<AnswerBlock> {
  const own = ownBlock(text, lines);
  if (own) return own;
  const fenced = fencedBlock(text, lines, o);
  if (fenced) return fenced;
  const tagged = o.tag === undefined ? undefined : tagBlock(text, o.tag);
  if (tagged) return { ok: true, value: tagged };
  return { ok: false, problem: `Your answer has no ${o.what} between the lines ${lines.open} and ${lines.close}.` };
}

/**
 * The last complete block between the call's own lines (found in any case, with decoration around
 * them). Text a model wrote on a block line itself — after the open line's word
 * ("<<<PROMPT-x>>>Solve…"), before the close line's ("…answer.<<<END PROMPT-x>>>"), or both on one
 * line — is the block's too. A block line named inside a sentence, with text on both sides of it, is
 * no block line.
 */
function ownBlock(text: string, lines: BlockLines): Reading<AnswerBlock> | undefined {
  const all = text.split('\n');
  const openWord = lines.open.slice(3, -3).toLowerCase();
  const closeWord = lines.close.slice(3, -3).toLowerCase();
  // A block line named in a sentence ("I wrapped it in <<<PROMPT-x>>> and <<<END PROMPT-x>>> as
  // asked") opens and closes nothing: a line of the block has nothing but decoration on one side.
  const isLine = (l: string, at: number, word: string) => ownText(l.slice(0, at).replace(/<{1,3}$/, '')) === '' || ownText(l.slice(at + word.length).replace(/^>{1,3}/, '')) === '';
  const closeAt = (l: string) => {
    const lower = l.toLowerCase();
    for (let i = lower.indexOf(closeWord); i >= 0; i = lower.indexOf(closeWord, i + 1)) if (isLine(l, i, closeWord)) return i;
    return -1;
  };
  // An open word on a line: not the close word's own "…PROMPT-x" (the close word holds the open word).
  const openAt = (l: string) => {
    const lower = l.toLowerCase();
    for (let i = lower.indexOf(openWord); i >= 0; i = lower.indexOf(openWord, i + 1)) if (!lower.slice(0, i).endsWith('end ') && isLine(l, i, openWord)) return i;
    return -1;
  };
  // What the model wrote on a block line besides the line: the part after the open word, before the
  // close word. The brackets and the emphasis or ticks around them ("**<<<PROMPT-x>>>** Solve…") are
  // the line's, not the text's.
  const pastOpen = (part: string) => part.replace(/^>{1,3}[*_`]*/, '');
  const beforeCloseLine = (part: string) => part.replace(/[*_`]*<{1,3}$/, '');
  const afterOpen = (l: string) => ownText(pastOpen(l.slice(openAt(l) + openWord.length)));
  const beforeClose = (l: string) => ownText(beforeCloseLine(l.slice(0, closeAt(l))));
  let found: { from: number; to: number } | undefined;
  let opened = -1;
  all.forEach((l, i) => {
    const o = openAt(l);
    const c = closeAt(l);
    if (o >= 0 && (c < 0 || o < c)) opened = i;
    if (c >= 0 && opened >= 0 && (opened < i || o < c)) {
      found = { from: opened, to: i };
      opened = -1;
    }
  });
  if (opened >= 0) return { ok: false, problem: `Your answer ends inside the block opened by ${lines.open}: the line ${lines.close} never came.` };
  if (!found) return undefined;
  const { from, to } = found;
  const inner =
    from === to
      ? ownText(beforeCloseLine(pastOpen(all[from]!.slice(openAt(all[from]!) + openWord.length, closeAt(all[from]!)))))
      : [afterOpen(all[from]!), ...all.slice(from + 1, to), beforeClose(all[to]!)].filter((l, i, ls) => (i !== 0 && i !== ls.length - 1) || l !== '').join('\n');
  return { ok: true, value: { text: unwrapFence(inner).replace(/^\s*\n|\n\s*$/g, ''), before: all.slice(0, from).join('\n').trim() } };
}

/** Text on a block line besides the line itself, or '' when it is only decoration (emphasis, ticks, quotes). */
function ownText(part: string): string {
  return /^[\s*_`"'>]*$/.test(part) ? '' : part.trim();
}

/** A block's text that is one fenced block, wholly: the fence is layout. */
function unwrapFence(inner: string): string {
  const fences = md.parse(inner, {}).filter((t) => t.type === 'fence');
  const nonBlank = inner.split('\n').filter((l) => l.trim() !== '');
  if (fences.length !== 1 || nonBlank.length < 2) return inner;
  const f = fences[0]!;
  const first = nonBlank[0]!.trim();
  const last = nonBlank.at(-1)!.trim();
  const closes = last.length >= f.markup.length && last === f.markup[0]!.repeat(last.length);
  return first.startsWith(f.markup) && closes ? f.content.replace(/\n$/, '') : inner;
}

/** A fenced block (CommonMark) whose info string the caller allows. */
function fencedBlock(text: string, lines: BlockLines, o: BlockOptions): Reading<AnswerBlock> | undefined {
  const all = text.split('\n');
  const fences = md.parse(text, {}).filter((t) => t.type === 'fence' && t.map);
  const last = fences.at(-1);
  if (last && !closedFence(all, last.map!, last.markup)) {
    return { ok: false, problem: `Your answer ends inside a fenced block that is never closed. Put the ${o.what} between the lines ${lines.open} and ${lines.close} instead: they cannot be closed by a fence inside it.` };
  }
  const info = (t: (typeof fences)[number]) => t.info.trim().split(/\s+/)[0]!.toLowerCase();
  const allowed = fences.filter((t) => o.infos.includes(info(t)));
  if (allowed.length === 0) return undefined;
  const named = allowed.filter((t) => info(t) === o.infos[0]);
  const pick = named.length > 0 ? named.at(-1)! : allowed.length === 1 ? allowed[0]! : undefined;
  if (!pick) return { ok: false, problem: `Your answer has ${allowed.length} fenced blocks and it is not clear which is the ${o.what}.` };
  return { ok: true, value: { text: pick.content.replace(/\n$/, ''), before: all.slice(0, pick.map![0]).join('\n').trim() } };
}

/** Whether the fence spanning `map` ends with a closing fence line (CommonMark runs an unclosed one to the end). */
function closedFence(all: readonly string[], map: [number, number], markup: string): boolean {
  const [start, end] = map;
  if (end - 1 <= start) return false;
  const m = /^[\s>]*(`{3,}|~{3,})\s*$/.exec(all[end - 1] ?? '');
  return m !== null && m[1]![0] === markup[0] && m[1]!.length >= markup.length;
}

/** The last complete `<tag>…</tag>` element. */
function tagBlock(text: string, tag: string): AnswerBlock | undefined {
  const re = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'gi');
  const m = [...text.matchAll(re)].at(-1);
  if (!m || m[1]!.trim() === '') return undefined;
  return { text: m[1]!.replace(/^\s*\n|\n\s*$/g, ''), before: text.slice(0, m.index).trim() };
}
