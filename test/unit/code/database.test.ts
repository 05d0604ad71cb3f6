// The program database of code search: the gate decides, Shinka's selection rules, archive,
// inspirations, ring migration, fix mode, and replay from JSON.
import { describe, expect, it } from 'vitest';
import { ProgramDatabase } from '../../../src/core/code/database';
import type { DatabaseConfig, NewProgram, ParentRule, ProgramRecord } from '../../../src/core/code/database';
import { median, powerLawProbabilities, weightedProbabilities } from '../../../src/core/code/parents';
import { drawIndex } from '../../../src/core/random';
import { SeededRandom } from '../../../src/core/random';

function prog(id: string, over: Partial<NewProgram> = {}): NewProgram {
  return { id, island: 0, generation: 1, textHash: `h-${id}`, correct: true, score: 0, kind: 'diff', ...over };
}

/** Seed plus children committed one after another; returns the database. */
function chain(db: ProgramDatabase, island: number, scores: number[], prefix = `i${island}`): void {
  db.add(prog(`${prefix}-0`, { island, generation: 0, kind: 'seed', score: scores[0] }));
  for (let k = 1; k < scores.length; k++) {
    db.add(prog(`${prefix}-${k}`, { island, generation: k, parentId: `${prefix}-${k - 1}`, score: scores[k] }));
    db.recordDecision(`${prefix}-${k}`, 'commit');
  }
}

const sigma = (x: number): number => 1 / (1 + Math.exp(-x));

/** N draws; every observed share within 4σ of its binomial expectation. */
function expectFrequencies(db: ProgramDatabase, island: number, rule: ParentRule, expected: Record<string, number>, n = 20_000, seed = 7): void {
  const rng = new SeededRandom(seed);
  const counts: Record<string, number> = {};
  for (let k = 0; k < n; k++) {
    const id = db.selectParent(island, rng, rule).id;
    counts[id] = (counts[id] ?? 0) + 1;
  }
  for (const [id, p] of Object.entries(expected)) {
    const band = 4 * Math.sqrt(n * p * (1 - p));
    expect(Math.abs((counts[id] ?? 0) - n * p), `${id}: ${counts[id] ?? 0} of ${n}, expected ${n * p}`).toBeLessThanOrEqual(band + 1e-9);
  }
  for (const id of Object.keys(counts)) expect(expected[id], `drew ${id}, which has no probability`).toBeGreaterThan(0);
}

