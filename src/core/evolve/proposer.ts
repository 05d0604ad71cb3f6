/**
 * The proposer (reflection) role: given a parent prompt, its traces on a feedback minibatch and
 * the edits already rejected on this parent, it writes a revised prompt.
 *
 * Requirement A1 (GATES.md): the proposer sees feedback-split items only — never dev items,
 * outputs or scores. The only dev-derived facts it gets are gate-level (won/lost counts and the
 * reason of a rejection), through RejectionMemory.
 *
 * Answer format: a `Reasoning:` paragraph, then the whole revised prompt in a fenced block whose
 * info string is `prompt`.
 */
import { RatchetError } from '../errors';
import type { ChatMessage } from '../llm/types';
import { fence, lastFencedBlock } from './fences';
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
  'Answer with a short "Reasoning:" paragraph, then the complete revised prompt in a fenced block',
  'with the info string "prompt".',
].join(' ');

export function proposerMessages(ctx: ProposalContext): ChatMessage[] {
  const parts: string[] = [];
  if (ctx.about) parts.push(ctx.about);
  parts.push(`Current prompt:\n${fence(ctx.parentText, 'prompt')}`);
  if (ctx.variables.length > 0) parts.push(`Placeholders to keep: ${ctx.variables.map((v) => `{{${v}}}`).join(', ')}.`);
  const frozen = frozenLine(ctx.frozen);
  if (frozen) parts.push(frozen);
  if (ctx.traces.length > 0) {
    const lines = ctx.traces.map((t, i) => {
      const verdict = t.score === undefined ? '' : t.score >= 1 ? ' (correct)' : t.score <= 0 ? ' (wrong)' : ` (score ${t.score.toFixed(2)})`;
      return [
        `Example ${i + 1}${verdict}:`,
        `Input:\n${fence(t.input)}`,
        `Model output:\n${fence(t.output)}`,
        ...(t.expected === undefined ? [] : [`Expected: ${t.expected}`]),
        ...(t.feedback ? [`Feedback: ${t.feedback}`] : []),
      ].join('\n');
    });
    parts.push(`How the current prompt did:\n\n${lines.join('\n\n')}`);
  }
  if (ctx.rejected.length > 0) {
    const lines = ctx.rejected.map((r) =>
      r.outcome === 'accepted' ? `- ${r.summary} — accepted: ${r.why}` : `- ${r.summary} — rejected ${r.by === 'user' ? 'by the user' : 'by the gate'}: ${r.why}`,
    );
    parts.push(`Edits already tried on this prompt (do not propose them again):\n${lines.join('\n')}`);
  }
  parts.push(`Keep the prompt under about ${ctx.maxPromptTokens} tokens.`);
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}

export interface Proposal {
  text: string;
  reasoning: string;
}

/** Reads the proposer's answer; an answer without a ```prompt block is the proposer's failure. */
export function parseProposal(answer: string): Proposal {
  const text = lastFencedBlock(answer, 'prompt');
  if (text === undefined || text.trim() === '') {
    throw new RatchetError('llmMalformed', 'The proposer answered without a ```prompt block; the iteration is skipped.', {
      excerpt: answer.slice(0, 200),
    });
  }
  const m = /Reasoning:\s*([\s\S]*?)(?:\n\s*`{3,}|$)/i.exec(answer);
  return { text, reasoning: (m?.[1] ?? '').trim() };
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
export function mergeMessages(ctx: MergeContext): ChatMessage[] {
  const parts = [
    ...(ctx.about ? [ctx.about] : []),
    `Prompt A:\n${fence(ctx.a, 'prompt')}`,
    `Prompt B:\n${fence(ctx.b, 'prompt')}`,
    'Each of these prompts does better than the other on some examples. Write one prompt that keeps what makes each of them work.',
    ...(ctx.variables.length > 0 ? [`Placeholders to keep: ${ctx.variables.map((v) => `{{${v}}}`).join(', ')}.`] : []),
    ...[frozenLine(ctx.frozen)].filter((x): x is string => x !== undefined),
    `Keep the prompt under about ${ctx.maxPromptTokens} tokens.`,
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n\n') },
  ];
}
