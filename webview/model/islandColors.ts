/**
 * The Programs view's island palette, from the theme-colour table (src/extension/themeColors.ts):
 * island i is drawn in the colour at i mod 7, so every section (score chart, genealogy, islands)
 * agrees on which colour is which island, and its light, dark and high-contrast defaults are
 * checked for contrast there. A theme may restyle them.
 */
import { ISLAND_COLORS } from '../../src/extension/themeColors';

/** The `--vscode-*` colour name (without the prefix) of island `island`: pass it to `themeColor` for a canvas, or use `var(--vscode-…)` in CSS. */
export function islandColorName(island: number): string {
  const n = ISLAND_COLORS.length;
  return ISLAND_COLORS[((island % n) + n) % n]!.id.replace(/\./g, '-');
}
