// Every colour Ratchet contributes, checked for contrast on the default themes of each kind (light,
// dark, high contrast, high-contrast light) — WCAG 2.x relative luminance and contrast ratio, a
// translucent colour composited over the background first, as the editor and the canvas draw it.
import { describe, expect, it } from 'vitest';
import { ISLAND_COLORS, THEME_COLORS } from '../../../src/extension/themeColors';
import type { ColorSpec } from '../../../src/extension/themeColors';

type Kind = keyof ColorSpec['defaults'];
type Rgb = [number, number, number];

/** The editor background and text colour of VS Code's default themes (the panel, a webview, has the editor's background). */
const THEMES: Record<Kind, { name: string; background: string; foreground: string }[]> = {
  dark: [
    { name: 'Dark Modern', background: '#1f1f1f', foreground: '#cccccc' },
    { name: 'Dark+', background: '#1e1e1e', foreground: '#d4d4d4' },
  ],
  light: [
    { name: 'Light Modern', background: '#ffffff', foreground: '#3b3b3b' },
    { name: 'Light+', background: '#ffffff', foreground: '#000000' },
  ],
  highContrast: [{ name: 'Dark High Contrast', background: '#000000', foreground: '#ffffff' }],
  highContrastLight: [{ name: 'Light High Contrast', background: '#ffffff', foreground: '#292929' }],
};
const KINDS = Object.keys(THEMES) as Kind[];

/** WCAG's thresholds: graphics (1.4.11), text (1.4.3), and ours for a shading to be seen at all. */
const GRAPHIC = 3;
const TEXT = 4.5;
const VISIBLE_SHADING = 1.2;

function parse(hex: string): { rgb: Rgb; alpha: number } {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb[aa] colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  return { rgb: [(n >> 16) & 255, (n >> 8) & 255, n & 255], alpha: m[2] === undefined ? 1 : parseInt(m[2], 16) / 255 };
}

function over(color: string, background: string): Rgb {
  const { rgb, alpha } = parse(color);
  const bg = parse(background).rgb;
  return rgb.map((c, i) => alpha * c + (1 - alpha) * bg[i]!) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function ratio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** A colour's hue in degrees (0 is red). */
function hue(hex: string): number {
  const [r, g, b] = parse(hex).rgb.map((c) => c / 255) as Rgb;
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** Each colour of the table on each default theme: what its contrast must reach, and what it reaches. */
function shortfalls(spec: ColorSpec): string[] {
  const found: string[] = [];
  for (const kind of KINDS) {
    for (const theme of THEMES[kind]) {
      const drawn = over(spec.defaults[kind], theme.background);
      const bg = parse(theme.background).rgb;
      const checks: [string, number, number][] =
        spec.contrast === 'graphic'
          ? [['against the background', ratio(drawn, bg), GRAPHIC]]
          : [
              ['text over it', ratio(parse(theme.foreground).rgb, drawn), TEXT],
              ['against the background', ratio(drawn, bg), VISIBLE_SHADING],
            ];
      for (const [what, got, need] of checks) if (got < need) found.push(`${spec.id} on ${theme.name}: ${what} ${got.toFixed(2)}:1 < ${need}:1`);
    }
  }
  return found;
}

describe('the contributed theme colours', () => {
  const table = [...Object.values(THEME_COLORS), ...ISLAND_COLORS] as ColorSpec[];

  it('each has a default for every kind of theme, as a colour (never another theme colour)', () => {
    for (const spec of table) for (const kind of KINDS) expect(() => parse(spec.defaults[kind])).not.toThrow();
  });

  it('graphics reach 3:1 against the background and shadings keep text at 4.5:1 while staying visible, on light, dark and high-contrast themes', () => {
    expect(table.flatMap(shortfalls)).toEqual([]);
  });

  it('the contrast arithmetic agrees with WCAG on known pairs', () => {
    expect(ratio(parse('#000000').rgb, parse('#ffffff').rgb)).toBeCloseTo(21, 5);
    expect(ratio(parse('#767676').rgb, parse('#ffffff').rgb)).toBeCloseTo(4.54, 2);
    // A translucent colour is drawn over the background: half-white on black is mid-grey.
    expect(over('#ffffff80', '#000000').map(Math.round)).toEqual([128, 128, 128]);
  });

  it('gives the islands seven colours, none of them red (red marks an incorrect program), told apart from each other', () => {
    expect(ISLAND_COLORS).toHaveLength(7);
    // The panel (a webview) reads them as `--vscode-` + the id with its first dot made a dash: one dot only.
    for (const c of ISLAND_COLORS) expect(c.id.split('.')).toHaveLength(2);
    for (const kind of KINDS) {
      const colours = ISLAND_COLORS.map((c) => c.defaults[kind].toLowerCase());
      expect(new Set(colours).size).toBe(7);
      for (const c of colours) {
        // Red: a saturated colour whose hue is within 15° of red's 0°.
        expect(Math.min(hue(c), 360 - hue(c)), `${c} (${kind})`).toBeGreaterThan(15);
      }
    }
  });
});
