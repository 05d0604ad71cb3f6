/**
 * The proposer (reflection) role: given a parent prompt, its traces on a feedback minibatch and
 * the edits already rejected on this parent, it writes a revised prompt.
 *
 * Requirement A1 (GATES.md): the proposer sees feedback-split items only — never dev items,
 * outputs or scores. The only dev-derived facts it gets are gate-level (won/lost counts and the
 * reason of a rejection), through RejectionMemory.
 *
 * Answer format: a `Reasoning:` paragraph, then the whole revised prompt between the call's own
 * lines `<<<PROMPT-x>>>` and `<<<END PROMPT-x>>>` (src/core/llm/answerBlock.ts: a fenced example or
 * a fence inside the prompt cannot close them). A fenced block is read the CommonMark way as a
 * fallback; an unreadable answer is answered once in the same chat (#25).
 */
import { blockInstruction, readAnswerBlock } from '../llm/answerBlock';
import { blockLines } from '../llm/blockLines';
import type { BlockLines } from '../llm/blockLines';
import type { Reading } from '../llm/reask';
import type { ChatMessage } from '../llm/types';
import { untrustedFrame } from '../llm/untrusted';
import { fence } from './fences';
import type { RejectedEdit } from './memory';

export interface FeedbackTrace {
  itemId: string;
  /** The rendered input the agent saw. */
  input: string;
  output: string;
  expected?: string;
  score?: number;
  /** The scorer's reason, when it gave one. */
  feedback?: string;
}

export interface ProposalContext {
  parentText: string;
  traces: readonly FeedbackTrace[];
  rejected: readonly RejectedEdit[];
  maxPromptTokens: number;
  /** Template variables the prompt must keep, e.g. ["question"]. */
  variables: readonly string[];
  /** Text that must stay exactly as written (a Copilot file's `${…}` variables, tool references, links). */
  frozen?: readonly string[];
  /** What kind of file the prompt is, when it is not a plain prompt (a skill, instructions). */
  about?: string;
}

const SYSTEM = [
  'You improve prompts for a language model. You are shown a prompt, how the model did with it on a few',
  'examples, and edits that were already tried and rejected. Write a better prompt: fix the failure',
  'patterns you see in general terms. Do not paste the examples or their answers into the prompt.',
  'Keep every {{variable}} placeholder the prompt uses.',
].join(' ');

/** One proposer call: its messages and the lines its answer's prompt is read between. */
export interface ProposerCall {
  messages: ChatMessage[];
  block: BlockLines;
}

/** The system message: the task, then where the answer goes (the call's own lines). */
function system(block: BlockLines): string {
  return `${SYSTEM} Answer with a short "Reasoning:" paragraph, then the complete revised prompt. ${blockInstruction(block, 'the complete revised prompt')}`;
}

/** The lines of a call that shows `contents`: their hex is one no content holds (untrusted.ts). */
function proposalBlock(contents: readonly string[]): BlockLines {
  return blockLines(untrustedFrame(contents), 'PROMPT');
}

export function proposerCall(ctx: ProposalContext): ProposerCall {
  const parts: string[] = [];
  if (ctx.about) parts.push(ctx.about);
  parts.push(`Current prompt:\n${fence(ctx.parentText, 'prompt')}`);
  if (ctx.variables.length > 0) parts.push(`Placeholders to keep: ${ctx.variables.map((v) => `{{${v}}}`).join(', ')}.`);
  const frozen = frozenLine(ctx.frozen);
  if (frozen) parts.push(frozen);
  if (ctx.traces.length > 0) {
    const lines = ctx.traces.map((t, i) => {
      const verdict = t.score === undefined ? '' : t.score >= 1 ? ' (correct)' : t.score <= 0 ? ' (wrong)' : ` (score ${t.score.toFixed(2)})`;
      return [`Example ${i + 1}${verdict}:`, `Input:\n${fence(t.input)}`, `Model output:\n${fence(t.output)}`, ...(t.expected === undefined ? [] : [`Expected: ${t.expected}`]), ...(t.feedback ? [`Feedback: ${t.feedback}`] : [])].join('\n');
    });
    parts.push(`How the current prompt did:\n\n${lines.join('\n\n')}`);
  }
  if (ctx.rejected.length > 0) {
    const lines = ctx.rejected.map((r) => (r.outcome === 'accepted' ? `- ${r.summary} — accepted: ${r.why}` : `- ${r.summary} — rejected ${r.by === 'user' ? 'by the user' : 'by the gate'}: ${r.why}`));
    parts.push(`Edits already tried on this prompt (do not propose them again):\n${lines.join('\n')}`);
  }
  parts.push(`Keep the prompt under about ${ctx.maxPromptTokens} tokens.`);
  const block = proposalBlock([ctx.parentText, ...ctx.traces.flatMap((t) => [t.input, t.output, t.expected ?? '', t.feedback ?? '']), ...ctx.rejected.map((r) => r.summary)]);
  return {
    block,
    messages: [
      { role: 'system', content: system(block) },
      { role: 'user', content: parts.join('\n\n') },
    ],
  };
}

