/**
 * Meta notes (ShinkaEvolve's meta-recommendations): every K tested children the meta role reads a
 * summary of each — what it tried, what the gate decided, its score or why it was incorrect — and
 * answers with a few recommendations. Each later proposal gets one of them, in turn, as a hint.
 * The notes are journaled (`meta/notes`), so a resume replays them from the LLM cache.
 *
 * The meta role sees names, descriptions, decisions and public scores only: never an instance's
 * data, which is the evaluator's.
 */
import MarkdownIt from 'markdown-it';
import type { ChatMessage } from '../llm/types';
import { untrustedFrame } from '../llm/untrusted';

export interface ProgramSummary {
  id: string;
  name: string;
  decision: 'commit' | 'reject';
  score?: number;
  /** Why it was incorrect, when it was. */
  error?: string;
}

/** At most this many recommendations are kept from one answer. */
export const MAX_RECOMMENDATIONS = 5;

export function metaMessages(summaries: readonly ProgramSummary[], previous: readonly string[]): ChatMessage[] {
  // Names come from the proposer and errors from the evaluator's output: data, in delimiters they
  // cannot close (#14); ids, decisions and scores are the engine's own.
  const lines = summaries.map((s) => `- ${s.id} "${s.name}": ${s.decision === 'commit' ? 'accepted' : 'rejected'}${s.error ? `, incorrect: ${s.error}` : s.score === undefined ? '' : `, score ${s.score.toPrecision(6)}`}`);
  const attempts = lines.join('\n');
  const earlier = previous.map((r) => `- ${r}`).join('\n');
  const frame = untrustedFrame([attempts, earlier]);
  return [
    {
      role: 'system',
      content: `You advise a program search. From the attempts below, say what seems to work and what does not, then, under the heading "Recommendations:", give up to five short, concrete recommendations for the next changes, one per line, each starting with "- ".\n${frame.rules}`,
    },
    {
      role: 'user',
      content: [frame.block('recent attempts', attempts), ...(previous.length > 0 ? [frame.block('earlier recommendations', earlier)] : [])].join('\n\n'),
    },
  ];
}

const md = new MarkdownIt();

