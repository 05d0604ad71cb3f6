// An evolve run in this process, for the tests that need many runs to check a gate's statistics:
// the product's own run inputs (the workspace's spec, dataset and splits), LLM layer, scorer,
// engine and gates, with the fake endpoint answering in-process (FakeTransport) instead of over
// HTTP, and the run's journal and response cache left out (they are the Node face's, and a run
// through the built CLI covers them: evolve.test.ts checks such a run decides exactly as this one).
import { loadRunInputs } from '../../src/core/setup/spec';
import { runEvolve } from '../../src/core/evolve/loop';
import { createLlmClient } from '../../src/core/llm/client';
import { DEFAULT_RETRY } from '../../src/core/llm/retry';
import { SeededRandom } from '../../src/core/random';
import { RunBudget } from '../../src/core/run/budget';
import type { EngineEvent } from '../../src/core/journal/events';
import { NodeFiles } from '../../src/node/files';
import { SystemClock } from '../../src/node/clock';
import { NodeProcessRunner } from '../../src/node/process';
import { createNodeScorer } from '../../src/node/scorers';
import { FakeTransport } from '../fixtures/fakeOpenAI/transport';
import type { ScenarioInput } from '../fixtures/fakeOpenAI/scenario';
import { MemoryLog } from '../fixtures/llmPorts';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { WorkspaceOptions } from './evolveWorkspace';
import { roleConfig } from '../../src/node/runs/roles';

export interface InProcessOutcome {
  seed: number;
  /** What `ratchet evolve` would exit with: 0 something committed, 1 nothing accepted, 2 failed or cancelled. */
  code: number;
  /** Every event the engine emitted, in order. */
  events: EngineEvent[];
  transport: FakeTransport;
}

/** One run of a fresh workspace (`ws` with `seed`) against its scenario, in dry-run mode as `ratchet evolve` without --apply. */
export async function evolveInProcess(seed: number, ws: WorkspaceOptions, scenario: { gainAt?: number; gain?: number; validatorAccuracy?: number }): Promise<InProcessOutcome> {
  const w = makeWorkspace({ ...ws, seed });
  return runInProcess(seed, w.promptPath, scenarioFor(w, { seed, ...scenario }));
}

export async function runInProcess(seed: number, promptPath: string, scenario: ScenarioInput): Promise<InProcessOutcome> {
  const files = new NodeFiles();
  const inputs = await loadRunInputs(files, promptPath);
  const spec = inputs.spec;
  const clock = new SystemClock();
  const budget = new RunBudget(spec.budget, clock);
  const transport = new FakeTransport(scenario);
  // As startEvolveRun assembles it (src/node/runs/evolveRun.ts), less the on-disk response cache.
  const llm = createLlmClient({
    transport,
    roles: roleConfig(spec, {}, { apiKey: 'test-key' }),
    concurrency: spec.concurrency,
    timeoutMs: spec.callTimeoutSeconds * 1000,
    retry: DEFAULT_RETRY,
    admission: budget,
    clock,
    random: new SeededRandom(spec.seed).fork('llm-jitter'),
  });
  budget.measure(llm);
  const log = new MemoryLog();
  const proc = new NodeProcessRunner();
  const scorer = spec.scorer ? await createNodeScorer(spec.scorer, { baseDir: spec.baseDir, files, llm, proc }) : undefined;
  const events: EngineEvent[] = [];
  const result = await runEvolve(
    {
      runId: `inprocess-${seed}`,
      spec,
      prompt: inputs.prompt,
      template: inputs.template,
      splits: inputs.splits,
      scorer,
      ports: { llm, files, clock, random: new SeededRandom(spec.seed), log, proc },
      meter: llm,
      budget,
      control: { decide: () => Promise.resolve('accept'), apply: () => Promise.resolve('dry-run') },
    },
    async (e) => {
      events.push(e);
    },
    new AbortController().signal,
  );
  const code = result.status === 'failed' || result.status === 'cancelled' ? 2 : result.commits > 0 ? 0 : 1;
  return { seed, code, events, transport };
}
