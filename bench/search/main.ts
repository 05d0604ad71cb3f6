// bench/search: the code-search gate in two simulated worlds, in-process (the product's search
// loop, database, gate and patching; a scripted proposer and evaluator stand in for the LLM and
// the sandbox). Per cell ≥ 200 children, each tested against the seed in a run of its own. Run by hand: `node scripts/run-ts.mjs bench/search/main.ts`.
//
// - noisy: each evaluation draws fresh noise (sd 0.087 per instance) around a program's quality;
//   instances are the evaluator's 30 seeds, child and parent on the same ones.
// - per-instance: a deterministic heuristic scored on 100 instances; an edit helps some instances
//   and hurts others, so only the mean over them says whether it is better.
// A neutral edit leaves the quality unchanged (every commit is false); a real edit adds +0.05 or
// +0.15 to the mean on [0, 1] scores.
//
// Then the same children with a sharded evaluator (shards of 5 or 10 instances in the gate's
// order): the share of the child's instance evaluations that early stopping saved against
// evaluating every child whole; and throughput.ts (the real sandbox, a 200 ms evaluator).
import { runSearch } from '../../src/core/code/search';
import type { ProgramEvaluator } from '../../src/core/code/search';
import { hashSeed, SeededRandom } from '../../src/core/random';
import type { EngineEvent } from '../../src/core/journal/events';
import { throughput } from './throughput';
import { benchSpec, scriptedProposer, SEED } from './world';

const args = process.argv.slice(2);
const CHILDREN = Number(args[args.indexOf('--children') + 1] ?? 240) || 240;
// One child per run, against the seed: a clean per-child rate (a long run saturates the scores at 1).
const RUNS = CHILDREN;
const PER_RUN = 1;

type World = 'noisy' | 'per-instance';

/** Quality lives in the text as `const q = <k>` (tenths of 0.05); the evaluator reads it back. */
function evaluator(world: World, seed: number): ProgramEvaluator {
  let calls = 0;
  const n = world === 'noisy' ? 30 : 100;
  const ids = Array.from({ length: n }, (_, i) => `i${i + 1}`);
  return async (text, wanted) => {
    calls++;
    const q = Number(/const q = (-?\d+)/.exec(text)![1]) * 0.05;
    const edit = Number(/edit (\d+)/.exec(text)![1]);
    const scores: Record<string, number> = {};
    const r = new SeededRandom(hashSeed(seed, 'noise', calls));
    for (const id of wanted ?? ids) {
      const base = 0.4 + 0.2 * new SeededRandom(hashSeed(seed, 'difficulty', id)).next();
      // per-instance: each edit moves each instance by its own fixed amount (mean 0), plus the quality.
      const shift = world === 'per-instance' ? 0.3 * (new SeededRandom(hashSeed(seed, 'shift', edit, id)).next() - 0.5) : 0;
      const noise = world === 'noisy' ? 0.3 * (r.next() - 0.5) : 0;
      scores[id] = Math.min(1, Math.max(0, base + q + shift + noise));
    }
    const values = Object.values(scores);
    return { correct: true, score: values.reduce((a, b) => a + b, 0) / values.length, instances: scores };
  };
}

async function cell(world: World, gate: 'pace+' | 'greedy', step: number, sharded = false) {
  let commits = 0;
  let children = 0;
  let evaluations = 0;
  let childInstances = 0;
  for (let run = 1; run <= RUNS; run++) {
    const events: EngineEvent[] = [];
    const spec = benchSpec(gate, PER_RUN, run);
    const outcome = await runSearch({
      spec: sharded ? { ...spec, evaluator: { ...spec.evaluator, shards: true, shardSize: world === 'noisy' ? 5 : 10 } } : spec,
      seedText: SEED,
      llm: scriptedProposer(step, run),
      evaluate: evaluator(world, run),
      random: new SeededRandom(run),
      emit: async (e) => void events.push({ ...e, runId: 'b', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
    children += decisions.length;
    commits += decisions.filter((d) => d.decision === 'commit').length;
    childInstances += decisions.reduce((a, d) => a + d.candidateCalls, 0);
    evaluations += outcome.evaluations;
  }
  return { commits, children, evaluations, childInstances };
}

async function main(): Promise<void> {
  console.log(`\nbench/search — the code-search gate, ${RUNS} independent children per cell (each against the seed), in-process (scripted proposer and evaluator)\n`);
  console.log('| world | gate | children per column | neutral: false commits / child | +0.05 edits: commits / child | +0.15 edits: commits / child | evaluator runs / child |');
  console.log('|---|---|---|---|---|---|---|');
  for (const world of ['noisy', 'per-instance'] as const) {
    for (const gate of ['pace+', 'greedy'] as const) {
      const [neutral, small, large] = [await cell(world, gate, 0), await cell(world, gate, 1), await cell(world, gate, 3)];
      const rate = (c: { commits: number; children: number }) => (c.commits / c.children).toFixed(3);
      const perChild = (neutral.evaluations + small.evaluations + large.evaluations) / (neutral.children + small.children + large.children);
      console.log(`| ${world} | ${gate} | ${neutral.children} | ${rate(neutral)} | ${rate(small)} | ${rate(large)} | ${perChild.toFixed(2)} |`);
    }
  }
  console.log('\nSharded evaluator, PACE+: instance evaluations of the children, against evaluating each child whole\n');
  console.log('| world | instances | shard | edits | children | commits / child | instances run / child | saved |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const world of ['noisy', 'per-instance'] as const) {
    const n = world === 'noisy' ? 30 : 100;
    for (const [label, step] of [
      ['neutral', 0],
      ['+0.05', 1],
      ['+0.15', 3],
    ] as const) {
      const c = await cell(world, 'pace+', step, true);
      const perChild = c.childInstances / c.children;
      console.log(`| ${world} | ${n} | ${world === 'noisy' ? 5 : 10} | ${label} | ${c.children} | ${(c.commits / c.children).toFixed(3)} | ${perChild.toFixed(1)} | ${(100 * (1 - perChild / n)).toFixed(0)} % |`);
    }
  }
  const proposals = Number(args[args.indexOf('--throughput-proposals') + 1] ?? 40) || 40;
  console.log(`\nThroughput: the real sandbox, an evaluator of 200 ms (sleep) on ${proposals} proposals, a proposer that answers at once\n`);
  console.log('| slots | proposals | evaluator runs | wall s | evaluator s | sandbox set-up s | engine overhead (1 slot) | slots busy | evaluations / s |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const slots of [1, 4]) {
    const r = await throughput(slots, proposals);
    const overhead = slots === 1 ? `${((100 * r.engineS) / r.evaluatorS).toFixed(1)} % (set-up ${((100 * r.sandboxSetupS) / r.evaluatorS).toFixed(1)} %)` : '—';
    console.log(`| ${r.slots} | ${r.children} | ${r.evaluations} | ${r.wallS.toFixed(2)} | ${r.evaluatorS.toFixed(2)} | ${r.sandboxSetupS.toFixed(2)} | ${overhead} | ${(100 * r.busy).toFixed(1)} % | ${r.perSecond.toFixed(2)} |`);
  }
}

void main();
