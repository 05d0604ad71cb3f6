/**
 * The Problems a program's EVOLVE-BLOCK markers deserve, from its text alone, so the editor can
 * show them as the user types: the pairing error `parseBlocks` would stop a search with (an END
 * without a START, a START never closed, a marker comment not closed on its line), a block nested
 * in another (allowed, but only the outer block is what a proposer may change), and a file that a
 * code spec names but that has no marker at all (the search would rewrite all of it).
 *
 * `parseBlocks` stops at the first pairing error; so does this: the next one shows once that is fixed.
 */
import { diagnostic, lineLocation } from '../data/diagnostics';
import type { Diagnostic } from '../data/diagnostics';
import { RatchetError } from '../errors';
import { lineOffsets, parseBlocks } from './blocks';
import type { Blocks } from './blocks';

export interface MarkerCheck {
  /** The blocks, when the markers pair up. */
  blocks?: Blocks;
  diagnostics: Diagnostic[];
}

/**
 * `hasCodeSpec`: a `kind: code` run spec names this file (its sidecar), so a file without markers
 * is worth a warning; without one, a file with no markers is simply not a code-search program.
 */
export function checkMarkers(path: string, text: string, hasCodeSpec: boolean): MarkerCheck {
  let blocks: Blocks;
  try {
    // Without a path, so the message starts `line N: ` and the Problems entry, already at line N, drops it.
    blocks = parseBlocks(text);
  } catch (err) {
    if (!RatchetError.is(err, 'badInput')) throw err;
    const line = typeof err.details.line === 'number' ? err.details.line : 1;
    return { diagnostics: [diagnostic(wholeLine(path, text, line), err.message.replace(/^line \d+: /, ''), { field: 'EVOLVE-BLOCK' })] };
  }
  const diagnostics: Diagnostic[] = [];
  if (blocks.wholeFile) {
    if (hasCodeSpec) {
      diagnostics.push(
        diagnostic(wholeLine(path, text, 1), 'This file has a code-search spec but no EVOLVE-BLOCK-START / EVOLVE-BLOCK-END lines, so a search may rewrite all of it; put the markers around the code to evolve.', {
          field: 'EVOLVE-BLOCK',
          severity: 'warning',
        }),
      );
    }
    return { blocks, diagnostics };
  }
  for (const inner of blocks.regions.filter((r) => r.depth > 0)) {
    const outer = blocks.regions.find((r) => r.depth === inner.depth - 1 && r.startLine < inner.startLine && r.endLine > inner.endLine)!;
    diagnostics.push(
      diagnostic(
        wholeLine(path, text, inner.startLine),
        `This block is nested inside the one at lines ${outer.startLine}–${outer.endLine}: a search may change all of the outer block, and keeps only these marker lines; remove them, or close the outer block first.`,
        { field: 'EVOLVE-BLOCK', severity: 'warning' },
      ),
    );
  }
  return { blocks, diagnostics };
}

function wholeLine(path: string, text: string, line: number) {
  const at = lineOffsets(text)[line - 1];
  const length = at ? text.slice(at.start, at.end).replace(/\r?\n$/, '').length : 0;
  return lineLocation(path, line, length);
}
