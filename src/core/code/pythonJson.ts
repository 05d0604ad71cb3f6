/**
 * JSON as Python writes it: json.dump's default (allow_nan=True) writes bare NaN, Infinity and
 * -Infinity, which JSON.parse refuses. An evaluator's result is read with them, so a reason can say
 * "combined_score is NaN" rather than "Unexpected token N".
 */
const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };
const MARK = '\u0000ratchet-nonfinite:';

/**
 * JSON.parse, plus the bare NaN / Infinity / -Infinity tokens Python's json.dump writes by default
 * (allow_nan=True). They become the numbers they name, so the caller can say what is wrong.
 */
export function parseJsonLenient(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    const marked = markNonFinite(text);
    if (marked === text) return { error: (err as Error).message };
    try {
      const value = JSON.parse(marked, (_key, v: unknown) => (typeof v === 'string' && v.startsWith(MARK) ? NON_FINITE[v.slice(MARK.length)] : v)) as unknown;
      return { value };
    } catch {
      return { error: (err as Error).message };
    }
  }
}

/** Replaces the non-finite tokens outside strings with marked strings. */
function markNonFinite(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const token = ['-Infinity', 'Infinity', 'NaN'].find((t) => text.startsWith(t, i));
    if (token !== undefined) {
      out += JSON.stringify(MARK + token);
      i += token.length - 1;
    } else out += c;
  }
  return out;
}