/** A heading (or a paragraph standing as one) that introduces the recommendations. */
const RECOMMENDATIONS_HEADING = /recommend|suggest|next (?:steps|changes|ideas)|what to try/i;
/** Such a heading that is the label alone: "Recommendations:", "**Suggestions**", "## Next steps". */
const RECOMMENDATIONS_LABEL = /^[\s*_#>]*(?:my\s+|the\s+)?(?:recommendations?|suggestions?|next\s+(?:steps|changes|ideas)|what\s+to\s+try(?:\s+next)?)[\s*_:.]*$/i;

/** A paragraph that starts with the label and goes on with the recommendations themselves. */
const LABEL_LED = /^[\s*_#>]*(?:my\s+|the\s+)?(?:recommendations?|suggestions?|next\s+(?:steps|changes|ideas))[\s*_]*[:：][\s*_]*(\S[\s\S]*)$/i;

/** A closing sentence that recommends: "I recommend …", "My suggestion is …", "The next step is …". */
const RECOMMENDING = /^[\s*_]*(?:I\s+(?:would\s+)?(?:strongly\s+)?(?:recommend|suggest)|my\s+(?:main\s+)?(?:recommendation|suggestion)\s+is|(?:the\s+)?next\s+step\s+(?:is|should\s+be))\b/i;

/** Prose as recommendations: one per line, or one per sentence when it is one line. */
function sentences(text: string): string[] {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines.length > 1 ? lines : lines.flatMap((l) => l.split(/(?<=[.!?])\s+(?=\p{Lu})/u));
}

interface Block {
  /** A list's items (sub-items folded into theirs), or undefined for any other block. */
  items?: string[];
  /** A heading's or paragraph's text. */
  text: string;
}

/**
 * The recommendations of the meta role's answer (#25): the items of the list under its
 * "Recommendations" heading (the last one that is the label alone), each with its sub-items folded
 * in ("Try X: a; b"); else the prose after a label that leads its paragraph ("Recommendations: Try
 * X. Seed from p3."), one per sentence; else the list under the first sentence naming them; else a
 * closing paragraph that recommends ("My recommendation is to try X.") — never the observations
 * listed first. Without any of these, its last list (the prompt asks for
 * the recommendations last); without a list, its first line. Never nothing from a non-empty answer.
 */
export function parseRecommendations(answer: string): string[] {
  // "•" and "–" are how some models bullet a list, "**1.**" how some number one; Markdown knows neither.
  const blocks = topLevelBlocks(answer.replace(/^(\s*)[•–]\s+/gm, '$1- ').replace(/^(\s*)\*\*(\d{1,2}[.)])\*\*\s+/gm, '$1$2 '));
  const lists = blocks.filter((b) => b.items !== undefined);
  // A heading that is the label alone ("Recommendations:", "## Next steps") wins over a sentence that
  // names them ("The attempts suggest that small steps help:", "Following the earlier
  // recommendations:"), which may head the observations.
  const headings = blocks.flatMap((b, i) => (b.items === undefined && b.text.length <= 120 && RECOMMENDATIONS_HEADING.test(b.text) ? [i] : []));
  const listAfter = (h: number) => blocks.slice(h + 1).find((b) => b.items !== undefined);
  const labels = headings.filter((h) => RECOMMENDATIONS_LABEL.test(blocks[h]!.text));
  // "Recommendations: Try a smaller step. Seed from p3." — the label, then the recommendations as prose.
  const led = headings.findLast((h) => LABEL_LED.test(blocks[h]!.text));
  const ledItems = led === undefined ? undefined : (blocks[led + 1]?.items ?? sentences(LABEL_LED.exec(blocks[led]!.text)![1]!));
  // "My recommendation is to try smaller steps." after the observations: that sentence, not their list.
  const last = blocks.at(-1);
  const named = last && last.items === undefined && listAfter(blocks.length - 1) === undefined && RECOMMENDING.test(last.text) ? sentences(last.text) : undefined;
  const under = labels.length > 0 ? labels.map(listAfter).findLast((b) => b !== undefined) : headings.map(listAfter).find((b) => b !== undefined);
  const picked =
    (labels.length > 0 ? under?.items : undefined) ??
    ledItems ??
    under?.items ??
    named ??
    lists.at(-1)?.items ??
    answer
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .slice(0, 1);
  return picked.slice(0, MAX_RECOMMENDATIONS).map((r) => (r.length > 300 ? `${r.slice(0, 297)}…` : r));
}

/** The answer's top-level blocks; lists that follow each other (a "-" list, then a "1." one) are one list. */
function topLevelBlocks(answer: string): Block[] {
  const tokens = md.parse(answer, {});
  const blocks: Block[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level !== 0) continue;
    if (t.type === 'bullet_list_open' || t.type === 'ordered_list_open') {
      const close = closingIndex(tokens, i);
      const items = listItems(tokens.slice(i + 1, close), 1);
      const previous = blocks.at(-1);
      if (previous?.items) previous.items.push(...items);
      else blocks.push({ items, text: '' });
      i = close;
    } else if (t.type === 'heading_open' || t.type === 'paragraph_open') {
      blocks.push({ text: tokens[i + 1]?.content.trim() ?? '' });
    }
  }
  return blocks;
}

function closingIndex(tokens: ReturnType<MarkdownIt['parse']>, open: number): number {
  const level = tokens[open]!.level;
  const closeType = tokens[open]!.type.replace('_open', '_close');
  for (let j = open + 1; j < tokens.length; j++) if (tokens[j]!.type === closeType && tokens[j]!.level === level) return j;
  return tokens.length - 1;
}

/** Each item of a list (tokens inside it, items at `level`): its own text, then its sub-items'. */
function listItems(tokens: ReturnType<MarkdownIt['parse']>, level: number): string[] {
  const items: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'list_item_open' || tokens[i]!.level !== level) continue;
    const close = closingIndex(tokens, i);
    const inside = tokens.slice(i + 1, close);
    const own = inside.filter((t) => t.type === 'inline' && t.level === level + 2).map((t) => t.content.trim());
    const subs = inside.filter((t) => t.type === 'inline' && t.level > level + 2).map((t) => t.content.trim());
    const head = own.join(' ');
    items.push(subs.length === 0 ? head : `${head}${head.endsWith(':') ? '' : ':'} ${subs.join('; ')}`);
    i = close;
  }
  return items.filter((item) => item !== '');
}
