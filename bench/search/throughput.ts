// bench/search throughput: the search loop driving the real sandbox (src/node/sandbox/sandbox.ts, through
// the product's evaluator port) on an evaluator that takes 200 ms, with a scripted proposer that
// answers at once, so every second not spent inside an evaluator is the engine's (or idle).
//
// - engine overhead, at one slot (everything serial): the run's wall time minus the time spent in
//   sandbox calls, as a share of the evaluators' own time (proposals, patching, novelty, gate,
//   events); the sandbox's set-up per run (temp dir, limits, cgroup, spawn) is shown apart.
// - slot use at N slots: time the slots held a sandbox call / (wall time × N).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSearch } from '../../src/core/code/search';
import type { EvaluationSandbox } from '../../src/core/code/evaluatorPort';
import { sandboxEvaluator } from '../../src/node/runs/searchSandbox';
import { nodeEvaluationSandbox } from '../../src/node/sandbox/sandbox';
import { SeededRandom } from '../../src/core/random';
import { benchSpec, scriptedProposer, SEED } from './world';

const INSTANCES = 20;
const SCRIPT = `sleep 0.2\ncat <<'EOF'\n${JSON.stringify({ correct: true, instances: Object.fromEntries(Array.from({ length: INSTANCES }, (_, i) => [`i${i + 1}`, 0.5])) })}\nEOF\n`;

export interface ThroughputRow {
  slots: number;
  children: number;
  evaluations: number;
  wallS: number;
  evaluatorS: number;
  sandboxSetupS: number;
  /** Slots holding a sandbox call, as a share of wall time × slots. */
  busy: number;
  /** The engine's own time at this many slots: wall − sandbox calls (meaningful at one slot). */
  engineS: number;
  perSecond: number;
}

export async function throughput(slots: number, proposals: number): Promise<ThroughputRow> {
  let evaluatorMs = 0;
  let callMs = 0;
  const timed: EvaluationSandbox = {
    preflight: () => nodeEvaluationSandbox.preflight(),
    run: async (req) => {
      const t0 = performance.now();
      const run = await nodeEvaluationSandbox.run(req);
      callMs += performance.now() - t0;
      evaluatorMs += run.wallMs;
      return run;
    },
  };
  const dir = await mkdtemp(join(tmpdir(), 'bench-search-'));
  await writeFile(join(dir, 'evaluate.sh'), SCRIPT);
  const base = benchSpec('pace+', proposals, 1);
  const spec = { ...base, concurrency: slots, search: { ...base.search, metaEvery: 0 }, evaluator: { ...base.evaluator, command: 'sh evaluate.sh', supportFiles: [join(dir, 'evaluate.sh')], timeoutSeconds: 30 } };
  const t0 = performance.now();
  const outcome = await runSearch({
    spec,
    seedText: SEED,
    llm: scriptedProposer(0, 1),
    evaluate: sandboxEvaluator(spec, 'solve.mjs', undefined, {}, timed),
    random: new SeededRandom(1),
    emit: async () => undefined,
    signal: new AbortController().signal,
  });
  const wallMs = performance.now() - t0;
  await rm(dir, { recursive: true, force: true });
  return {
    slots,
    children: outcome.proposals,
    evaluations: outcome.evaluations,
    wallS: wallMs / 1000,
    evaluatorS: evaluatorMs / 1000,
    sandboxSetupS: (callMs - evaluatorMs) / 1000,
    busy: callMs / (wallMs * slots),
    engineS: (wallMs - callMs) / 1000,
    perSecond: outcome.evaluations / (wallMs / 1000),
  };
}
