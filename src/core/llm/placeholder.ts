/**
 * The format's slot for a value, echoed back instead of one (#25): `<your revised prompt>`,
 * `[the new rubric]`, `{grade}`, `...`, `…`. A block, a tagged value or a generated task that is only
 * this states nothing.
 */
// Words only between the brackets (no digits, quotes, commas or colons): `[1, 2]` and `{"a": 1}` are values.
const SLOT = String.raw`[^<>{}[\]\n"'\x60:,\d]*\p{L}[^<>{}[\]\n"'\x60:,\d]*`;
const PLACEHOLDER = new RegExp(String.raw`^(?:<${SLOT}>|\[${SLOT}\]|\{${SLOT}\}|\.{3}|…)$`, 'u');

export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text.trim());
}
