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
import { runSearch } from '../../src/core/code/search';
import type { ProgramEvaluator } from '../../src/core/code/search';
import { CODE_DEFAULTS } from '../../src/core/code/spec';
import type { CodeRunSpec } from '../../src/core/code/spec';
import type { LlmClient } from '../../src/core/ports';
import { hashSeed, SeededRandom } from '../../src/core/random';
import type { EngineEvent } from '../../src/core/run/events';
import { DEFAULTS } from '../../src/core/run/specTypes';

const args = process.argv.slice(2);
const CHILDREN = Number(args[args.indexOf('--children') + 1] ?? 240) || 240;
// One child per run, against the seed: a clean per-child rate (a long run saturates the scores at 1).
const RUNS = CHILDREN;
const PER_RUN = 1;

const SEED = ['export function solve() {', '  // EVOLVE-BLOCK-START', '  const q = 0; // edit 0', '  // EVOLVE-BLOCK-END', '  return q;', '}', ''].join('\n');

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

/** Proposes, from the parent's text, an edit (a new edit number) that raises the quality by `step` × 0.05 (0: neutral). */
function proposer(step: number, seed: number): LlmClient {
  let n = 0;
  return {
    async chat(req) {
      const user = req.messages[1]!.content;
      const parent = /```\n([\s\S]*?)\n```/.exec(user)![1]!;
      const line = parent.split('\n').find((l) => l.includes('const q'))!;
      const q = Number(/const q = (-?\d+)/.exec(line)![1]);
      n++;
      const next = `  const q = ${q + step}; // edit ${hashSeed(seed, n) % 100000}`;
      const text = `<NAME>edit</NAME>\n<DESCRIPTION>try</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n${line}\n=======\n${next}\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 0, completionTokens: 0 }, model: 'bench' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings');
    },
  };
}

function spec(gate: 'pace+' | 'greedy', proposals: number, seed: number): CodeRunSpec {
  return {
    kind: 'code',
    programPath: 'solve.mjs',
    sources: [],
    baseDir: '.',
    evaluator: { ...CODE_DEFAULTS.evaluator, supportFiles: [], scoreRange: { lo: 0, hi: 1 }, env: [], limits: { ...CODE_DEFAULTS.evaluator.limits } },
    gate: { ...DEFAULTS.gate, lambdas: [...DEFAULTS.gate.lambdas], name: gate, horizon: proposals },
    budget: { proposals },
    models: { agent: {}, proposer: {}, validator: {}, meta: {}, challenger: {} },
    islands: 1,
    search: { ...CODE_DEFAULTS.search, mix: { diff: 1, full: 0, cross: 0 }, parentSelection: 'beam' },
    seed,
    concurrency: 2,
    callTimeoutSeconds: 60,
    origin: {},
  };
}

async function cell(world: World, gate: 'pace+' | 'greedy', step: number) {
  let commits = 0;
  let children = 0;
  let evaluations = 0;
  for (let run = 1; run <= RUNS; run++) {
    const events: EngineEvent[] = [];
    const outcome = await runSearch({
      spec: spec(gate, PER_RUN, run),
      seedText: SEED,
      llm: proposer(step, run),
      evaluate: evaluator(world, run),
      random: new SeededRandom(run),
      emit: async (e) => void events.push({ ...e, runId: 'b', at: 0 } as EngineEvent),
      signal: new AbortController().signal,
    });
    const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
    children += decisions.length;
    commits += decisions.filter((d) => d.decision === 'commit').length;
    evaluations += outcome.evaluations;
  }
  return { commits, children, evaluations };
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
}

void main();