describe('selection maths (Shinka parents.py)', () => {
  it('median averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5, 1, 3])).toBe(3);
  });

  it('weighted: σ(λ(α−median)/MAD)/(1+children), normalised', () => {
    // median 2.5, |deviations| 1.5 .5 .5 1.5 → MAD 1
    const w = [sigma(-15), sigma(-5), sigma(5) / 2, sigma(15)];
    const total = w.reduce((a, b) => a + b, 0);
    const p = weightedProbabilities([1, 2, 3, 4], [0, 0, 1, 0], 10);
    p.forEach((x, i) => expect(x).toBeCloseTo(w[i]! / total, 12));
  });

  it('weighted: equal scores give σ(0) to all, so only children count; the MAD floor avoids 0/0', () => {
    expect(weightedProbabilities([3, 3, 3], [0, 1, 3], 10)).toEqual([1 / 1.75, 0.5 / 1.75, 0.25 / 1.75]);
  });

  it('power law: p ∝ rank^−α; α = 0 is uniform', () => {
    const h = 1 + 1 / 2 + 1 / 3;
    expect(powerLawProbabilities(3, 1)).toEqual([1 / h, 1 / 2 / h, 1 / 3 / h]);
    expect(powerLawProbabilities(4, 0)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('drawIndex takes one uniform by inverse CDF', () => {
    const rng = { next: () => 0.5 };
    expect(drawIndex([0.2, 0.2, 0.6], rng)).toBe(2);
    expect(drawIndex([0.6, 0.4], rng)).toBe(0);
  });
});

describe('parent selection frequencies match the rules (seeded, 4σ binomial bands)', () => {
  /** Island 0: seed 1.0 → a 2.0 → b 3.0 → c 2.5 (incumbent), with children 1, 1, 1, 0. */
  function island(): ProgramDatabase {
    const db = new ProgramDatabase();
    db.add(prog('s', { generation: 0, kind: 'seed', score: 1 }));
    db.add(prog('a', { parentId: 's', score: 2 }));
    db.recordDecision('a', 'commit');
    db.add(prog('b', { parentId: 'a', score: 3 }));
    db.recordDecision('b', 'commit');
    db.add(prog('c', { parentId: 'b', score: 2.5 }));
    db.recordDecision('c', 'commit');
    // the gate's losers and broken programs never enter a pool, whatever they scored
    db.add(prog('rejected', { parentId: 'c', score: 100 }));
    db.recordDecision('rejected', 'reject');
    db.add(prog('pending', { parentId: 'c', score: 100 }));
    db.add(prog('broken', { parentId: 'c', correct: false, score: 1000 }));
    return db;
  }

  it('weighted', () => {
    const db = island();
    expect(db.pool(0).map((p) => p.id)).toEqual(['s', 'a', 'b', 'c']);
    // scores 1 2 3 2.5 → median 2.25, |dev| 1.25 .25 .75 .25 → MAD .5; children 1 1 1 3 (c has three)
    const w = { s: sigma(-25) / 2, a: sigma(-5) / 2, b: sigma(15) / 2, c: sigma(5) / 4 };
    const total = Object.values(w).reduce((x, y) => x + y, 0);
    const expected = Object.fromEntries(Object.entries(w).map(([k, v]) => [k, v / total]));
    expect(Object.fromEntries(db.parentProbabilities(0, { rule: 'weighted' }).map((x) => [x.program.id, x.p]))).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, expect.closeTo(v, 12)])));
    expectFrequencies(db, 0, { rule: 'weighted' }, expected);
  });

  it('power law ranks by recorded mean: b, c, a, s', () => {
    const h = 1 + 1 / 2 + 1 / 3 + 1 / 4;
    expectFrequencies(island(), 0, { rule: 'power-law' }, { b: 1 / h, c: 1 / 2 / h, a: 1 / 3 / h, s: 1 / 4 / h });
  });

  it('beam climbs the incumbent, not the highest mean', () => {
    expectFrequencies(island(), 0, { rule: 'beam' }, { c: 1 }, 500);
  });

  it('bt: p ∝ 10^{R/400}; an unrated program counts as 1500', () => {
    const ratings: Record<string, number> = { s: 1400, a: 1500, b: 1600 };
    const strength = { s: 10 ** (1400 / 400), a: 10 ** (1500 / 400), b: 10 ** (1600 / 400), c: 10 ** (1500 / 400) };
    const total = Object.values(strength).reduce((x, y) => x + y, 0);
    const expected = Object.fromEntries(Object.entries(strength).map(([k, v]) => [k, v / total]));
    expectFrequencies(island(), 0, { rule: 'bt', rating: (id) => ratings[id] }, expected);
  });

  it('incorrect, rejected and pending programs are never drawn, under any rule', () => {
    const db = island();
    const rng = new SeededRandom(3);
    const rules: ParentRule[] = [{ rule: 'weighted' }, { rule: 'power-law', alpha: 0 }, { rule: 'beam' }, { rule: 'bt', rating: () => 1500 }];
    for (const rule of rules) for (let k = 0; k < 500; k++) expect(['s', 'a', 'b', 'c']).toContain(db.selectParent(0, rng, rule).id);
  });
});

