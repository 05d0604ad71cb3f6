/**
 * Which lines of a program a code search may rewrite and which it keeps, as the editor draws them
 * (evolveBlocks.ts). No VS Code import, so it is unit-tested.
 */
import type { Blocks } from '../../core/code/blocks';
import { THEME_COLORS } from '../themeColors';

/** From the theme-colour table, which `npm run manifest` contributes with light, dark and high-contrast defaults. */
export const EVOLVE_BLOCK_COLORS = {
  background: THEME_COLORS.evolveBlockBackground.id,
  border: THEME_COLORS.evolveBlockBorder.id,
  frozenBorder: THEME_COLORS.frozenCodeBorder.id,
} as const;

/** 1-based inclusive line ranges: the mutable lines, and the frozen ones (marker lines included). */
export function blockLines(blocks: Blocks, lineCount: number): { mutable: [number, number][]; frozen: [number, number][] } {
  const mutable = blocks.spans.filter((s) => s.lastLine >= s.firstLine).map((s): [number, number] => [s.firstLine, s.lastLine]);
  const frozen: [number, number][] = [];
  let next = 1;
  for (const [first, last] of mutable) {
    if (first > next) frozen.push([next, first - 1]);
    next = last + 1;
  }
  if (next <= lineCount) frozen.push([next, lineCount]);
  return { mutable, frozen };
}
