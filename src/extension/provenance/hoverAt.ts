/**
 * What the blame hover says on one line: the line's origin (a line diff over the file's accepted
 * edits) in words. Only hovering needs it, so scripts/build.mjs bundles it apart (out/provenance.js)
 * and provenanceHover.ts imports it on the first hover, not at activation.
 */
import type { ProvenanceRecord } from '../../core/journal/provenance';
import { provenanceHoverMarkdown } from './hoverText';
import { lineOrigins } from './lineOrigin';

/** The hover's markdown for `line` of `text`, or undefined when no accepted edit added that line. */
export function hoverMarkdownAt(records: readonly ProvenanceRecord[], text: string, line: number, documentUri: string, now: number): string | undefined {
  const origin = lineOrigins(records, text)[line];
  return origin && provenanceHoverMarkdown(origin, documentUri, now);
}
