/**
 * Two guards on a proposed prompt before it costs a single evaluation: its length against the
 * spec's token budget, and text copied from dataset items into the prompt (an edit that pastes
 * examples scores well on those items and generalises badly).
 */

const WINDOW = 8;

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function shingles(ws: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + WINDOW <= ws.length; i++) out.add(ws.slice(i, i + WINDOW).join(' '));
  return out;
}

export interface CopiedText {
  itemId: string;
  excerpt: string;
}

/**
 * Items whose text shares a run of at least 8 consecutive words with the new prompt and not with
 * the parent (text the parent already had is not this edit's doing).
 */
export function copiedDatasetText(
  parentText: string,
  childText: string,
  items: readonly { id: string; text: string }[],
): CopiedText[] {
  const child = shingles(words(childText));
  const parent = shingles(words(parentText));
  const found: CopiedText[] = [];
  for (const item of items) {
    for (const s of shingles(words(item.text))) {
      if (child.has(s) && !parent.has(s)) {
        found.push({ itemId: item.id, excerpt: s });
        break;
      }
    }
  }
  return found;
}
