// bench:slurm — code search on the local Slurm cluster (scripts/slurm-local.sh: one node, 2 CPUs),
// in-process: the product's search loop and gate with a scripted proposer, evaluations through
// the product's local sandbox port or its Slurm backend (real sbatch, squeue, sacct, scancel; each
// task the sandbox on the node via out/slurmTask.js). Run: `npm run bench:slurm`.
//
// 1. Engine overhead per task: 200 shard tasks of a 1 s evaluator (20 neutral children × 10 shards
//    of 2 instances, gate greedy so every shard runs), local backend vs Slurm, both on 2 CPUs.
//    Overhead per task = (wall × 2 − the evaluators' own seconds) / tasks: the slot-time each task
//    costs beyond its evaluator (sandbox set-up; on Slurm also sbatch, scheduling, the task's Node
//    start, polling latency); "inside the allocation" = (cluster-seconds − evaluator seconds) / tasks,
//    the part Slurm charges (the login environment, Node, the sandbox), the rest the gaps between.
// 2. What the gate's early stop saves on the cluster, against running every shard of every child:
//    (a) the bin-packing example as shipped (120 instances, shards of 10), ten heuristics each
//    tested against the seed (ten islands); (b) a world where the evidence is clear (each instance
//    1 or 0), to show the commit and futility stops. Cluster-seconds are sacct's ElapsedRaw ×
//    AllocCPUS over every task, cancelled ones included; sacct counts whole seconds, so each
//    evaluator there sleeps 4 s first (a slow benchmark's stand-in) to keep the rounding small.
//    `--only overhead` / `--only early-stop` runs one part.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runSearch } from '../../src/core/code/search';
import type { ProgramBatchEvaluator, ProgramEvaluator } from '../../src/core/code/search';
import type { CodeRunSpec } from '../../src/core/code/spec';
import type { EvaluationSandbox } from '../../src/core/code/evaluatorPort';
import type { LlmClient } from '../../src/core/ports';
import { SeededRandom } from '../../src/core/random';
import type { EngineEvent } from '../../src/core/journal/events';
import { SystemClock } from '../../src/node/clock';
import { nodeEvaluationSandbox } from '../../src/node/sandbox/sandbox';
import { evaluatorSetup } from '../../src/node/sandbox/sandboxEvaluation';
import { sandboxEvaluator } from '../../src/node/runs/searchSandbox';
import { SlurmBackend } from '../../src/node/slurm/backend';
import { nodeSlurmRunner } from '../../src/node/slurm/cli';
import { readResult } from '../../src/node/slurm/taskFiles';
import { benchSpec, scriptedProposer, SEED } from '../search/world';
import { VARIANTS, variantProposer } from './binpackVariants';

const RUNNER = resolve('out/slurmTask.js');
const CPUS = 2;

const ONE_SECOND = `sleep 1
first=1
printf '{"correct": true, "instances": {'
if [ -s "$3" ]; then ids=$(cat "$3"); else ids=$(seq -f 'i%g' 1 20); fi
for id in $ids; do [ $first = 1 ] || printf ','; first=0; printf '"%s": 0.5' "$id"; done
printf '}}\\n'
`;

interface Measured {
  wallS: number;
  tasks: number;
  evaluatorS: number;
  events: EngineEvent[];
  calls?: Record<string, number>;
}

/** A search with every evaluation through the local sandbox (timed). */
async function onLocal(spec: CodeRunSpec, seedText: string, llm: LlmClient): Promise<Measured> {
  let evaluatorMs = 0;
  let tasks = 0;
  const timed: EvaluationSandbox = {
    preflight: () => nodeEvaluationSandbox.preflight(),
    run: async (req) => {
      const run = await nodeEvaluationSandbox.run(req);
      evaluatorMs += run.wallMs;
      tasks++;
      return run;
    },
  };
  const events: EngineEvent[] = [];
  const t0 = performance.now();
  await runSearch({
    spec,
    seedText,
    llm,
    evaluate: sandboxEvaluator(spec, spec.programPath, undefined, {}, timed),
    random: new SeededRandom(spec.seed),
    emit: async (e) => void events.push({ ...e, runId: 'bench', at: Date.now() } as EngineEvent),
    signal: new AbortController().signal,
  });
  return { wallS: (performance.now() - t0) / 1000, tasks, evaluatorS: evaluatorMs / 1000, events };
}

