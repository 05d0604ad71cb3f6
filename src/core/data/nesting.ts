/**
 * How deep a value read from a file may nest. Everything downstream of a dataset or spec — stable
 * ids, cache keys, templating, JSON Schema checks — walks values recursively; a line of a hundred
 * thousand `[` used to overflow the stack there and fail with "Maximum call stack size exceeded",
 * naming no file. Real data nests a handful of levels; the cap refuses only what no one writes.
 */
export const MAX_NESTING = 100;

/** How deep `value` nests (a scalar is 0, `[1]` is 1), counted without recursion; stops past `limit`. */
export function nestingDepth(value: unknown, limit = MAX_NESTING): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, here]);
  }
  return deepest;
}

/** The message for a value nested past MAX_NESTING (after its location). */
export function tooDeepMessage(): string {
  return `nests more than ${MAX_NESTING} levels of lists or objects deep; Ratchet reads up to ${MAX_NESTING}`;
}
