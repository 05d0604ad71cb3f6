/**
 * The program database of gated code search: islands, an archive, parent selection, inspirations
 * and ring migration, after ShinkaEvolve 9912af1 `shinka/database/` (dbase.py, parents.py,
 * islands.py, inspirations.py) with one change of principle: **the gate decides**. A program
 * enters the archive, becomes its island's incumbent, and can become the best only through
 * `recordDecision(id, 'commit')`, which the run calls when its paired anytime-valid gate commits.
 * Recorded mean scores only *rank* programs for selection weights, archive eviction and the choice
 * among islands' incumbents; no score comparison ever promotes a program.
 *
 * Pure and deterministic given a `Random`: the state is plain JSON (`toJSON`/`fromJSON`), and the
 * same sequence of calls from the same state gives the same state and the same draws, so a run is
 * rebuilt from its journal by replaying its calls.
 */
import type { Random } from '../ports';
import { RatchetError } from '../errors';
import { ELO_INITIAL } from '../gates/elo';
import { POWER_LAW_ALPHA, WEIGHTED_LAMBDA, powerLawProbabilities, ratingProbabilities, weightedProbabilities } from './parents';
import { drawIndex } from '../random';
import type { MetricValue } from '../journal/payloadTypes';
import { chooseInspirations } from './inspirations';
import type { InspirationOptions } from './inspirations';

/**
 * How a program was made. `'migrant'` is a copy of a program from another island that the run
 * adds itself; it waits for the gate against its new island's incumbent like any child, since a
 * score earned elsewhere is no evidence here (ShinkaEvolve#119). `migrate()` moves records and
 * leaves their kind alone.
 */
export type ProgramKind = 'seed' | 'diff' | 'full' | 'cross' | 'migrant';

export interface ProgramRecord {
  id: string;
  parentId?: string;
  island: number;
  generation: number;
  /** novelty.ts `textHash(text)`: equal for texts that differ only in whitespace. */
  textHash: string;
  /** The evaluator's verdict; an incorrect program is kept but is never a parent or the best. */
  correct: boolean;
  /** Mean over the instances evaluated so far; required when correct. */
  score?: number;
  publicMetrics?: Record<string, MetricValue>;
  feedback?: string;
  /** A correct seed, or a child the gate committed. */
  committed: boolean;
  children: number;
  kind: ProgramKind;
}

/** What the run hands to `add`: the database keeps `committed` and `children`. */
export type NewProgram = Omit<ProgramRecord, 'committed' | 'children'>;

export type ArchivePolicy = 'fitness' | 'crowding';

export interface DatabaseConfig {
  /** Shinka `num_islands` = 2. */
  islands: number;
  /** Shinka `archive_size` = 40. */
  archiveSize: number;
  /** Shinka `archive_selection_strategy` = 'fitness'. */
  archivePolicy: ArchivePolicy;
  /** Shinka `migration_interval` = 10 generations. */
  migrationInterval: number;
  /** Shinka `migration_rate` = 0: migration is off unless a run asks for it. */
  migrationRate: number;
}

export const DEFAULT_DATABASE_CONFIG: Readonly<DatabaseConfig> = {
  islands: 2,
  archiveSize: 40,
  archivePolicy: 'fitness',
  migrationInterval: 10,
  migrationRate: 0,
};

export type ParentRule =
  /** Shinka's default: σ of the MAD-normalised score × 1/(1 + children). */
  | { rule: 'weighted'; lambda?: number }
  /** Rank best first, p ∝ rank^(−α). */
  | { rule: 'power-law'; alpha?: number }
  /** Hill climbing: always the island's incumbent. */
  | { rule: 'beam' }
  /** Softmax over Elo-scale Bradley–Terry ratings (gates/bradleyTerry.ts `fitBradleyTerry(…).elo`). */
  | { rule: 'bt'; rating: (id: string) => number | undefined; tau?: number };

export interface Migration {
  id: string;
  from: number;
  to: number;
}

export interface DatabaseState {
  version: 1;
  config: DatabaseConfig;
  /** In insertion order, which breaks every tie ("earliest first"). */
  programs: ProgramRecord[];
  /** Per island, its incumbent: the last program committed there (or its correct seed). */
  incumbents: (string | null)[];
  /** Archive members in insertion order. */
  archive: string[];
  /** Correct children still waiting for the gate. */
  pending: string[];
}