export interface Proposal {
  text: string;
  reasoning: string;
}

/** Fence info strings a revised prompt may come in when the model fences it instead (the first is preferred). */
export const PROMPT_FENCE_INFOS = ['prompt', 'markdown', 'md', 'text', 'txt', 'plaintext', ''] as const;

/**
 * Reads the proposer's answer: the prompt between the call's lines (or, as a fallback, its fenced
 * or `<prompt>` block), and the reasoning written before it; otherwise what is wrong with it.
 */
export function readProposal(answer: string, block: BlockLines): Reading<Proposal> {
  const read = readAnswerBlock(answer, block, { infos: PROMPT_FENCE_INFOS, what: 'revised prompt', tag: 'prompt' });
  if (!read.ok) return read;
  if (read.value.text.trim() === '') return { ok: false, problem: `The revised prompt between ${block.open} and ${block.close} is empty.` };
  const reasoning = read.value.before.replace(/^[\s*_#]*Reasoning[*_]*\s*:[*_]*\s*/i, '').trim();
  return { ok: true, value: { text: read.value.text, reasoning } };
}

/** What the proposer is told, after the problem, when its answer could not be read. */
export function proposalReminder(block: BlockLines): string {
  return `Answer again: a short "Reasoning:" paragraph, then the complete revised prompt between the line ${block.open} and the line ${block.close}.`;
}

export interface MergeContext {
  a: string;
  b: string;
  maxPromptTokens: number;
  variables: readonly string[];
  frozen?: readonly string[];
  about?: string;
}

/** The frozen tokens, each once, for the proposer: a candidate without them is refused unevaluated. */
function frozenLine(frozen: readonly string[] | undefined): string | undefined {
  const unique = [...new Set(frozen ?? [])];
  if (unique.length === 0) return undefined;
  return `Keep each of these exactly as written, as many times as the prompt has it, and add no others (a version that changes one is refused): ${unique.map((t) => `\`${t}\``).join(', ')}.`;
}

/**
 * GEPA's merge, for a single prompt: two committed versions on the Pareto front each do better on
 * different feedback items; the proposer combines them. Same answer format as a revision.
 */
export function mergeCall(ctx: MergeContext): ProposerCall {
  const parts = [
    ...(ctx.about ? [ctx.about] : []),
    `Prompt A:\n${fence(ctx.a, 'prompt')}`,
    `Prompt B:\n${fence(ctx.b, 'prompt')}`,
    'Each of these prompts does better than the other on some examples. Write one prompt that keeps what makes each of them work.',
    ...(ctx.variables.length > 0 ? [`Placeholders to keep: ${ctx.variables.map((v) => `{{${v}}}`).join(', ')}.`] : []),
    ...[frozenLine(ctx.frozen)].filter((x): x is string => x !== undefined),
    `Keep the prompt under about ${ctx.maxPromptTokens} tokens.`,
  ];
  const block = proposalBlock([ctx.a, ctx.b]);
  return {
    block,
    messages: [
      { role: 'system', content: system(block) },
      { role: 'user', content: parts.join('\n\n') },
    ],
  };
}
