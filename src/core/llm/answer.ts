/**
 * The one boundary between what a model wrote and every parser (#25): a chat response's content is
 * split into the final answer, which parsers read, and the model's reasoning, which nothing parses
 * or scores (the journal keeps it, the panel shows it folded). Real models and servers deliver
 * reasoning in many shapes; each is read here and nowhere else:
 *
 * - `<think>…</think>` (DeepSeek-R1, Qwen3, most open reasoning models; also `<thinking>`), anywhere
 *   but in prose ("use <think></think> tags") or in a block the call asked for (`tagSpans`);
 * - a lone `</think>`: chat templates open the tag themselves, so everything before it is reasoning;
 * - an unterminated `<think>`: the model never left its reasoning, so it never answered;
 * - `[THINK]…[/THINK]` (Mistral's Magistral); `◁think▷…◁/think▷` (Kimi's thinking models);
 *   `<|begin_of_thought|>…<|end_of_thought|>` (OpenThoughts, Sky-T1, Bespoke); `<thought>…</thought>`;
 * - harmony channels (gpt-oss): `<|channel|>analysis<|message|>…` and the `final` channel, and the
 *   flattened `analysis…assistantfinal…` a server without the special tokens sends;
 * - `reasoning_content` / `reasoning` fields, which the transport reads apart (`ChatResponse.reasoning`).
 *
 * End-of-turn tokens a server left at the end of the content (`<|im_end|>`, `<|eot_id|>`…) are not
 * part of the answer either.
 *
 * A response the endpoint cut off (`finish_reason` "length" or an equivalent) is marked truncated:
 * the layer asks again once with more room (client.ts), and a parser never reads a truncated
 * answer as final. One a content filter stopped (`content_filter`, Gemini's `SAFETY`…) is truncated
 * and `filtered` too: not asked again with more room, which would not get past the filter.
 */
import { blockSpans } from './blockLines';
import type { ChatResponse, TokenLogprob } from './types';

/**
 * Finish reasons meaning "stopped at a length limit", lower-cased: OpenAI, vLLM, Ollama and
 * llama.cpp say `length`; Anthropic-style gateways `max_tokens`; Gemini `MAX_TOKENS`; the Responses
 * API `max_output_tokens`; some servers `model_length` (the context ran out).
 */
const TRUNCATED_FINISH_REASONS: ReadonlySet<string> = new Set(['length', 'max_tokens', 'max_output_tokens', 'max_completion_tokens', 'model_length']);

export function isTruncatedFinish(finishReason: string | undefined): boolean {
  return finishReason !== undefined && TRUNCATED_FINISH_REASONS.has(finishReason.toLowerCase());
}

/**
 * Finish reasons meaning "stopped by the endpoint's content filter", lower-cased: OpenAI and Azure
 * say `content_filter`; Gemini `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`.
 * The answer did not end either: what it says so far is not its answer.
 */
const FILTERED_FINISH_REASONS: ReadonlySet<string> = new Set(['content_filter', 'safety', 'recitation', 'blocklist', 'prohibited_content', 'spii']);

export function isFilteredFinish(finishReason: string | undefined): boolean {
  return finishReason !== undefined && FILTERED_FINISH_REASONS.has(finishReason.toLowerCase());
}

export interface ModelAnswer {
  /** What the model answered, reasoning removed and outer white space trimmed: the only text parsers read. */
  answer: string;
  /** The reasoning sections, in order, joined by a blank line; undefined when there were none. */
  reasoning: string | undefined;
  /** Where `answer` starts in the content, when it is one contiguous span of it (for the logprobs of its tokens). */
  span: { start: number; end: number } | undefined;
}

interface Span {
  start: number;
  end: number;
}

/**
 * End-of-turn tokens a server sent as text after the answer (its chat template's stop token not
 * set): ChatML's `<|im_end|>`, Llama 3's `<|eot_id|>`, `<|endoftext|>`, Phi's `<|end|>`, Gemma's
 * `<end_of_turn>`, Mistral's `</s>`.
 */
const END_OF_TURN = /(?:<\|im_end\|>|<\|eot_id\|>|<\|end_of_text\|>|<\|endoftext\|>|<\|end\|>|<end_of_turn>|<\/s>)$/;

/** Where the end-of-turn tokens at the end of the content start; undefined when there are none. */
function endOfTurnStart(content: string): number | undefined {
  let start: number | undefined;
  for (let m = END_OF_TURN.exec(content.trimEnd()); m; m = END_OF_TURN.exec(content.slice(0, m.index).trimEnd())) start = m.index;
  return start;
}

