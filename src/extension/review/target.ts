/**
 * Which suggestion a review command is about. From a link in the drawn change (or a code lens) it
 * gets `[uri, runId, candidateId]`; from the diff editor's title bar, the `ratchet-suggestion:` document it shows; from the palette,
 * nothing, so the active editor's pending suggestion is meant. Accept All / Reject All get
 * `[uri, runId]` and mean every pending suggestion of that run. Pure; unit-tested.
 */
import type { SuggestionBook } from './decide';

export const SUGGESTION_SCHEME = 'ratchet-suggestion';

export interface SuggestionTarget {
  uri: string;
  runId: string;
  candidateId: string;
}

/** `/<runId>/<candidateId>/<file name>`: the file name keeps the language (and icon) of the original. */
export function suggestionPath(runId: string, candidateId: string, fileName: string): string {
  return `/${encodeURIComponent(runId)}/${encodeURIComponent(candidateId)}/${encodeURIComponent(fileName)}`;
}

export function parseSuggestionPath(path: string): { runId: string; candidateId: string } | undefined {
  const [, runId, candidateId] = path.split('/');
  if (!runId || !candidateId) return undefined;
  return { runId: decodeURIComponent(runId), candidateId: decodeURIComponent(candidateId) };
}

interface UriLike {
  scheme: string;
  path: string;
  toString(): string;
}

const isUriLike = (x: unknown): x is UriLike => typeof x === 'object' && x !== null && typeof (x as UriLike).scheme === 'string' && typeof (x as UriLike).path === 'string';

export function suggestionTarget(args: readonly unknown[], activeUri: string | undefined, book: SuggestionBook): SuggestionTarget | undefined {
  const [first, runId, candidateId] = args;
  if (typeof first === 'string' && typeof runId === 'string' && typeof candidateId === 'string') return { uri: first, runId, candidateId };
  if (isUriLike(first) && first.scheme === SUGGESTION_SCHEME) {
    const ref = parseSuggestionPath(first.path);
    const s = ref && book.get(ref.runId, ref.candidateId);
    return s ? { uri: s.uri, runId: s.runId, candidateId: s.candidateId } : undefined;
  }
  const uri = isUriLike(first) ? first.toString() : typeof first === 'string' ? first : activeUri;
  const s = uri === undefined ? undefined : book.current(uri);
  return s ? { uri: s.uri, runId: s.runId, candidateId: s.candidateId } : undefined;
}

/** Accept All / Reject All: the run of `[uri, runId]`, or of the active editor's drawn suggestion; its pending suggestions, oldest first. */
export function runTarget(args: readonly unknown[], activeUri: string | undefined, book: SuggestionBook): SuggestionTarget[] {
  const [first, second] = args;
  const runId = typeof first === 'string' && typeof second === 'string' ? second : activeUri === undefined ? undefined : book.current(activeUri)?.runId;
  if (runId === undefined) return [];
  return book
    .all()
    .filter((s) => s.runId === runId && s.status === 'pending')
    .map((s) => ({ uri: s.uri, runId: s.runId, candidateId: s.candidateId }));
}
