/**
 * Two guards on a proposed prompt before it costs a single evaluation: its length against the
 * spec's token budget, and text copied from dataset items into the prompt (an edit that pastes
 * examples scores well on those items and generalises badly).
 */
import type { DataItem } from '../data/item';

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

type ItemTexts = readonly { id: string; text: string }[];

/** An item's text as the copy check reads it: its variables' values, joined. */
export function itemText(item: DataItem): { id: string; text: string } {
  return { id: item.id, text: Object.values(item.vars).map(String).join(' ') };
}

/**
 * Which items hold each 8-word run, built once per list of items: a run checks every proposal
 * against the same items, and re-reading all of them each time was most of a long run's own work.
 */
const indexes = new WeakMap<ItemTexts, Map<string, number[]>>();

function shingleIndex(items: ItemTexts): Map<string, number[]> {
  let index = indexes.get(items);
  if (!index) {
    index = new Map();
    items.forEach((item, i) => {
      for (const s of shingles(words(item.text))) {
        const holders = index!.get(s);
        if (!holders) index!.set(s, [i]);
        else if (holders[holders.length - 1] !== i) holders.push(i);
      }
    });
    indexes.set(items, index);
  }
  return index;
}

/**
 * Items whose text shares a run of at least 8 consecutive words with the new prompt and not with
 * the parent (text the parent already had is not this edit's doing), in item order, each with its
 * first such run. Pass the same array for the same items: its index is kept with it.
 */
export function copiedDatasetText(parentText: string, childText: string, items: ItemTexts): CopiedText[] {
  const parent = shingles(words(parentText));
  const fresh = new Set([...shingles(words(childText))].filter((s) => !parent.has(s)));
  if (fresh.size === 0) return [];
  const index = shingleIndex(items);
  const holders = new Set<number>();
  for (const s of fresh) for (const i of index.get(s) ?? []) holders.add(i);
  return [...holders]
    .sort((a, b) => a - b)
    .map((i) => {
      const item = items[i]!;
      return { itemId: item.id, excerpt: [...shingles(words(item.text))].find((s) => fresh.has(s))! };
    });
}
