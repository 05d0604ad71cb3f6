/**
 * The theme colours Ratchet contributes, as data: `npm run manifest` writes the manifest's
 * `contributes.colors` from this table (scripts/contributes.ts), so a theme or the user's
 * `workbench.colorCustomizations` can restyle them, and the inline review draws with their ids.
 * A default may name another theme colour; the high-contrast ones are opaque enough to read on
 * black and white. No VS Code import.
 */
export interface ColorSpec {
  id: string;
  description: string;
  defaults: { dark: string; light: string; highContrast: string; highContrastLight: string };
}

export const THEME_COLORS = {
  addedLineBackground: {
    id: 'ratchet.inlineChange.addedLineBackground',
    description: 'Background of the lines a pending Ratchet suggestion adds, drawn in place in the editor.',
    defaults: { dark: '#23863650', light: '#2ea04333', highContrast: '#1b5e2090', highContrastLight: '#2ea04340' },
  },
  removedLineBackground: {
    id: 'ratchet.inlineChange.removedLineBackground',
    description: 'Background of the lines a pending Ratchet suggestion removes (also struck through).',
    defaults: { dark: '#da363340', light: '#ff000026', highContrast: '#8b000090', highContrastLight: '#ff000033' },
  },
  evolveBlockBackground: {
    id: 'ratchet.evolveBlockBackground',
    description: 'Background of the lines inside EVOLVE-BLOCK markers: the code a code search may rewrite.',
    defaults: { dark: '#4fc1ff12', light: '#0066cc0d', highContrast: '#4fc1ff1f', highContrastLight: '#0066cc1a' },
  },
  frozenCodeBorder: {
    id: 'ratchet.frozenCodeBorder',
    description: 'Left border of the frozen lines of a program with EVOLVE-BLOCK markers: code a code search keeps as it is.',
    defaults: { dark: '#80808099', light: '#80808099', highContrast: 'contrastBorder', highContrastLight: 'contrastBorder' },
  },
} as const satisfies Record<string, ColorSpec>;

/** A colour's CSS variable in the workbench: dots become dashes. */
export function cssVariable(id: string): string {
  return `--vscode-${id.replace(/\./g, '-')}`;
}