describe('the gate decides', () => {
  it('a pending child with a higher mean is neither incumbent nor best; a commit makes it both', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1]);
    db.add(prog('child', { parentId: 'i0-0', score: 5 }));
    expect(db.best()?.id).toBe('i0-0');
    expect(db.incumbent(0)?.id).toBe('i0-0');
    db.recordDecision('child', 'commit');
    expect(db.best()?.id).toBe('child');
    expect(db.get('child')).toMatchObject({ committed: true, children: 0 });
    expect(db.get('i0-0')?.children).toBe(1);
  });

  it('a committed child whose recorded mean is lower still becomes incumbent and best: no `>` overrules the gate', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [3, 2]);
    expect(db.best()?.id).toBe('i0-1');
  });

  it('a rejected child stays on its island but is never a parent', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1]);
    db.add(prog('r', { parentId: 'i0-0', score: 9 }));
    db.recordDecision('r', 'reject');
    expect(db.programs(0).map((p) => p.id)).toEqual(['i0-0', 'r']);
    expect(db.pool(0).map((p) => p.id)).toEqual(['i0-0']);
    expect(db.get('r')?.committed).toBe(false);
  });

  it('incorrect programs are never committed, never best, and need no decision', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1]);
    db.add(prog('bad', { parentId: 'i0-0', correct: false, score: 99, feedback: 'IndexError' }));
    expect(() => db.recordDecision('bad', 'commit')).toThrow(/no gate decision pending/);
    expect(db.best()?.id).toBe('i0-0');
    expect(db.get('bad')).toMatchObject({ correct: false, feedback: 'IndexError', committed: false });
  });

  it('a decision is taken once; ids are unique; a correct program needs a finite score', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1, 2]);
    expect(() => db.recordDecision('i0-1', 'reject')).toThrow(/no gate decision pending/);
    expect(() => db.add(prog('i0-1'))).toThrow(/already/);
    expect(() => db.add(prog('x', { score: NaN }))).toThrow(/finite score/);
    expect(() => db.add(prog('y', { island: 2 }))).toThrow(/island 2/);
    expect(() => db.add(prog('z', { parentId: 'nope' }))).toThrow(/unknown parent/);
  });

  it('best() is the highest-mean incumbent across islands, ties to the earliest', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1, 4]);
    chain(db, 1, [2, 4]);
    expect(db.best()?.id).toBe('i0-1');
    db.add(prog('i1-2', { island: 1, parentId: 'i1-1', score: 4.5 }));
    db.recordDecision('i1-2', 'commit');
    expect(db.best()?.id).toBe('i1-2');
  });

  it('setScore moves a mean as more instances are evaluated', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1]);
    chain(db, 1, [2]);
    db.setScore('i0-0', 3);
    expect(db.best()?.id).toBe('i0-0');
    expect(() => db.setScore('i0-0', Infinity)).toThrow(/finite/);
  });
});

describe('fix mode', () => {
  it('an island with no correct committed program needs a fix; its broken programs are the candidates', () => {
    const db = new ProgramDatabase();
    db.add(prog('seed', { generation: 0, kind: 'seed', correct: false, score: undefined, feedback: 'SyntaxError' }));
    db.add(prog('b2', { parentId: 'seed', correct: false, score: undefined }));
    expect(db.islandNeedsFix(0)).toBe(true);
    expect(() => db.selectParent(0, new SeededRandom(1))).toThrow(/fix mode/);
    const rng = new SeededRandom(1);
    const seen = new Set(Array.from({ length: 200 }, () => db.fixCandidate(0, rng)?.id));
    expect(seen).toEqual(new Set(['seed', 'b2']));
    expect(db.fixCandidate(1, rng)).toBeUndefined();
    db.add(prog('fixed', { parentId: 'b2', score: 1 }));
    db.recordDecision('fixed', 'commit');
    expect(db.islandNeedsFix(0)).toBe(false);
    expect(db.best()?.id).toBe('fixed');
  });
});

describe('archive (Shinka dbase.py _update_archive)', () => {
  function commitScores(db: ProgramDatabase, scores: number[]): void {
    chain(db, 0, scores);
  }

  it('fitness: when full, the lowest-ranked member is replaced only by a newcomer that ranks above it', () => {
    const db = new ProgramDatabase({ archiveSize: 3 });
    commitScores(db, [5, 1, 3]);
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'i0-1', 'i0-2']);
    db.add(prog('up', { parentId: 'i0-2', score: 4 }));
    db.recordDecision('up', 'commit');
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'up', 'i0-2']);
    db.add(prog('low', { parentId: 'up', score: 2 }));
    db.recordDecision('low', 'commit');
    // below every member: not archived, yet still the incumbent and so still in the pool
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'up', 'i0-2']);
    expect(db.incumbent(0)?.id).toBe('low');
    expect(db.pool(0).map((p) => p.id)).toEqual(['i0-0', 'i0-2', 'up', 'low']);
  });

  it('fitness: a tie keeps the earlier member', () => {
    const db = new ProgramDatabase({ archiveSize: 2 });
    commitScores(db, [1, 2, 1]);
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'i0-1']);
  });

  it('crowding: the most similar member is replaced, if the newcomer ranks above it', () => {
    // a made-up similarity: the newcomers are nearest to i0-1, then (once archived) to 'near'
    const sim: Record<string, number> = { 'i0-0': 0.1, 'i0-1': 0.9, 'i0-2': 0.5 };
    const similarity = (a: string, b: string): number => (a === 'near' || a === 'nearLow' ? (sim[b] ?? 0) : 0);
    const db = new ProgramDatabase({ archiveSize: 3, archivePolicy: 'crowding' }, { similarity });
    commitScores(db, [1, 5, 9]);
    db.add(prog('near', { parentId: 'i0-2', score: 6 }));
    db.recordDecision('near', 'commit');
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'near', 'i0-2']);
    // 'nearLow' ranks below its nearest member, 'near': it stays out, though fitness would have
    // evicted i0-0 (score 1) for it
    sim.near = 0.95;
    db.add(prog('nearLow', { parentId: 'near', score: 5.5 }));
    db.recordDecision('nearLow', 'commit');
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-0', 'near', 'i0-2']);
  });

  it('crowding without a similarity function falls back to fitness', () => {
    const db = new ProgramDatabase({ archiveSize: 2, archivePolicy: 'crowding' });
    commitScores(db, [1, 5, 3]);
    expect(db.archiveMembers().map((p) => p.id)).toEqual(['i0-2', 'i0-1']);
  });
});