export interface DatabaseDeps {
  /** Similarity of two programs in [0, 1] (novelty.ts); crowding needs it, fitness does not. */
  similarity?: (a: string, b: string) => number;
}

export class ProgramDatabase {
  private readonly config: DatabaseConfig;
  private readonly records: ProgramRecord[] = [];
  private readonly index = new Map<string, number>();
  private readonly incumbents: (string | null)[];
  private archive: string[] = [];
  private readonly pending = new Set<string>();

  constructor(
    config: Partial<DatabaseConfig> = {},
    private readonly deps: DatabaseDeps = {},
  ) {
    this.config = { ...DEFAULT_DATABASE_CONFIG, ...config };
    const c = this.config;
    if (!(Number.isInteger(c.islands) && c.islands >= 1)) throw new RatchetError('badInput', `islands must be a positive integer, got ${c.islands}.`);
    if (!(Number.isInteger(c.archiveSize) && c.archiveSize >= 1)) throw new RatchetError('badInput', `archiveSize must be a positive integer, got ${c.archiveSize}.`);
    if (!(c.migrationRate >= 0 && c.migrationRate <= 1)) throw new RatchetError('badInput', `migrationRate must lie in [0, 1], got ${c.migrationRate}.`);
    if (!(Number.isInteger(c.migrationInterval) && c.migrationInterval >= 1)) throw new RatchetError('badInput', `migrationInterval must be a positive integer, got ${c.migrationInterval}.`);
    this.incumbents = new Array<string | null>(c.islands).fill(null);
  }

  /**
   * Records a new program. A correct seed is committed at once (there is nothing to gate it
   * against) and becomes its island's incumbent; a correct child waits for `recordDecision`; an
   * incorrect program is kept, with its output, and never waits for a gate.
   */
  add(program: NewProgram): Readonly<ProgramRecord> {
    if (this.index.has(program.id)) throw new RatchetError('internal', `Program ${program.id} is already in the database.`);
    if (!(Number.isInteger(program.island) && program.island >= 0 && program.island < this.config.islands)) {
      throw new RatchetError('internal', `Program ${program.id} names island ${program.island}; the run has ${this.config.islands}.`);
    }
    if (program.correct && !Number.isFinite(program.score)) throw new RatchetError('internal', `Correct program ${program.id} needs a finite score.`);
    const parent = program.parentId === undefined ? undefined : this.find(program.parentId);
    if (program.parentId !== undefined && !parent) throw new RatchetError('internal', `Program ${program.id} names an unknown parent ${program.parentId}.`);
    const record = cloneRecord({ ...program, committed: false, children: 0 });
    this.index.set(record.id, this.records.length);
    this.records.push(record);
    if (parent) parent.children++;
    if (record.correct) {
      if (record.kind === 'seed') this.commit(record);
      else this.pending.add(record.id);
    }
    return record;
  }

  /**
   * The gate's verdict on a correct child. A commit makes it its island's incumbent and offers it
   * to the archive; a rejection leaves it on the island (novelty comparisons, history) but out of
   * every selection pool. The run gates a child against its island's incumbent, which is why a
   * commit replaces that incumbent — unless another child replaced it while this one was tested
   * (`replacesIncumbent: false`): then the child beat the old incumbent, not the new one, and only
   * joins the archive.
   */
  recordDecision(id: string, decision: 'commit' | 'reject', o: { replacesIncumbent?: boolean } = {}): void {
    const record = this.require(id);
    if (!this.pending.delete(id)) throw new RatchetError('internal', `Program ${id} has no gate decision pending (decided already, a seed, or incorrect).`);
    if (decision === 'commit') this.commit(record, o.replacesIncumbent ?? true);
  }

  /** The mean moves as the gate evaluates a program on more instances. */
  setScore(id: string, score: number): void {
    const record = this.require(id);
    if (!record.correct) throw new RatchetError('internal', `Program ${id} is incorrect; it has no score to update.`);
    if (!Number.isFinite(score)) throw new RatchetError('internal', `Score of ${id} must be finite, got ${score}.`);
    record.score = score;
  }

  get(id: string): Readonly<ProgramRecord> | undefined {
    return this.find(id);
  }

  /** Programs in insertion order, all or one island's. */
  programs(island?: number): readonly Readonly<ProgramRecord>[] {
    return island === undefined ? this.records : this.records.filter((p) => p.island === island);
  }

