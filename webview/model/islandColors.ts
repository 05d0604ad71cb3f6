/**
 * The Programs view's island palette, defined once: island i is drawn in the VS Code colour at
 * i mod 7, so every section (score chart, genealogy, islands) agrees on which colour is which
 * island and the theme (light, dark, high contrast) decides the actual colours. No red: red marks
 * an incorrect program.
 */
export const ISLAND_COLOR_NAMES = ['charts-blue', 'charts-orange', 'charts-green', 'charts-purple', 'charts-yellow', 'terminal-ansiCyan', 'terminal-ansiMagenta'] as const;

/** The `--vscode-*` colour name (without the prefix) of island `island`: pass it to `themeColor` for a canvas, or use `var(--vscode-…)` in CSS. */
export function islandColorName(island: number): (typeof ISLAND_COLOR_NAMES)[number] {
  const n = ISLAND_COLOR_NAMES.length;
  return ISLAND_COLOR_NAMES[((island % n) + n) % n]!;
}
