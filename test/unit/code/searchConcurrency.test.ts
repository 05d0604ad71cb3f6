// Concurrent proposals (search.ts: W in flight, applied strictly in order). The evaluator here parks
// every run and a driver lets them finish one at a time in an order drawn from its own seed, so
// the test chooses the completion order instead of the machine: whatever that order, a run makes
// the same decisions and journals the same events; no more runs than slots are ever going on, and
// the proposal pool fills them; no program is evaluated twice on one instance, even when two
// children are tested against one incumbent at once.
import { describe, expect, it } from 'vitest';
import { runSearch, proposalsInFlight } from '../../../src/core/code/search';
import type { ProgramEvaluator } from '../../../src/core/code/search';
import { textHash } from '../../../src/core/code/novelty';
import type { EngineEvent } from '../../../src/core/journal/events';
import { hashSeed, SeededRandom } from '../../../src/core/random';
import { INSTANCES, SEED_PROGRAM, constantOf, proposer, spec } from './searchWorld';

/** Scores 1 − |x − 0.8| per instance plus noise fixed by (program, instance, how many times that pair was run). */
function parkedEvaluator(seed: number, releaseSeed: number) {
  const parked: (() => void)[] = [];
  const runs = new Map<string, number>();
  let going = 0;
  let peak = 0;
  const evaluate: ProgramEvaluator = (text, ids, signal) =>
    new Promise((resolve, reject) => {
      going++;
      peak = Math.max(peak, going);
      const go = () => {
        going--;
        const instances: Record<string, number> = {};
        for (const id of ids ?? INSTANCES) {
          const key = `${textHash(text)} ${id}`;
          const nth = (runs.get(key) ?? 0) + 1;
          runs.set(key, nth);
          const noise = new SeededRandom(hashSeed(seed, key, nth)).next() - 0.5;
          instances[id] = Math.min(1, Math.max(0, 0.9 - Math.abs(constantOf(text) - 0.8) + 0.3 * noise));
        }
        const values = Object.values(instances);
        resolve({ correct: true, score: values.reduce((a, b) => a + b, 0) / values.length, instances });
      };
      parked.push(go);
      signal.addEventListener('abort', () => {
        const i = parked.indexOf(go);
        if (i >= 0) {
          parked.splice(i, 1);
          going--;
          reject(signal.reason as Error);
        }
      });
    });
  const order = new SeededRandom(releaseSeed);
  let stopped = false;
  // Between two releases every promise of the engine settles (setImmediate runs after the microtasks).
  const pump = async () => {
    while (!stopped) {
      await new Promise((r) => setImmediate(r));
      if (parked.length > 0) parked.splice(order.int(parked.length), 1)[0]!();
    }
  };
  void pump();
  return { evaluate, peak: () => peak, runs, stop: () => (stopped = true) };
}

async function concurrentRun(o: { releaseSeed: number; concurrency: number; islands?: number; proposals?: number }) {
  const events: EngineEvent[] = [];
  const ev = parkedEvaluator(5, o.releaseSeed);
  const s = spec('pace+', o.proposals ?? 24);
  try {
    const outcome = await runSearch({
      spec: { ...s, concurrency: o.concurrency, islands: o.islands ?? 2, evaluator: { ...s.evaluator, shards: true, shardSize: 5 } },
      seedText: SEED_PROGRAM,
      llm: proposer(5, false),
      evaluate: ev.evaluate,
      random: new SeededRandom(5),
      emit: async (e) => void events.push({ ...e, runId: 'r', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    return { outcome, events, peak: ev.peak(), runs: ev.runs };
  } finally {
    ev.stop();
  }
}

const journalShape = (events: EngineEvent[]) =>
  events.map((e) => (e.type === 'decision' ? `decision ${e.record.candidateId} ${e.record.decision} ${e.record.itemsConsumed} ${e.record.logWealth}` : `${e.type} ${'candidateId' in e ? e.candidateId : ''}`));

describe('concurrent proposals', () => {
  it('make the same decisions and journal the same events whatever order the evaluations finish in', async () => {
    const a = await concurrentRun({ releaseSeed: 1, concurrency: 4 });
    const b = await concurrentRun({ releaseSeed: 2, concurrency: 4 });
    const c = await concurrentRun({ releaseSeed: 3, concurrency: 4 });
    expect(a.events.filter((e) => e.type === 'decision').length).toBeGreaterThan(10);
    expect(journalShape(b.events)).toEqual(journalShape(a.events));
    expect(journalShape(c.events)).toEqual(journalShape(a.events));
    expect(b.outcome.best).toEqual(a.outcome.best);
  });

  it('never run more evaluations at once than there are slots, and keep every slot busy', async () => {
    for (const concurrency of [1, 3, 4]) {
      const r = await concurrentRun({ releaseSeed: 7, concurrency });
      expect(r.peak).toBe(concurrency);
    }
    expect(proposalsInFlight(1)).toBe(1);
    expect(proposalsInFlight(4)).toBe(7);
  });

  it('evaluate no program twice on one instance, though children are tested against one incumbent at once', async () => {
    const r = await concurrentRun({ releaseSeed: 11, concurrency: 4, islands: 1, proposals: 30 });
    const twice = [...r.runs].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    // The incumbent changed under children in flight at least once, and they did not take its place.
    const superseded = r.events.filter((e) => e.type === 'log' && / replaced .* while .* was tested/.test(e.message));
    expect(r.events.filter((e) => e.type === 'decision' && e.record.decision === 'commit').length).toBeGreaterThan(1);
    expect(superseded.length).toBeGreaterThan(0);
    const commits = r.events.flatMap((e) => (e.type === 'decision' && e.record.decision === 'commit' ? [e.record.candidateId] : []));
    expect(commits).toContain(r.outcome.best.id);
  });
});
