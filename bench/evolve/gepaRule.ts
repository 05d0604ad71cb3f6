/**
 * GEPA's acceptance rule in the same simulated worlds (world.ts), written from GEPA's source
 * (github.com/gepa-ai/gepa: engine.py, reflective_mutation.py, strategies/acceptance.py,
 * batch_sampler.py, candidate_selector.py, gepa_utils.py) with its defaults, none of its code:
 *
 * - the seed is scored on the whole valset (our dev split) first;
 * - each iteration picks a parent from the per-item Pareto front of the valset scores (programs
 *   best on some item, dominated ones removed, then sampled in proportion to the items they are
 *   best on), takes the next 3-item minibatch of the trainset (our feedback split; shuffled each
 *   epoch), and scores the parent on it afresh (no evaluation cache by default);
 * - a parent perfect on the minibatch is skipped (skip_perfect_score);
 * - otherwise the proposer's child is scored on the same minibatch and accepted iff its sum is
 *   strictly greater (StrictImprovementAcceptance); an accepted child is scored on the whole valset
 *   and joins the pool;
 * - the run stops at the first iteration that starts with the metric-call budget spent (an
 *   iteration in flight finishes), and returns the program with the best valset mean (the older
 *   one on a tie).
 *
 * Every score is one agent call ("metric call"); "admitted" is the minibatch acceptance.
 */
import { SeededRandom } from '../../src/core/random';
import type { ArmRun } from './ratchetArm';
import type { Sentence, World } from './world';
import { evaluationDraw, hasReal, promptKey, proposalKind, successProbability, trueQuality } from './world';

const MINIBATCH = 3;

interface Program {
  sentences: Sentence[];
  key: number;
  /** Valset scores, in dev order. */
  val: Uint8Array;
  mean: number;
}

export function gepaRun(w: World, budgets: readonly number[]): ArmRun {
  const rng = new SeededRandom(w.seed).fork('gepa');
  const largest = Math.max(...budgets);
  const draws = new Map<string, number>();
  let calls = 0;
  let proposals = 0;
  const run: ArmRun = { qualityAt: new Map(), changedAt: new Map(), realAt: new Map(), firstRealAt: undefined, nonImproving: { proposed: 0, admitted: 0 }, proposals: 0, agentCalls: 0 };

  const evaluate = (p: { sentences: Sentence[]; key: number }, index: number): number => {
    calls++;
    const k = `${p.key}:${index}`;
    const nth = draws.get(k) ?? 0;
    draws.set(k, nth + 1);
    return evaluationDraw(w, p.key, index, nth) < successProbability(w, p.sentences, index) ? 1 : 0;
  };
  const pool: Program[] = [];
  const add = (sentences: Sentence[]) => {
    const p = { sentences, key: promptKey(sentences) };
    const val = Uint8Array.from(w.dev.map((it) => evaluate(p, it.index)));
    pool.push({ ...p, val, mean: val.reduce((a, b) => a + b, 0) / val.length });
  };
  const best = (): Program => pool.reduce((b, p) => (p.mean > b.mean ? p : b), pool[0]!);

  add([]);
  let epoch: number[] = [];
  let at = 0;
  const minibatch = (): number[] => {
    if (at + MINIBATCH > epoch.length) {
      epoch = shuffle(
        w.feedback.map((it) => it.index),
        rng,
      );
      // Padded to a whole number of minibatches with the least used ids, as GEPA does.
      for (let i = 0; epoch.length % MINIBATCH !== 0; i++) epoch.push(epoch[i]!);
      at = 0;
    }
    return epoch.slice(at, (at += MINIBATCH));
  };

  while (calls < largest) {
    for (const b of budgets) if (calls >= b && !run.qualityAt.has(b)) settle(run, b, w, best());
    const parent = pool[paretoParent(pool, rng)]!;
    const batch = minibatch();
    const before = batch.map((i) => evaluate(parent, i));
    if (before.every((y) => y === 1)) continue;
    const id = ++proposals;
    const sentences = [...parent.sentences, { id, kind: proposalKind(w, id) }];
    const child = { sentences, key: promptKey(sentences) };
    const after = batch.map((i) => evaluate(child, i));
    const improving = trueQuality(w, sentences) > trueQuality(w, parent.sentences) + 1e-12;
    if (!improving) run.nonImproving.proposed++;
    if (sum(after) <= sum(before)) continue;
    if (!improving) run.nonImproving.admitted++;
    if (run.firstRealAt === undefined && hasReal(sentences) && !pool.some((p) => hasReal(p.sentences))) run.firstRealAt = calls;
    add(sentences);
  }
  for (const b of budgets) if (!run.qualityAt.has(b)) settle(run, b, w, best());
  run.proposals = proposals;
  run.agentCalls = calls;
  return run;
}

function settle(run: ArmRun, b: number, w: World, p: Program): void {
  run.qualityAt.set(b, trueQuality(w, p.sentences));
  run.changedAt.set(b, p.sentences.length > 0);
  run.realAt.set(b, hasReal(p.sentences));
}

/** GEPA's select_program_candidate_from_pareto_front over the valset scores. */
function paretoParent(pool: readonly Program[], rng: SeededRandom): number {
  const n = pool[0]!.val.length;
  const fronts: number[][] = [];
  for (let i = 0; i < n; i++) {
    let top = -1;
    for (const p of pool) top = Math.max(top, p.val[i]!);
    fronts.push(pool.flatMap((p, j) => (p.val[i] === top ? [j] : [])));
  }
  // remove_dominated_programs: weakest first, a program is dominated when every front it is on
  // also holds another program still standing.
  const programs = [...new Set(fronts.flat())].sort((a, b) => pool[a]!.mean - pool[b]!.mean);
  const dominated = new Set<number>();
  for (let changed = true; changed;) {
    changed = false;
    for (const y of programs) {
      if (dominated.has(y)) continue;
      const others = programs.filter((p) => p !== y && !dominated.has(p));
      if (fronts.filter((f) => f.includes(y)).every((f) => f.some((p) => others.includes(p)))) {
        dominated.add(y);
        changed = true;
        break;
      }
    }
  }
  const weighted = fronts.flatMap((f) => f.filter((p) => !dominated.has(p)));
  return weighted[rng.int(weighted.length)]!;
}

function shuffle<T>(xs: T[], rng: SeededRandom): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

function sum(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}
