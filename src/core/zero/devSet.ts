/**
 * The dev set a zero-data run hands the user (issue #17): JSONL in the dataset loader's structured
 * shape (src/core/data/item.ts), so the file is an ordinary dataset the user reads, edits or
 * prunes and then evolves on like any other. Each item carries where it came from under
 * `metadata.zeroData` — round, difficulty, dispersion, the Challenger's model, the split — because
 * a reviewer deciding what to delete wants to see why an item was kept.
 *
 * No `id` is written: the loader derives one from the variables, so an item the user edits
 * becomes a new item (its old cached outcomes no longer apply), and one left alone keeps its id.
 * No `expected` either: nothing generated has a label, and inventing one would make a scorer
 * grade against the Challenger's guess.
 */

export interface GeneratedItemProvenance {
  round: number;
  difficulty: number;
  dispersion: number;
  challengerModel: string;
  /** `test`: the held-out generated split, reported apart from the dev split it was not chosen on. */
  split: 'dev' | 'test';
}

export interface GeneratedItemRecord {
  vars: Record<string, unknown>;
  metadata: { zeroData: GeneratedItemProvenance };
}

export function generatedItemRecord(vars: Readonly<Record<string, unknown>>, provenance: GeneratedItemProvenance): GeneratedItemRecord {
  return { vars: { ...vars }, metadata: { zeroData: { ...provenance } } };
}

/** One record per line, ending in a newline (an empty set is an empty file). */
export function devSetJsonl(records: readonly GeneratedItemRecord[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}
