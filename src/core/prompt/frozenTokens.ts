/**
 * Frozen tokens: the parts of a Copilot file (the file-kind table's `copilot`) that mean something
 * to VS Code or to the agent rather than to the model reading the prose, so no edit may drop or
 * alter them — `${selection}`, `${file}`, `${input:name}` and every other `${…}` variable,
 * `#tool:name` (and the older `#file:` / `#sym:` references), Markdown links and images
 * `[text](target)`, autolinks `<https://…>` and link reference definitions `[ref]: target`.
 *
 * The rule is a multiset: every frozen token of the starting file appears in a candidate as often
 * as it did, byte for byte, and the candidate adds none (a link or a tool the proposer invented is
 * as wrong as one it dropped). Order may change, since a rewrite moves sentences. The check reads
 * the candidate's text as the proposer's answer was parsed — whatever its answer format — so it
 * runs before the candidate costs an evaluation.
 *
 * Found by pattern, not by a Markdown parser: a token inside a code span is frozen too, which errs
 * on the side of keeping text as it was.
 */

const PATTERNS: readonly RegExp[] = [
  // VS Code's variables: ${selection}, ${file}, ${workspaceFolder}, ${input:name:placeholder}.
  /\$\{[^}\n]+\}/g,
  // Tool and context references; a sentence's final period is not part of the name.
  /#(?:tool|file|sym):[\w.*/-]*[\w*/]/g,
  // Inline links and images, with an optional title: [text](target "title").
  /!?\[[^\]\n]*\]\([^)\n]*\)/g,
  // Autolinks.
  /<(?:https?|mailto):[^>\s]+>/g,
  // Link reference definitions, the whole line.
  /^ {0,3}\[[^\]\n]+\]:[ \t]*\S.*$/gm,
];

/** Every frozen token of a text, in order of appearance (a token inside another is not counted twice). */
export function frozenTokens(text: string): string[] {
  const found: { at: number; end: number; token: string }[] = [];
  for (const re of PATTERNS) for (const m of text.matchAll(re)) found.push({ at: m.index, end: m.index + m[0].length, token: m[0] });
  found.sort((a, b) => a.at - b.at || b.end - a.end);
  const out: string[] = [];
  let covered = -1;
  for (const f of found) {
    if (f.at < covered) continue;
    out.push(f.token);
    covered = f.end;
  }
  return out;
}

export interface FrozenChange {
  /** Tokens of the starting file the candidate lacks (one entry per missing occurrence). */
  dropped: string[];
  /** Tokens the candidate has that the starting file did not. */
  added: string[];
}

/** How a candidate's frozen tokens differ from the starting file's; both empty when it keeps them. */
export function frozenChange(start: readonly string[], candidateText: string): FrozenChange {
  const left = new Map<string, number>();
  for (const t of start) left.set(t, (left.get(t) ?? 0) + 1);
  const added: string[] = [];
  for (const t of frozenTokens(candidateText)) {
    const n = left.get(t) ?? 0;
    if (n > 0) left.set(t, n - 1);
    else added.push(t);
  }
  const dropped = [...left].flatMap(([t, n]) => Array.from({ length: n }, () => t));
  return { dropped, added };
}

/** The refusal's words, for the journal and the proposer's memory; undefined when nothing changed. */
export function describeFrozenChange(change: FrozenChange): string | undefined {
  const quote = (tokens: readonly string[]) =>
    tokens
      .slice(0, 3)
      .map((t) => `\`${t}\``)
      .join(', ') + (tokens.length > 3 ? ` and ${tokens.length - 3} more` : '');
  const parts = [...(change.dropped.length > 0 ? [`it drops or alters ${quote(change.dropped)}`] : []), ...(change.added.length > 0 ? [`it adds ${quote(change.added)}`] : [])];
  return parts.length === 0 ? undefined : `${parts.join(' and ')}, which must stay exactly as written (VS Code variables, tool references and links are frozen)`;
}