  /** The first program whose text is the same after whitespace normalisation: never evaluate it again. */
  findByTextHash(textHash: string): Readonly<ProgramRecord> | undefined {
    return this.records.find((p) => p.textHash === textHash);
  }

  incumbent(island: number): Readonly<ProgramRecord> | undefined {
    const id = this.incumbents[island];
    return id ? this.get(id) : undefined;
  }

  archiveMembers(): readonly Readonly<ProgramRecord>[] {
    return this.archive.map((id) => this.require(id));
  }

  /**
   * The best program: the highest recorded mean among the islands' incumbents, ties to the
   * earliest. Only incumbents qualify — a program its island has moved past lost to a descendant
   * through the gate, even where its own (noisier, shorter) mean happens to be higher.
   */
  best(): Readonly<ProgramRecord> | undefined {
    const heads = this.incumbents.flatMap((id) => (id ? [this.require(id)] : []));
    return heads.sort((a, b) => this.compare(a, b))[0];
  }

  /** Fix mode (Shinka `sample_parent_with_fix_mode`): the island has no correct committed program. */
  islandNeedsFix(island: number): boolean {
    return this.incumbents[island] === null;
  }

  /** A uniformly drawn incorrect program of the island to repair in fix mode; undefined if none. */
  fixCandidate(island: number, random: Random): Readonly<ProgramRecord> | undefined {
    const broken = this.programs(island).filter((p) => !p.correct);
    return broken.length === 0 ? undefined : broken[random.int(broken.length)];
  }

  /**
   * Who may be a parent or an inspiration on an island: its correct archive members plus its
   * incumbent (which the archive may have evicted, but which stays the hill being climbed).
   * Shinka's pool is the island's correct archive members; ours admits only gated programs.
   */
  pool(island: number): Readonly<ProgramRecord>[] {
    const inc = this.incumbents[island];
    const archived = new Set(this.archive);
    return this.records.filter((p) => p.island === island && p.correct && (p.id === inc || archived.has(p.id)));
  }

  /** Selection probabilities of the island's pool under a rule, in pool order. */
  parentProbabilities(island: number, rule: ParentRule): { program: Readonly<ProgramRecord>; p: number }[] {
    const pool = this.pool(island);
    if (pool.length === 0) throw new RatchetError('internal', `Island ${island} has no correct committed program to select: use fix mode.`);
    switch (rule.rule) {
      case 'weighted': {
        const p = weightedProbabilities(
          pool.map(scoreOf),
          pool.map((x) => x.children),
          rule.lambda ?? WEIGHTED_LAMBDA,
        );
        return pool.map((program, i) => ({ program, p: p[i]! }));
      }
      case 'power-law': {
        const ranked = [...pool].sort((a, b) => this.compare(a, b));
        const p = powerLawProbabilities(ranked.length, rule.alpha ?? POWER_LAW_ALPHA);
        return ranked.map((program, i) => ({ program, p: p[i]! }));
      }
      case 'beam': {
        const inc = this.incumbents[island];
        return pool.map((program) => ({ program, p: program.id === inc ? 1 : 0 }));
      }
      case 'bt': {
        const p = ratingProbabilities(
          pool.map((x) => rule.rating(x.id) ?? ELO_INITIAL),
          rule.tau,
        );
        return pool.map((program, i) => ({ program, p: p[i]! }));
      }
    }
  }

  /** One parent for the island, drawn with `parentProbabilities` (one uniform per draw). */
  selectParent(island: number, random: Random, rule: ParentRule = { rule: 'weighted' }): Readonly<ProgramRecord> {
    const probs = this.parentProbabilities(island, rule);
    return probs[
      drawIndex(
        probs.map((x) => x.p),
        random,
      )
    ]!.program;
  }

  /** Programs shown to the proposer with their public metrics, worst first (inspirations.ts): from the island's pool, never the excluded parent. */
  inspirations(island: number, random: Random, opts: InspirationOptions & { exclude?: string } = {}): Readonly<ProgramRecord>[] {
    const ranked = this.pool(island)
      .filter((p) => p.id !== opts.exclude)
      .sort((a, b) => this.compare(a, b));
    return chooseInspirations(ranked, this.best()?.id, random, opts);
  }

