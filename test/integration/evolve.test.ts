// `ratchet evolve`: the gates' guarantees as a user would see them (what gets committed, across
// seeds), the reward-free gates, merge, and a kill followed by a resume.
//
// The statistics need many runs, so they run in this process (evolveInProcess.ts: the product's
// inputs, LLM layer, engine and gates, the fake endpoint answered without HTTP). A null run, a
// controlled run and the kill + resume go through the built CLI and the fake HTTP server, and the
// first two check that the CLI decides exactly as the in-process run of the same seed.
//
// Two schedules: the default (fwer-screened: a screen on the 10 feedback items, then α spent on
// the candidates that pass, so P(any false commit in a run) ≤ α) and per-candidate by name, whose
// bands (1/α for every candidate) the older blocks were written for.
//
// The world (evolveWorkspace.ts: scenarioFor): 40 dev items, base accuracy 0.6, deterministic
// answers; a neutral edit re-draws 30 % of the items at the same accuracy, so against its parent an
// item is a win with probability 0.3 · 0.4 · 0.6 = 0.072 and a loss with 0.072; the real edit turns
// three quarters of the wrong items right (+0.30): a win with probability 0.4 · 0.75 = 0.3, never a loss.
import { existsSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { execSync } from 'node:child_process';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent } from '../../src/core/journal/events';
import { binomialLower, binomialUpper, paceCommitProbability } from './bands';
import { CLI, decisions, evolveThenKill, inBatches, journal, runCli, runIds } from './evolveCli';
import { evolveInProcess } from './evolveInProcess';
import type { InProcessOutcome } from './evolveInProcess';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const seeds = (n: number, from = 1) => Array.from({ length: n }, (_, i) => i + from);
const CANDIDATES = 10;
const NEUTRAL = { win: 0.3 * 0.4 * 0.6, loss: 0.3 * 0.6 * 0.4 };
const REAL = { win: 0.4 * 0.75, loss: 0 };

const commitsOf = (o: { events: EngineEvent[] }) => decisions(o.events).filter((d) => d.decision === 'commit');
const proposedWith = (o: { events: EngineEvent[] }, marker: string) => {
  const p = o.events.find((e) => e.type === 'candidate/proposed' && e.text.includes(marker));
  return p?.type === 'candidate/proposed' ? p : undefined;
};
/** The gate's record for the candidate carrying `marker`; undefined when it was never tested. */
const verdictOn = (o: { events: EngineEvent[] }, marker: string) => {
  const p = proposedWith(o, marker);
  return p ? o.events.flatMap((e) => (e.type === 'decision' ? [e.record] : [])).find((r) => r.candidateId === p.candidateId) : undefined;
};
const many = (jobs: (() => Promise<InProcessOutcome>)[]) => inBatches(jobs, 8);
/** PACE+ under the per-candidate schedule, named: each candidate against 1/α. */
const PER_CANDIDATE = { gate: 'pace+', gateLines: ['schedule: per-candidate'] };