/** The same search with every evaluation an array task on the local cluster. */
async function onSlurm(spec: CodeRunSpec, seedText: string, llm: LlmClient, label: string): Promise<Measured> {
  const shared = await mkdtemp(join(tmpdir(), 'bench-slurm-'));
  const events: EngineEvent[] = [];
  const run = new AbortController();
  const runId = `bench-${label}-${Date.now()}`;
  const backend = new SlurmBackend({
    runId,
    startedAt: Date.now(),
    slurm: spec.evaluator.slurm!,
    setup: evaluatorSetup(spec.evaluator, spec.programPath, undefined),
    identity: runId,
    sharedDir: shared,
    runnerFile: RUNNER,
    node: process.execPath,
    secrets: [],
    env: process.env,
    journaled: [],
    emit: async (e) => void events.push({ ...e, runId, at: Date.now() } as EngineEvent),
    clock: new SystemClock(),
    signal: run.signal,
    runner: nodeSlurmRunner,
  });
  // The probe is the run's, before its first evaluation: not timed.
  await backend.open();
  const t0 = performance.now();
  const evaluate: ProgramEvaluator = backend.evaluate;
  const evaluateShards: ProgramBatchEvaluator = backend.evaluateShards;
  await runSearch({
    spec,
    seedText,
    llm,
    evaluate,
    evaluateShards,
    random: new SeededRandom(spec.seed),
    emit: async (e) => {
      if (e.type === 'run/finished') await backend.close();
      events.push({ ...e, runId, at: Date.now() } as EngineEvent);
    },
    signal: run.signal,
  });
  const wallS = (performance.now() - t0) / 1000;
  // The evaluators' own time, as the sandbox on each node measured it (in each task's result).
  let evaluatorMs = 0;
  let tasks = 0;
  for (const e of events) {
    if (e.type !== 'slurm/submitted') continue;
    for (const t of e.tasks) {
      const r = await readResult(e.dir, t.index);
      if (r) {
        evaluatorMs += r.wallMs;
        tasks++;
      }
    }
  }
  return { wallS, tasks, evaluatorS: evaluatorMs / 1000, events, calls: { ...backend.cli.calls } };
}

const clusterSeconds = (events: readonly EngineEvent[]) => events.reduce((a, e) => a + (e.type === 'slurm/task' ? (e.clusterSeconds ?? 0) : 0), 0);

async function overhead(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-slurm-eval-'));
  await writeFile(join(dir, 'evaluate.sh'), ONE_SECOND);
  const base = benchSpec('greedy', 20, 1);
  const spec: CodeRunSpec = {
    ...base,
    concurrency: CPUS,
    search: { ...base.search, metaEvery: 0 },
    evaluator: { ...base.evaluator, command: 'sh evaluate.sh {program} {results} {instances}', supportFiles: [join(dir, 'evaluate.sh')], timeoutSeconds: 60, shards: true, shardSize: 2 },
  };
  const local = await onLocal(spec, SEED, scriptedProposer(0, 1));
  const slurm = await onSlurm({ ...spec, evaluator: { ...spec.evaluator, backend: 'slurm', slurm: { time: '5', cpus: 1, memoryMb: 1024, sbatch: [], retries: 2, pollSeconds: 1 } } }, SEED, scriptedProposer(0, 1), 'overhead');
  console.log('\n1. Engine overhead per task: 20 neutral children × 10 shards of a 1 s evaluator (+ the seed), gate greedy, 2 CPUs\n');
  console.log('| backend | tasks | wall s | evaluator s | overhead per task (s) | of which inside the allocation (s) | tasks / min | sbatch | squeue | sacct | scancel | cluster-s |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, m] of [
    ['local', local],
    ['slurm', slurm],
  ] as const) {
    const per = (m.wallS * CPUS - m.evaluatorS) / m.tasks;
    const c = m.calls;
    const cluster = clusterSeconds(m.events);
    const inside = name === 'slurm' ? ((cluster - m.evaluatorS) / m.tasks).toFixed(3) : '—';
    console.log(
      `| ${name} | ${m.tasks} | ${m.wallS.toFixed(1)} | ${m.evaluatorS.toFixed(1)} | ${per.toFixed(3)} | ${inside} | ${((60 * m.tasks) / m.wallS).toFixed(1)} | ${c?.sbatch ?? '—'} | ${c?.squeue ?? '—'} | ${c?.sacct ?? '—'} | ${c?.scancel ?? '—'} | ${name === 'slurm' ? cluster : '—'} |`,
    );
  }
  const same = JSON.stringify(decisions(local.events)) === JSON.stringify(decisions(slurm.events));
  console.log(`\nDecisions identical on both backends: ${same}`);
}

