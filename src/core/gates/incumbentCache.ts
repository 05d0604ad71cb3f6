/**
 * The per-item outcome cache of committed versions (GATES.md 4.3): `cache[v][i] = Y_v(x_i)`.
 *
 * Keyed by (version content hash, evaluation-config hash, item id) — the cache holds entries of one
 * evaluation config at a time, so lookups name the version and the item — and a cache hit is the same
 * measurement a fresh call would make under the same model, decoding, scorer and rubric. Any change
 * of the evaluation config invalidates everything (A3). On commit the candidate's outcomes measured
 * during its test are adopted; its other items are filled lazily. Each (version, item) keeps exactly
 * one canonical draw: `set` never overwrites, so hits and misses cannot change results.
 */
import { RatchetError } from '../errors';

export interface OutcomeCacheSnapshot {
  evalConfigHash: string;
  /** versionHash → itemId → outcome. */
  versions: Record<string, Record<string, number>>;
}

export class OutcomeCache {
  private readonly versions = new Map<string, Map<string, number>>();
  private configHash: string;
  /** Lookups answered from the cache / not, since construction: the cost accounting of 4.3. */
  hits = 0;
  misses = 0;

  constructor(evalConfigHash: string) {
    this.configHash = evalConfigHash;
  }

  get evalConfigHash(): string {
    return this.configHash;
  }

  /** Switch evaluation config; a different hash drops every entry (4.3). Returns whether it did. */
  setEvalConfig(evalConfigHash: string): boolean {
    if (evalConfigHash === this.configHash) return false;
    this.configHash = evalConfigHash;
    this.versions.clear();
    return true;
  }

  /** The cached outcome, counting a hit or a miss; undefined means "evaluate once, then `set`". */
  get(versionHash: string, itemId: string): number | undefined {
    const y = this.versions.get(versionHash)?.get(itemId);
    if (y === undefined) this.misses++;
    else this.hits++;
    return y;
  }

  /** Lookup without touching the hit/miss counters. */
  peek(versionHash: string, itemId: string): number | undefined {
    return this.versions.get(versionHash)?.get(itemId);
  }

  /** Store the canonical draw of a committed version on an item; an existing entry wins. */
  set(versionHash: string, itemId: string, outcome: number): void {
    checkOutcome(outcome);
    let items = this.versions.get(versionHash);
    if (!items) this.versions.set(versionHash, (items = new Map()));
    if (!items.has(itemId)) items.set(itemId, outcome);
  }

  /** On commit: the candidate's outcomes from its own test become its cache entries (4.3). */
  adopt(versionHash: string, outcomes: ReadonlyMap<string, number>): void {
    for (const [itemId, y] of outcomes) this.set(versionHash, itemId, y);
  }

  /** Items cached for a version. */
  size(versionHash: string): number {
    return this.versions.get(versionHash)?.size ?? 0;
  }

  /** Drop a version no longer needed (e.g. an old incumbent nobody will test against). */
  forget(versionHash: string): void {
    this.versions.delete(versionHash);
  }

  /** Plain data for the journal; restored with `OutcomeCache.fromSnapshot`. */
  snapshot(): OutcomeCacheSnapshot {
    const versions: Record<string, Record<string, number>> = {};
    for (const [v, items] of this.versions) versions[v] = Object.fromEntries(items);
    return { evalConfigHash: this.configHash, versions };
  }

  static fromSnapshot(s: OutcomeCacheSnapshot): OutcomeCache {
    const cache = new OutcomeCache(s.evalConfigHash);
    for (const [v, items] of Object.entries(s.versions)) {
      for (const [i, y] of Object.entries(items)) cache.set(v, i, y);
    }
    return cache;
  }
}

function checkOutcome(y: number): void {
  if (!(Number.isFinite(y) && y >= 0 && y <= 1)) {
    throw new RatchetError('internal', `A cached outcome must be a number in [0, 1], got ${y}.`);
  }
}