  /**
   * Ring migration (Shinka islands.py `ElitistMigrationStrategy`, with a ring where Shinka draws a
   * random other island): at every `migrationInterval`-th generation, each island sends
   * max(1, ⌊n·rate⌋) of its n committed correct programs, drawn uniformly, to the next island.
   * Never its incumbent (island elitism) nor a generation-0 program, as in Shinka; only committed
   * programs, since only they can be parents or inspirations where they land. Migrants are chosen
   * from every island before any moves, so none travels twice in one round.
   */
  migrate(generation: number, random: Random): Migration[] {
    const { islands, migrationInterval, migrationRate } = this.config;
    if (islands < 2 || migrationRate <= 0 || generation <= 0 || generation % migrationInterval !== 0) return [];
    const moves: Migration[] = [];
    for (let from = 0; from < islands; from++) {
      const population = this.records.filter((p) => p.island === from && p.committed);
      if (population.length <= 1) continue;
      const eligible = population.filter((p) => p.generation > 0 && p.id !== this.incumbents[from]);
      const count = Math.min(Math.max(1, Math.floor(population.length * migrationRate)), eligible.length);
      for (let k = 0; k < count; k++) {
        const [p] = eligible.splice(random.int(eligible.length), 1);
        moves.push({ id: p!.id, from, to: (from + 1) % islands });
      }
    }
    for (const m of moves) this.require(m.id).island = m.to;
    return moves;
  }

  toJSON(): DatabaseState {
    return {
      version: 1,
      config: { ...this.config },
      programs: this.records.map(cloneRecord),
      incumbents: [...this.incumbents],
      archive: [...this.archive],
      pending: [...this.pending],
    };
  }

  static fromJSON(state: DatabaseState, deps: DatabaseDeps = {}): ProgramDatabase {
    if (state.version !== 1) throw new RatchetError('journalCorrupt', `Unknown program database version ${String(state.version)}.`);
    const db = new ProgramDatabase(state.config, deps);
    for (const r of state.programs) {
      db.index.set(r.id, db.records.length);
      db.records.push(cloneRecord(r));
    }
    state.incumbents.forEach((id, i) => (db.incumbents[i] = id));
    db.archive = [...state.archive];
    for (const id of state.pending) db.pending.add(id);
    return db;
  }

  private commit(record: ProgramRecord, replacesIncumbent = true): void {
    record.committed = true;
    if (replacesIncumbent) this.incumbents[record.island] = record.id;
    this.offerToArchive(record);
  }

  /**
   * Shinka dbase.py `_update_archive`: insert while there is room; when full, `fitness` replaces
   * the lowest-ranked member and `crowding` the member most similar to the newcomer — each only
   * if the newcomer ranks above it. Crowding without a similarity function falls back to fitness,
   * as Shinka does for a program without an embedding.
   */
  private offerToArchive(record: ProgramRecord): void {
    if (this.archive.length < this.config.archiveSize) {
      this.archive.push(record.id);
      return;
    }
    const members = this.archiveMembers();
    const similarity = this.deps.similarity;
    let victim: Readonly<ProgramRecord>;
    if (this.config.archivePolicy === 'crowding' && similarity) {
      victim = members.reduce((a, b) => (similarity(record.id, b.id) > similarity(record.id, a.id) ? b : a));
    } else {
      victim = [...members].sort((a, b) => this.compare(b, a))[0]!;
    }
    if (this.compare(record, victim) < 0) this.archive[this.archive.indexOf(victim.id)] = record.id;
  }

  /** Ranking for selection only: higher recorded mean first, then earlier insertion. */
  private compare(a: Readonly<ProgramRecord>, b: Readonly<ProgramRecord>): number {
    return scoreOf(b) - scoreOf(a) || this.index.get(a.id)! - this.index.get(b.id)!;
  }

  private find(id: string): ProgramRecord | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.records[i];
  }

  private require(id: string): ProgramRecord {
    const r = this.find(id);
    if (!r) throw new RatchetError('internal', `Unknown program ${id}.`);
    return r;
  }
}

/** Only correct programs are ranked, and they always carry a finite score (checked in `add`). */
function scoreOf(p: Readonly<ProgramRecord>): number {
  return p.score ?? -Infinity;
}

function cloneRecord(r: ProgramRecord): ProgramRecord {
  return { ...r, ...(r.publicMetrics ? { publicMetrics: { ...r.publicMetrics } } : {}) };
}