const decisions = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'decision' ? [[e.record.candidateId, e.record.decision, e.record.reason, e.record.itemsConsumed]] : []));

interface ChildCost {
  decision?: string;
  consumed?: number;
  done: number;
  cancelled: number;
  clusterS: number;
}

/** A search on Slurm, each child against the seed (one island each): what each child's tasks did and cost. */
async function childCosts(spec: CodeRunSpec, seedText: string, llm: LlmClient, label: string): Promise<{ children: Map<string, ChildCost>; wallS: number; clusterS: number; perTaskS: number }> {
  const m = await onSlurm(spec, seedText, llm, label);
  const textOf = new Map(m.events.flatMap((e) => (e.type === 'candidate/proposed' && e.candidateId !== 'p0' ? [[e.candidateId, e.text] as const] : [])));
  const children = new Map<string, ChildCost>();
  for (const [id] of textOf) children.set(id, { done: 0, cancelled: 0, clusterS: 0 });
  for (const e of m.events) {
    if (e.type === 'decision') Object.assign(children.get(e.record.candidateId)!, { decision: `${e.record.decision} (${e.record.reason})`, consumed: e.record.itemsConsumed });
    if (e.type !== 'slurm/submitted') continue;
    const text = await readFile(join(e.dir, 'program.txt'), 'utf8');
    const child = [...textOf].find(([, t]) => t === text)?.[0];
    if (!child) continue;
    const c = children.get(child)!;
    for (const t of m.events) {
      if (t.type !== 'slurm/task' || t.jobId !== e.jobId || t.outcome === undefined) continue;
      c.clusterS += t.clusterSeconds ?? 0;
      if (t.outcome === 'done') c.done++;
      if (t.outcome === 'cancelled') c.cancelled++;
    }
  }
  const done = m.events.filter((e) => e.type === 'slurm/task' && e.outcome === 'done');
  const perTaskS = done.reduce((a, e) => a + (e.type === 'slurm/task' ? (e.clusterSeconds ?? 0) : 0), 0) / Math.max(1, done.length);
  return { children, wallS: m.wallS, clusterS: clusterSeconds(m.events), perTaskS };
}

function printCosts(title: string, names: readonly string[], shards: number, r: Awaited<ReturnType<typeof childCosts>>): void {
  console.log(`\n${title}\n`);
  console.log('| child | edit | PACE+ decision | at instance | tasks run | tasks cancelled | cluster-s |');
  console.log('|---|---|---|---|---|---|---|');
  names.forEach((name, i) => {
    const c = r.children.get(`p${i + 1}`) ?? { done: 0, cancelled: 0, clusterS: 0 };
    console.log(`| p${i + 1} | ${name} | ${c.decision ?? '—'} | ${c.consumed ?? '—'} | ${c.done} | ${c.cancelled} | ${c.clusterS} |`);
  });
  const all = [...r.children.values()];
  const run = all.reduce((a, c) => a + c.done, 0);
  const cost = all.reduce((a, c) => a + c.clusterS, 0);
  const every = shards * names.length;
  console.log(`| all | | | | ${run} | ${all.reduce((a, c) => a + c.cancelled, 0)} | ${cost} |`);
  console.log(
    `\nEvery shard of every child would be ${every} tasks, about ${(every * r.perTaskS).toFixed(0)} cluster-s at the ${r.perTaskS.toFixed(2)} cluster-s a finished task took here; ` +
      `the gate ran ${run} (${(100 * (1 - run / every)).toFixed(0)} % fewer) for ${cost} cluster-s (${(100 * (1 - cost / (every * r.perTaskS))).toFixed(0)} % saved). Run: ${r.clusterS} cluster-s with the seed, ${r.wallS.toFixed(1)} s wall.`,
  );
}