describe('inspirations (Shinka inspirations.py)', () => {
  it('defaults: one archive inspiration (the best when on this island) and the top other, worst first, parent excluded', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1, 4, 3, 5]);
    chain(db, 1, [9]);
    const got = db.inspirations(0, new SeededRandom(1), { exclude: 'i0-2' });
    // best() is i1-0 (other island), so the archive slot is a uniform draw; top-1 is the best remaining
    expect(got).toHaveLength(2);
    expect(got.map((p) => p.id)).not.toContain('i0-2');
    expect(got.at(-1)!.score).toBeGreaterThanOrEqual(got[0]!.score!);
    const withBest = db.inspirations(1, new SeededRandom(1), { archive: 1, topK: 0 });
    expect(withBest.map((p) => p.id)).toEqual(['i1-0']);
  });

  it('the global best comes first when it lives on the island; elites then fill by rank', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1, 4, 3, 5, 2]);
    // incumbent i0-4 (2.0) is the best of the islands' incumbents (only island with one)
    const got = db.inspirations(0, new SeededRandom(2), { archive: 4, topK: 1, eliteRatio: 0.5, exclude: 'i0-1' });
    // best i0-4, two elites i0-3 (5) and i0-2 (3), one random of the rest = i0-0; top-k has none left
    expect(got.map((p) => p.id)).toEqual(['i0-0', 'i0-4', 'i0-2', 'i0-3']);
    expect(got.map((p) => p.publicMetrics)).toHaveLength(4);
  });

  it('never an incorrect, rejected or other-island program', () => {
    const db = new ProgramDatabase();
    chain(db, 0, [1, 2]);
    chain(db, 1, [50]);
    db.add(prog('bad', { parentId: 'i0-1', correct: false, score: 100 }));
    db.add(prog('rej', { parentId: 'i0-1', score: 100 }));
    db.recordDecision('rej', 'reject');
    const got = db.inspirations(0, new SeededRandom(5), { archive: 5, topK: 5 });
    expect(got.map((p) => p.id)).toEqual(['i0-0', 'i0-1']);
  });
});

