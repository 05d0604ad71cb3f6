/**
 * One proposal's conversation with the proposer: ask, read the answer in the proposal's format,
 * apply it to the parent; an answer that cannot be read or applied is answered in the same chat
 * with the precise error, up to MAX_PATCH_RETRIES times. A cut-off answer is never read (#25).
 */
import { RatchetError } from '../errors';
import { priceOf } from '../llm/cost';
import { cutOffProblem } from '../llm/reask';
import type { ChatMessage, PriceTable } from '../llm/types';
import type { LlmClient } from '../ports';
import { hashSeed } from '../random';
import { parseAnswer } from './answers';
import type { ParsedAnswer } from './answers';
import { applyAnswer } from './patch';

/** A failed read or patch is answered in the same chat this many times before the parent is resampled. */
export const MAX_PATCH_RETRIES = 2;

export interface ProposerAsk {
  llm: LlmClient;
  runSeed: number;
  /** The proposal's number: seeds its samples. */
  n: number;
  /** '' for the endpoint's default model. */
  model: string;
  kind: 'diff' | 'full' | 'cross';
  /** The chat so far; each failed attempt and its answer are appended. */
  messages: ChatMessage[];
  parentText: string;
  programPath: string;
  /** The proposer models' prices, to tell what each call cost. */
  prices: PriceTable;
  /** An attempt whose answer could not be read (`format`) or applied (`patch`). */
  onFailed(attempt: number, reason: 'patch' | 'format', message: string): void;
  /** What one call cost, when its model's price is known. */
  onCost(dollars: number): void;
}

export type ProposerAnswer =
  | { kind: 'child'; text: string; name: string; description: string; thinking: string[] }
  /** The LLM budget refused the first call: nothing was sent. */
  | { kind: 'unsent'; message: string }
  /** The LLM budget refused a second try: nothing came of the proposal, and the search stops. */
  | { kind: 'spent'; message: string }
  /** No attempt could be read and applied. */
  | { kind: 'none' };

export async function askProposer(a: ProposerAsk, signal: AbortSignal): Promise<ProposerAnswer> {
  const thinking: string[] = [];
  for (let attempt = 1; attempt <= 1 + MAX_PATCH_RETRIES; attempt++) {
    // Each proposal is its own sample (a resume replays it from the cache; a rerun does not collapse two proposals into one).
    const sample = { seed: hashSeed(a.runSeed, 'proposal', a.n, attempt), sampleIndex: a.n };
    let reply;
    try {
      reply = await a.llm.chat({ role: 'proposer', messages: a.messages, ...sample, ...(a.model ? { model: a.model } : {}) }, signal);
    } catch (err) {
      // A spent LLM budget refuses the next call before it is sent: the search ends with what it has.
      // (Evaluations spend no LLM budget, so no child is cut off mid-test.)
      if (!(RatchetError.is(err) && err.code === 'budgetExhausted')) throw err;
      return { kind: attempt === 1 ? 'unsent' : 'spent', message: err.message };
    }
    const dollars = priceOf(a.prices, a.model, reply.usage);
    if (dollars !== undefined) a.onCost(dollars);
    if (reply.reasoning) thinking.push(reply.reasoning);
    const parsed: ParsedAnswer = reply.truncated
      ? { ok: false, error: { kind: 'empty', message: `${cutOffProblem(reply)}${reply.filtered ? '' : ' Answer again, shorter: only the blocks that change.'}` } }
      : parseAnswer(reply.text, a.kind === 'diff' ? 'diff' : 'full');
    const applied = parsed.ok ? applyAnswer(a.parentText, parsed.answer, a.programPath) : undefined;
    if (parsed.ok && applied?.ok) return { kind: 'child', text: applied.text, name: parsed.answer.name, description: parsed.answer.description, thinking };
    const message = parsed.ok ? (applied!.ok ? '' : applied!.error.message) : parsed.error.message;
    a.onFailed(attempt, parsed.ok ? 'patch' : 'format', message);
    a.messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: `${message}\n\nAnswer again in the same format.` });
  }
  return { kind: 'none' };
}