async function earlyStop(): Promise<void> {
  // 2a. The per-instance example as shipped: bin packing, 120 instances, shards of 10.
  const example = resolve('examples/code/bin-packing');
  const seedText = await readFile(join(example, 'binpack.mjs'), 'utf8');
  const base = benchSpec('pace+', VARIANTS.length, 3);
  const slurm = { time: '5', cpus: 1, memoryMb: 2048, sbatch: [] as string[], retries: 2, pollSeconds: 1 };
  const binpacking: CodeRunSpec = {
    ...base,
    programPath: join(example, 'binpack.mjs'),
    islands: VARIANTS.length,
    concurrency: CPUS,
    search: { ...base.search, metaEvery: 0, migrationRate: 0 },
    evaluator: {
      ...base.evaluator,
      command: PADDED,
      supportFiles: [join(example, 'evaluate.mjs'), join(example, 'instances.json')],
      timeoutSeconds: 60,
      deterministic: true,
      shards: true,
      shardSize: 10,
      backend: 'slurm',
      slurm,
    },
  };
  printCosts(
    "2a. What the gate's early stop saves on the cluster: the bin-packing example as shipped (120 instances, 12 shards of 10: 12 tasks a child; its evaluator after a 4 s sleep), ten children each against the seed, PACE+",
    VARIANTS.map((v) => v.name),
    12,
    await childCosts(binpacking, seedText, variantProposer(seedText), 'binpacking'),
  );
  // 2b. Clear evidence: 40 instances, shards of 4; a child that raises `rate` wins every instance, one that lowers it loses every one.
  const dir = await mkdtemp(join(tmpdir(), 'bench-slurm-clear-'));
  await writeFile(join(dir, 'evaluate.mjs'), CLEAR_EVALUATOR);
  const rates = [0.35, 0.25, 0.4, 0.2, 0.33, 0.27, 0.31, 0.29, 0.5, 0.1];
  const clear: CodeRunSpec = {
    ...base,
    programPath: join(dir, 'step.mjs'),
    islands: rates.length,
    concurrency: CPUS,
    budget: { proposals: rates.length },
    search: { ...base.search, metaEvery: 0, migrationRate: 0 },
    evaluator: { ...base.evaluator, command: PADDED, supportFiles: [join(dir, 'evaluate.mjs')], timeoutSeconds: 60, shards: true, shardSize: 4, deterministic: true, backend: 'slurm', slurm },
  };
  printCosts(
    "2b. The same with clear evidence: 40 instances, 10 shards of 4 (4 s sleep, then each instance scores 1 above the seed's rate, 0.5 at it, 0 below)",
    rates.map((r) => `rate ${r}`),
    10,
    await childCosts(clear, CLEAR_SEED, rateProposer(rates), 'clear'),
  );
}

/**
 * The evaluator after a 4 s sleep: sacct counts whole seconds, and a task of the example's own
 * 0.1–0.3 s would cost 0 or 1 by the rounding alone. Four seconds stand in for a slow benchmark;
 * the decisions are the evaluator's.
 */
const PADDED = 'sh -c "sleep 4; exec node evaluate.mjs \\"$1\\" \\"$2\\" \\"$3\\"" padded {program} {results} {instances}';

const CLEAR_SEED = ['export function step() {', '  // EVOLVE-BLOCK-START', '  const rate = 0.3;', '  // EVOLVE-BLOCK-END', '  return rate;', '}', ''].join('\n');
const CLEAR_EVALUATOR = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [program, , instancesFile] = process.argv.slice(2);
const rate = (await import(pathToFileURL(program).href)).step();
const listed = instancesFile ? readFileSync(instancesFile, 'utf8').split('\\n').filter(Boolean) : [];
const ids = listed.length > 0 ? listed : Array.from({ length: 40 }, (_, i) => 'i' + (i + 1));
console.log(JSON.stringify({ correct: true, instances: Object.fromEntries(ids.map((id) => [id, rate > 0.3 ? 1 : rate < 0.3 ? 0 : 0.5])) }));
`;

/** Proposal n sets the seed's rate to rates[n − 1]. */
function rateProposer(rates: readonly number[]): LlmClient {
  let n = 0;
  return {
    async chat() {
      const r = rates[n++ % rates.length]!;
      const text = `<NAME>rate ${r}</NAME>\n<DESCRIPTION>rate ${r}</DESCRIPTION>\n<DIFF>\n<<<<<<< SEARCH\n  const rate = 0.3;\n=======\n  const rate = ${r};\n>>>>>>> REPLACE\n</DIFF>`;
      return { text, finishReason: 'stop', logprobs: undefined, usage: { promptTokens: 0, completionTokens: 0 }, model: 'bench' } as Awaited<ReturnType<LlmClient['chat']>>;
    },
    async embed() {
      throw new Error('no embeddings');
    },
  };
}

async function main(): Promise<void> {
  const nodes = execFileSync('sinfo', ['-h', '-N', '-o', '%N %c CPUs %m MB %t'], { encoding: 'utf8' }).trim();
  console.log(`bench:slurm — code search on the local Slurm cluster (${nodes}), ${new Date().toISOString()}`);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
  if (only !== 'early-stop') await overhead();
  if (only !== 'overhead') await earlyStop();
}

void main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