describe('ring migration (Shinka islands.py ElitistMigrationStrategy)', () => {
  const cfg = (over: Partial<DatabaseConfig>): Partial<DatabaseConfig> => ({ migrationRate: 0.5, migrationInterval: 10, ...over });

  it('moves max(1, ⌊n·rate⌋) committed programs to the next island, never the incumbent or generation 0', () => {
    const db = new ProgramDatabase(cfg({}));
    chain(db, 0, [1, 2, 3, 4, 5, 6]); // 6 committed: 3 move, from i0-1..i0-4
    chain(db, 1, [1, 2]); // 2 committed: 1 must move, only i1-0 (gen 0) and i1-1 (incumbent) → none eligible
    const moves = db.migrate(10, new SeededRandom(4));
    expect(moves).toHaveLength(3);
    for (const m of moves) {
      expect(m).toMatchObject({ from: 0, to: 1 });
      expect(['i0-1', 'i0-2', 'i0-3', 'i0-4']).toContain(m.id);
      expect(db.get(m.id)?.island).toBe(1);
    }
    expect(db.incumbent(0)?.id).toBe('i0-5');
    expect(db.get('i0-0')?.island).toBe(0);
    // the migrants join the pool where they land; the incumbent there is unchanged
    expect(
      db
        .pool(1)
        .map((p) => p.id)
        .sort(),
    ).toEqual(['i1-0', 'i1-1', ...moves.map((m) => m.id)].sort());
    expect(db.incumbent(1)?.id).toBe('i1-1');
  });

  it('a ring of three: each island sends to the next, and a migrant does not travel twice in one round', () => {
    const db = new ProgramDatabase(cfg({ islands: 3, migrationRate: 0.25 }));
    chain(db, 0, [1, 2, 3, 4]);
    chain(db, 1, [1, 2, 3, 4]);
    chain(db, 2, [1, 2, 3, 4]);
    const moves = db.migrate(20, new SeededRandom(9));
    expect(moves.map((m) => [m.from, m.to])).toEqual([
      [0, 1],
      [1, 2],
      [2, 0],
    ]);
    expect(moves.map((m) => m.id.slice(0, 2))).toEqual(['i0', 'i1', 'i2']);
    expect([0, 1, 2].map((i) => db.incumbent(i)?.id)).toEqual(['i0-3', 'i1-3', 'i2-3']);
  });

  it('only at multiples of the interval, never at generation 0, and off by default (Shinka migration_rate 0)', () => {
    const on = new ProgramDatabase(cfg({}));
    chain(on, 0, [1, 2, 3, 4]);
    expect(on.migrate(0, new SeededRandom(1))).toEqual([]);
    expect(on.migrate(15, new SeededRandom(1))).toEqual([]);
    expect(on.migrate(30, new SeededRandom(1))).toHaveLength(2);
    const off = new ProgramDatabase();
    chain(off, 0, [1, 2, 3, 4]);
    expect(off.migrate(10, new SeededRandom(1))).toEqual([]);
  });
});

describe('JSON state', () => {
  function busy(): ProgramDatabase {
    const db = new ProgramDatabase({ archiveSize: 4, migrationRate: 0.5, migrationInterval: 2 });
    chain(db, 0, [1, 3, 2, 5, 4]);
    chain(db, 1, [2, 1, 6]);
    db.add(prog('pending', { parentId: 'i1-2', island: 1, score: 7, publicMetrics: { loc: 12, note: 'x' } }));
    db.add(prog('bad', { parentId: 'i0-4', correct: false, feedback: 'boom' }));
    return db;
  }

  /** Selections, inspirations, migration and a decision, drawn from one seeded stream. */
  function future(db: ProgramDatabase): unknown[] {
    const rng = new SeededRandom(11);
    const out: unknown[] = [];
    for (let k = 0; k < 50; k++) {
      const rule: ParentRule = [{ rule: 'weighted' }, { rule: 'power-law' }, { rule: 'beam' }][k % 3] as ParentRule;
      out.push(db.selectParent(k % 2, rng, rule).id);
      out.push(db.inspirations(k % 2, rng, { archive: 2, topK: 1 }).map((p) => p.id));
    }
    out.push(db.migrate(4, rng));
    db.recordDecision('pending', 'commit');
    out.push(db.best()?.id, db.toJSON());
    return out;
  }

  it('a round trip through JSON text gives the same state and identical future draws', () => {
    const a = busy();
    const state = a.toJSON();
    const b = ProgramDatabase.fromJSON(JSON.parse(JSON.stringify(state)) as typeof state);
    expect(b.toJSON()).toEqual(state);
    expect(future(b)).toEqual(future(a));
  });

  it('replaying the same calls rebuilds the same state', () => {
    expect(busy().toJSON()).toEqual(busy().toJSON());
  });

  it('the state is a copy: mutating it does not reach the database', () => {
    const db = busy();
    const state = db.toJSON();
    (state.programs[0] as ProgramRecord).score = 1000;
    expect(db.get('i0-0')?.score).toBe(1);
  });
});

describe('ownership', () => {
  it('add copies its input: the caller changing its metrics object later does not reach the database', () => {
    const db = new ProgramDatabase();
    const metrics = { loc: 10 };
    db.add(prog('s', { generation: 0, kind: 'seed', score: 1, publicMetrics: metrics }));
    metrics.loc = 99;
    expect(db.get('s')?.publicMetrics).toEqual({ loc: 10 });
  });
});
