/** Token estimates for texts a run has not sent yet: pre-flight sizes and prompt checks. */

/** A rough token count (~4 characters per token for English) — no tokenizer ships with the engine. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