/** Splits content into its answer and its reasoning (the shapes in the header). */
export function splitReasoning(content: string): ModelAnswer {
  const reasoning: string[] = [];
  const cut: Span[] = [];
  const note = (from: number, to: number, bodyFrom: number, bodyTo: number): void => {
    cut.push({ start: from, end: to });
    const body = content.slice(bodyFrom, bodyTo).trim();
    if (body !== '') reasoning.push(body);
  };

  const harmony = harmonySpans(content);
  if (harmony) {
    for (const r of harmony.reasoning) note(r.start, r.end, r.bodyStart, r.bodyEnd);
    for (const r of harmony.markup) cut.push(r);
  } else {
    for (const [open, close] of [
      ['<think>', '</think>'],
      ['<thinking>', '</thinking>'],
      ['[THINK]', '[/THINK]'],
      ['◁think▷', '◁/think▷'],
      ['<|begin_of_thought|>', '<|end_of_thought|>'],
      ['<thought>', '</thought>'],
    ] as const) {
      tagSpans(content, open, close, note);
    }
  }
  const endOfTurn = endOfTurnStart(content);
  if (endOfTurn !== undefined) cut.push({ start: endOfTurn, end: content.length });
  cut.sort((a, b) => a.start - b.start);
  const kept: Span[] = [];
  let at = 0;
  for (const c of cut) {
    if (c.start > at) kept.push({ start: at, end: c.start });
    at = Math.max(at, c.end);
  }
  if (at < content.length) kept.push({ start: at, end: content.length });
  const pieces = kept.map((k) => content.slice(k.start, k.end));
  const answer = pieces.join('').trim();
  const nonBlank = kept.filter((k) => content.slice(k.start, k.end).trim() !== '');
  let span: Span | undefined;
  if (answer === '') span = { start: content.length, end: content.length };
  else if (nonBlank.length === 1) {
    const k = nonBlank[0]!;
    const text = content.slice(k.start, k.end);
    const lead = text.length - text.trimStart().length;
    span = { start: k.start + lead, end: k.start + lead + answer.length };
  }
  return { answer, reasoning: reasoning.length > 0 ? reasoning.join('\n\n') : undefined, span };
}

/**
 * The `open…close` sections of a content (case-insensitive): each complete one; text before a lone
 * close (the template opened it); an open one never closed runs to the end. A tag named in prose is
 * no section — a prompt's "think inside <think>…</think> tags" or "reason inside <think>your
 * work</think>", an answer's "use <think> tags": after other text, a tag with text before it on its
 * line, or a pair around nothing or an ellipsis. Nor is a tag inside a block the call asked for
 * (blockLines.ts): a revised prompt's own format example ("<think>\nyour reasoning\n</think>").
 */
function tagSpans(content: string, open: string, close: string, note: (from: number, to: number, bodyFrom: number, bodyTo: number) => void): void {
  const lower = content.toLowerCase();
  const o = open.toLowerCase();
  const c = close.toLowerCase();
  // The text of a block the call asked for (a revised prompt) is kept whole, tags and all.
  const blocks = blockSpans(content);
  const inBlock = (i: number) => blocks.some((b) => b.start <= i && i < b.end);
  let at = 0;
  const firstOpen = lower.indexOf(o);
  const firstClose = lower.indexOf(c);
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen) && !inBlock(firstClose)) {
    note(0, firstClose + c.length, 0, firstClose);
    at = firstClose + c.length;
  }
  for (;;) {
    const start = lower.indexOf(o, at);
    if (start < 0) return;
    const lineStart = content.lastIndexOf('\n', start - 1) + 1;
    const afterText = content.slice(at, start).trim() !== '';
    // After answer text, a tag with text before it on its line is named in prose ("reason inside <think>your work</think>").
    const inline = afterText && content.slice(lineStart, start).trim() !== '';
    const end = lower.indexOf(c, start + o.length);
    if (end < 0) {
      const lineEnd = content.indexOf('\n', start);
      const named = inline && content.slice(start + o.length, lineEnd < 0 ? content.length : lineEnd).trim() !== '';
      if (!named && !inBlock(start)) note(start, content.length, start + o.length, content.length);
      return;
    }
    const named = inline || (afterText && /^(?:\.{2,}|…)?$/.test(content.slice(start + o.length, end).trim()));
    if (!named && !inBlock(start)) note(start, end + c.length, start + o.length, end);
    at = end + c.length;
  }
}