describe('null regime: the edits only reshuffle which items the agent gets right', () => {
  it('PACE+ at α = 0.05 per candidate leaves most runs without a commit, greedy commits in nearly all', async () => {
    const n = 40;
    const pace = await many(seeds(n).map((s) => () => evolveInProcess(s, PER_CANDIDATE, {})));
    const greedy = await many(seeds(n).map((s) => () => evolveInProcess(s, { gate: 'greedy' }, {})));
    for (const o of [...pace, ...greedy]) expect(o.events.at(-1)?.type).toBe('run/finished');
    // Until a run's first commit every candidate is a child of the incumbent v0, so P(a run commits
    // anything) ≤ 1 − (1 − p)^10 with p the exact commit probability of one neutral candidate
    // (bands.ts): p = 0.0085, so at most 0.082 of the runs, and more than the 1e-3 upper quantile of
    // Bin(40, 0.082) (10 runs) fails. The guarantee alone (p ≤ α) would allow far more.
    const p = paceCommitProbability(40, NEUTRAL.win, NEUTRAL.loss);
    const dirty = pace.filter((o) => commitsOf(o).length > 0).length;
    expect(dirty).toBeLessThanOrEqual(binomialUpper(n, 1 - (1 - p) ** CANDIDATES));
    // Greedy commits a neutral candidate whenever it wins more items than it loses (GATES.md 2):
    // for a child of v0, averaged over v0's right items on dev (Bin(40, 0.6)), ten candidates all
    // fail to with probability 0.030. Fewer committing runs than the 1e-3 lower quantile of
    // Bin(40, 0.97) fails.
    const greedyCommitted = greedy.filter((o) => commitsOf(o).length > 0).length;
    expect(greedyCommitted).toBeGreaterThanOrEqual(binomialLower(n, 0.97));
    expect(greedyCommitted).toBeGreaterThan(dirty);
    // Exit code 1 says "nothing accepted".
    expect(pace.filter((o) => commitsOf(o).length === 0).every((o) => o.code === 1)).toBe(true);
  }, 120_000);

  it('the default schedule commits anything in at most α of the runs, whatever the dependence between candidates', async () => {
    const n = 40;
    const runs = await many(seeds(n, 101).map((s) => () => evolveInProcess(s, { gate: 'pace+' }, {})));
    for (const o of runs) expect(o.events.at(-1)?.type).toBe('run/finished');
    // The run-level guarantee: P(any commit of a run with no real edit) ≤ α = 0.05. More dirty runs
    // than the 1e-3 upper quantile of Bin(40, 0.05) fails.
    const dirty = runs.filter((o) => commitsOf(o).length > 0).length;
    expect(dirty).toBeLessThanOrEqual(binomialUpper(n, 0.05));
    // Every candidate was screened first; a dropped one read no dev item and spent no α.
    const records = runs.flatMap((o) => o.events.flatMap((e) => (e.type === 'decision' ? [e.record] : [])));
    const screened = records.filter((r) => r.reason === 'screened');
    expect(screened.length).toBeGreaterThan(0);
    expect(screened.every((r) => r.itemsConsumed === 0 && r.screen?.verdict === 'drop')).toBe(true);
    expect(records.filter((r) => r.reason !== 'screened' && r.reason !== 'duplicate').every((r) => r.screen?.verdict === 'promote')).toBe(true);
  }, 120_000);

  it('through the CLI: exits 1 with nothing committed, deciding as the in-process run of its seed', async () => {
    const seed = 1;
    const w = makeWorkspace({ gate: 'pace+', seed });
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed }) });
    try {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const inProcess = await evolveInProcess(seed, { gate: 'pace+' }, {});
      expect(decisions(events)).toEqual(decisions(inProcess.events));
      expect(commitsOf({ events })).toEqual([]);
      expect(r.code).toBe(1);
      // The same requests reached the HTTP server as the in-process endpoint.
      expect(server.calls.filter((c) => c.path === '/v1/chat/completions')).toHaveLength(inProcess.transport.calls.length);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('controlled regime: one of the edits raises true accuracy by 0.30', () => {
  // The real edit is among the first nine scripted edits: the tenth candidate can be spent on a
  // duplicate proposal, which would leave a tenth-position edit untested.
  const gainAt = (s: number) => 1 + (s % 9);

  it('PACE+ per candidate commits the real edit where it is tested, and the test-split score rises', async () => {
    const n = 30;
    const runs = await many(seeds(n).map((s) => () => evolveInProcess(s, PER_CANDIDATE, { gainAt: gainAt(s) })));
    let tested = 0;
    let found = 0;
    for (const o of runs) {
      expect(o.events.at(-1)?.type).toBe('run/finished');
      const verdict = verdictOn(o, `<!-- edit:${gainAt(o.seed)} -->`);
      if (!verdict) continue;
      tested++;
      if (verdict.decision !== 'commit') continue;
      found++;
      // With no other commit the final version is the real edit alone: it fixes wrong items and
      // breaks none, so the test split's score rises unless none of its ~16 wrong items is fixed
      // (0.25^16).
      if (commitsOf(o).length === 1) {
        const report = o.events.find((e) => e.type === 'report/test');
        expect(report?.type === 'report/test' && report.final.mean > report.baseline.mean, `seed ${o.seed}`).toBe(true);
      }
    }
    // The real edit goes untested only when a false commit moved the run elsewhere first: at most
    // 0.082 of the runs (see the null regime); tested against its parent it commits with
    // probability 0.991 (bands.ts, wins 0.3, no losses). Fail below the 1e-3 lower quantiles.
    const p = paceCommitProbability(40, NEUTRAL.win, NEUTRAL.loss);
    expect(tested).toBeGreaterThanOrEqual(binomialLower(n, (1 - p) ** CANDIDATES));
    expect(found).toBeGreaterThanOrEqual(binomialLower(tested, paceCommitProbability(40, REAL.win, REAL.loss)));
  }, 120_000);

  it('the default schedule commits the real edit in most runs, though later positions need more evidence', async () => {
    const n = 30;
    const runs = await many(seeds(n).map((s) => () => evolveInProcess(s, { gate: 'pace+' }, { gainAt: gainAt(s) })));
    let found = 0;
    let expected = 0;
    for (const o of runs) {
      expect(o.events.at(-1)?.type).toBe('run/finished');
      if (verdictOn(o, `<!-- edit:${gainAt(o.seed)} -->`)?.decision === 'commit') found++;
      // A lower bound on this run's chance: no false commit first (≥ 1 − α, the guarantee); the
      // screen promotes the real edit unless it wins none of the first 8 of the 10 feedback items (it
      // never loses one, and its drop bar reaches 0 at 8 items): 1 − 0.7^8; at most g − 1 candidates were promoted before it, so its threshold is at
      // most g(g + 1)/α, and bands.ts gives the exact commit probability at that threshold.
      const g = gainAt(o.seed);
      expected += 0.95 * (1 - 0.7 ** 8) * paceCommitProbability(40, REAL.win, REAL.loss, 0.05 / (g * (g + 1)));
    }
    // The runs are independent with different chances (a Poisson binomial): the binomial of the
    // mean chance is more spread, so its 1e-3 lower quantile is a safe floor.
    expect(found).toBeGreaterThanOrEqual(binomialLower(n, expected / n));
  }, 120_000);

  it('through the CLI: commits the real edit, deciding as the in-process run of its seed', async () => {
    const seed = 3;
    const w = makeWorkspace({ gate: 'pace+', seed });
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed, gainAt: gainAt(seed) }) });
    try {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir]);
      const events = journal(w.dir, runIds(w.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const inProcess = await evolveInProcess(seed, { gate: 'pace+' }, { gainAt: gainAt(seed) });
      expect(decisions(events)).toEqual(decisions(inProcess.events));
      expect(verdictOn({ events }, `<!-- edit:${gainAt(seed)} -->`)?.decision).toBe('commit');
      expect(r.code).toBe(0);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('gate.population: finite (better on this dev set, GATES.md 1.2)', () => {
  it('commits the real edit whenever it is tested, and every decision records the null it tested', async () => {
    const runs = await many(seeds(10).map((s) => () => evolveInProcess(s, { gate: 'pace+', gateLines: ['population: finite', 'schedule: per-candidate'] }, { gainAt: 1 + (s % 9) })));
    let tested = 0;
    let committed = 0;
    for (const o of runs) {
      expect(o.events.at(-1)?.type).toBe('run/finished');
      const records = o.events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
      expect(records.length).toBeGreaterThan(0);
      expect(records.every((r) => r.population === 'finite')).toBe(true);
      // A churn edit that happens to be better on these 40 items is a true commit under this null,
      // and can move the run elsewhere before the real edit is proposed; so count the real edit's
      // verdict where it was tested.
      const verdict = verdictOn(o, `<!-- edit:${1 + (o.seed % 9)} -->`);
      if (!verdict) continue;
      tested++;
      if (verdict.decision === 'commit') committed++;
    }
    // With wins only, the finite-population bet (mean correction m_k ≤ 0) is at least the population
    // one's, so a tested real edit commits with probability ≥ 0.991 (as above); the run-level count of
    // runs where it is tested is bounded as in the controlled regime, with finite-null commits
    // possibly more frequent than population ones; take ≥ 0.8 for them. Fail below the 1e-3 lower quantiles.
    expect(tested).toBeGreaterThanOrEqual(binomialLower(10, 0.8));
    expect(committed).toBeGreaterThanOrEqual(binomialLower(tested, paceCommitProbability(40, REAL.win, REAL.loss)));
  }, 120_000);
});

describe('reward-free gates on an unlabeled dataset', () => {
  it.each(['pace-rf', 'pairwise', 'focus', 'elo'])('%s completes and journals both-order verdicts', async (gate) => {
    const o = await evolveInProcess(7, { gate, labels: false, ...(gate === 'focus' ? { gateLines: ['focus: { refreshEvery: 2 }'] } : {}) }, { gainAt: 3 });
    expect(o.events.at(-1)?.type).toBe('run/finished');
    const verdicts = o.events.filter((e) => e.type === 'verdict');
    expect(verdicts.length).toBeGreaterThan(0);
    const orders = new Set(verdicts.map((v) => (v.type === 'verdict' ? v.order : '')));
    expect(orders).toEqual(new Set(['child-first', 'parent-first']));
    if (gate === 'focus') {
      const refreshes = o.events.filter((e) => e.type === 'rubric/updated');
      expect(refreshes.length).toBeGreaterThan(0);
      const versions = o.events.flatMap((e) => (e.type === 'decision' ? [e.record.rubricVersion] : []));
      expect(new Set(versions).size).toBeGreaterThan(1);
    }
    if (gate === 'elo') {
      const ratings = o.events.filter((e) => e.type === 'ratings');
      expect(ratings.length).toBeGreaterThan(0);
      const last = ratings.at(-1);
      expect(last?.type === 'ratings' && last.ratings.length).toBeGreaterThan(1);
    }
  });

  // The judge sees two answers, not prompts: only an item the edit turns from wrong to right carries
  // evidence (the fake's truth is a tie where the answers agree, and tieRate 1 makes it say so).
  // The edit raises accuracy 0.6 → 1.0, so each of the 40 dev items is such an item with
  // probability 0.4; a judge right 90 % of the time makes it a consistent child win (both orders)
  // with 0.9² and a loss with 0.1². Reward-free PACE+ feeds these verdicts into the mixture
  // e-process (GATES.md 5): it commits with probability 0.9875 (bands.ts, wins 0.324, losses
  // 0.004), and fewer commits than the 1e-3 lower quantile of Bin(6, 0.9875) fails.
  it('pace-rf commits a real edit that a validator right 90 % of the time can see', async () => {
    const runs = await many(seeds(6).map((s) => () => evolveInProcess(s, { gate: 'pace-rf', labels: false }, { gainAt: 2, gain: 0.4, validatorAccuracy: 0.9 })));
    const found = runs.filter((o) => verdictOn(o, '<!-- edit:2 -->')?.decision === 'commit').length;
    const p = paceCommitProbability(40, 0.4 * 0.9 ** 2, 0.4 * 0.1 ** 2);
    expect(p).toBeGreaterThan(0.98);
    expect(found).toBeGreaterThanOrEqual(binomialLower(runs.length, p));
  }, 120_000);
});

describe('merge of two Pareto parents (spec `merge: true`)', () => {
  it('proposes merged children once two committed versions share the Pareto front', async () => {
    const o = await evolveInProcess(3, { gate: 'greedy', extraTopLines: ['merge: true'] }, {});
    expect(o.events.at(-1)?.type).toBe('run/finished');
    const merged = o.events.filter((e) => e.type === 'candidate/proposed' && e.reasoning?.startsWith('Merge of '));
    expect(merged.length).toBeGreaterThan(0);
  });
});

describe('kill mid-run, then resume', () => {
  it('finishes with the decisions of an uninterrupted run and repeats no finished call', async () => {
    // The default schedule (its screen's calls are replayed too), the real edit proposed fourth:
    // after the kill, and committed in this seed's run, so --apply has an edit to write (a commit is
    // likely, not certain: see the controlled regime above).
    const seed = 5;
    const reference = await evolveInProcess(seed, { gate: 'pace+' }, { gainAt: 4 });
    const w = makeWorkspace({ gate: 'pace+', seed });
    const latencyMs = 30;
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed, gainAt: 4 }), latencyMs });
    try {
      // Two candidates decided, then killed without warning.
      const { runId: id, killAt } = await evolveThenKill(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir], w.dir);
      const before = journal(w.dir, id);
      expect(before.at(-1)?.type).not.toBe('run/finished');

      const resumed = await runCli(['runs', 'resume', id, '-w', w.dir, '--apply']);
      expect(resumed.stderr).toContain('finished');
      const after = journal(w.dir, id);
      expect(after.at(-1)?.type).toBe('run/finished');
      expect(decisions(after)).toEqual(decisions(reference.events));
      // The journal holds each event once: the resumed part continues where the killed one stopped,
      // numbering on from its last seq.
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));

      // Every call the server finished before the kill was answered from the cache on resume.
      const seen = new Map<string, number>();
      const repeats: number[] = [];
      for (const c of server.calls) {
        const key = JSON.stringify(c.body);
        const first = seen.get(key);
        if (first === undefined) seen.set(key, c.at);
        else if (first < killAt - latencyMs - 200) repeats.push(c.index);
      }
      expect(repeats).toEqual([]);
      expect(readFileSync(w.promptPath, 'utf8')).toContain('<!-- edit:4 -->');
    } finally {
      await server.close();
    }
  }, 120_000);
});
