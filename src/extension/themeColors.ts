/**
 * The theme colours Ratchet contributes, as data: `npm run manifest` writes the manifest's
 * `contributes.colors` from this table (scripts/contributes.ts), so a theme or the user's
 * `workbench.colorCustomizations` can restyle them; the editor draws with their ids and the panel
 * (a webview: VS Code gives it every theme colour as a `--vscode-…` variable) with their variables.
 * No VS Code import.
 *
 * Every default is a colour, never another theme colour's name, so a unit test checks each one
 * against the default themes' backgrounds (test/unit/extension/themeColors.test.ts), by what it is
 * for (`contrast`):
 * - `graphic`: a mark the user must see (a chart point, an edge of a block): WCAG's ≥ 3:1 for
 *   graphics against the background;
 * - `shading`: a background behind text: the theme's text keeps ≥ 4.5:1 over it, and it stays
 *   visibly apart from the plain background (≥ 1.2:1), which a shading can reach while the text
 *   stays readable, and 3:1 cannot: the edge that marks where a shaded block starts is a `graphic`.
 */
export interface ColorSpec {
  id: string;
  description: string;
  contrast: 'graphic' | 'shading';
  defaults: { dark: string; light: string; highContrast: string; highContrastLight: string };
}

export const THEME_COLORS = {
  addedLineBackground: {
    id: 'ratchet.inlineChange.addedLineBackground',
    description: 'Background of the lines a pending Ratchet suggestion adds, drawn in place in the editor.',
    contrast: 'shading',
    defaults: { dark: '#23863650', light: '#2ea04333', highContrast: '#1b5e2090', highContrastLight: '#2ea04340' },
  },
  removedLineBackground: {
    id: 'ratchet.inlineChange.removedLineBackground',
    description: 'Background of the lines a pending Ratchet suggestion removes (also struck through).',
    contrast: 'shading',
    defaults: { dark: '#da36334d', light: '#ff000026', highContrast: '#8b000090', highContrastLight: '#ff000033' },
  },
  evolveBlockBackground: {
    id: 'ratchet.evolveBlockBackground',
    description: 'Background of the lines inside EVOLVE-BLOCK markers: the code a code search may rewrite.',
    contrast: 'shading',
    defaults: { dark: '#4fc1ff24', light: '#0066cc24', highContrast: '#4fc1ff33', highContrastLight: '#0066cc26' },
  },
  evolveBlockBorder: {
    id: 'ratchet.evolveBlockBorder',
    description: 'Left border of the lines inside EVOLVE-BLOCK markers: where the code a code search may rewrite starts and ends.',
    contrast: 'graphic',
    defaults: { dark: '#4fc1ff', light: '#0066cc', highContrast: '#4fc1ff', highContrastLight: '#0f4a85' },
  },
  frozenCodeBorder: {
    id: 'ratchet.frozenCodeBorder',
    description: 'Left border of the frozen lines of a program with EVOLVE-BLOCK markers: code a code search keeps as it is.',
    contrast: 'graphic',
    defaults: { dark: '#8b8b8b', light: '#767676', highContrast: '#a0a0a0', highContrastLight: '#767676' },
  },
} as const satisfies Record<string, ColorSpec>;

/**
 * The Programs view's island palette: island i is drawn in `ISLAND_COLORS[i mod 7]`, in every chart
 * (score over time, genealogy, throughput). No red: red marks an incorrect program. VS Code's own
 * `charts.*` colours were used before; on the dark themes some read as dark brown on the background.
 * One dot in each id: a webview gets `--vscode-` + the id with only its first dot made a dash.
 */
export const ISLAND_COLORS: readonly ColorSpec[] = (
  [
    ['#4daafc', '#005fb8', '#4fb3ff', '#0f4a85'],
    ['#f0a04b', '#a85400', '#ffa657', '#8f4700'],
    ['#5fc35f', '#2e7d32', '#7ee787', '#1e6b1e'],
    ['#c586c0', '#7b3fb5', '#d2a8ff', '#5c2d91'],
    ['#e5c07b', '#7f6400', '#ffd700', '#6b5700'],
    ['#29b8db', '#00788a', '#56d4dd', '#005f6b'],
    ['#d670d6', '#b0279e', '#ff7bd5', '#8b1d7a'],
  ] as const
).map(([dark, light, highContrast, highContrastLight], i) => ({
  id: `ratchet.island${i}`,
  description: `Points and lines of island ${i} (and every 7th island after it) in the Programs view's charts.`,
  contrast: 'graphic',
  defaults: { dark, light, highContrast, highContrastLight },
}));

/** A colour's CSS variable in the workbench: dots become dashes. */
export function cssVariable(id: string): string {
  return `--vscode-${id.replace(/\./g, '-')}`;
}