interface ReasoningSpan extends Span {
  bodyStart: number;
  bodyEnd: number;
}

/**
 * Harmony's channels (gpt-oss): reasoning in `analysis` (and tool preambles in `commentary`), the
 * answer in `final`. With the special tokens: `<|channel|>NAME<|message|>BODY` (`<|constrain|>json`
 * before `<|message|>` when the output is structured) up to `<|end|>`, `<|return|>` or the next
 * `<|start|>`; without them a server sends `analysisBODYassistantfinalANSWER` (`analysisBODY` alone:
 * no answer). undefined when the content is not in harmony's format.
 */
function harmonySpans(content: string): { reasoning: ReasoningSpan[]; markup: Span[] } | undefined {
  if (content.includes('<|channel|>')) {
    const reasoning: ReasoningSpan[] = [];
    const markup: Span[] = [];
    const message = /(?:<\|start\|>[^<]*)?<\|channel\|>([a-z]+)[^<]*(?:<\|constrain\|>[^<]*)?<\|message\|>/g;
    for (const m of content.matchAll(message)) {
      const bodyStart = m.index + m[0].length;
      const rest = content.slice(bodyStart);
      const stop = /<\|(?:end|return|call|start)\|>/.exec(rest);
      const bodyEnd = stop ? bodyStart + stop.index : content.length;
      const end = stop ? bodyEnd + stop[0].length : content.length;
      if (m[1] === 'final') {
        markup.push({ start: m.index, end: bodyStart });
        if (stop) markup.push({ start: bodyEnd, end });
      } else reasoning.push({ start: m.index, end, bodyStart, bodyEnd });
    }
    for (const t of content.matchAll(/<\|(?:end|return|start)\|>(?:assistant)?/g)) {
      if (!markup.some((s) => s.start <= t.index && t.index < s.end) && !reasoning.some((s) => s.start <= t.index && t.index < s.end)) markup.push({ start: t.index, end: t.index + t[0].length });
    }
    return { reasoning, markup };
  }
  const flat = /^\s*analysis(?=\S)([\s\S]*?)assistantfinal/.exec(content);
  const bodyStart = content.indexOf('analysis') + 'analysis'.length;
  if (flat) return { reasoning: [{ start: 0, end: flat[0].length, bodyStart, bodyEnd: flat[0].length - 'assistantfinal'.length }], markup: [] };
  // Flattened analysis ("analysisWe need…") that never reaches `assistantfinal`: the model never answered.
  if (/^\s*analysis(?=[A-Z])/.test(content)) return { reasoning: [{ start: 0, end: content.length, bodyStart, bodyEnd: content.length }], markup: [] };
  return undefined;
}

/**
 * A transport's response (its `text` the content as sent, `reasoning` what a reasoning field
 * held) as the engine reads it: `text` the answer, `reasoning` every reasoning section, logprobs
 * kept for the answer's own tokens, `truncated` set from the finish reason.
 */
export function finalAnswer(raw: ChatResponse): ChatResponse {
  const split = splitReasoning(raw.text);
  const reasoning = [raw.reasoning?.trim(), split.reasoning].filter((r): r is string => r !== undefined && r !== '').join('\n\n');
  const { reasoning: _drop, truncated: _t, filtered: _f, ...rest } = raw;
  return {
    ...rest,
    text: split.answer,
    logprobs: raw.logprobs && split.span ? logprobsWithin(raw.logprobs, split.span) : undefined,
    ...(reasoning === '' ? {} : { reasoning }),
    ...(isTruncatedFinish(raw.finishReason) ? { truncated: true } : isFilteredFinish(raw.finishReason) ? { truncated: true, filtered: true } : {}),
  };
}

/** The tokens covering `span` of the content they spell, the first and last cut to the span's edges. */
function logprobsWithin(tokens: readonly TokenLogprob[], span: Span): TokenLogprob[] {
  const out: TokenLogprob[] = [];
  let at = 0;
  for (const t of tokens) {
    const from = at;
    const to = at + t.token.length;
    at = to;
    if (to <= span.start || from >= span.end) continue;
    const token = t.token.slice(Math.max(0, span.start - from), Math.min(t.token.length, span.end - from));
    out.push(token === t.token ? t : { ...t, token });
  }
  return out;
}
