/**
 * One run of the product's evolve loop (core/evolve/loop.ts: parent choice, feedback minibatch,
 * proposer messages, the gate runner with its screen, cache and thresholds) in a simulated world,
 * with the ports faked in-process (simLlm.ts) and the schedule under test. What a run of budget
 * B would have ended on is read off one run of the largest budget: nothing the loop decides
 * depends on the agent-call budget, and the call past B is where a run of budget B stops.
 */
import { createScorer } from '../../src/core/data/scorers/registry';
import type { DataItem } from '../../src/core/data/item';
import { runEvolve } from '../../src/core/evolve/loop';
import type { Metered } from '../../src/core/evolve/loop';
import type { Schedule } from '../../src/core/gates/schedules';
import type { EngineEvent } from '../../src/core/journal/events';
import type { CostReport } from '../../src/core/llm/types';
import { ROLES } from '../../src/core/llm/types';
import type { Ports } from '../../src/core/ports';
import { SeededRandom } from '../../src/core/random';
import { loadRunInputs } from '../../src/core/setup/spec';
import type { RunInputs } from '../../src/core/setup/spec';
import { memFiles } from '../../test/unit/data/fakeFiles';
import { SimLlm, START_BODY, sentencesOf } from './simLlm';
import type { Sentence, World } from './world';
import { hasReal, trueQuality } from './world';

/** What one run of an arm shows, at each budget of the bench. */
export interface ArmRun {
  /** True quality of the prompt a run of this budget ends on. */
  qualityAt: Map<number, number>;
  /** Whether that prompt differs from the start. */
  changedAt: Map<number, boolean>;
  /** Whether it holds the real sentence. */
  realAt: Map<number, boolean>;
  /** Agent calls spent when a prompt with the real sentence was first admitted; undefined: never. */
  firstRealAt: number | undefined;
  /** Candidates not truly better than what they were compared with, and how many of those were admitted. */
  nonImproving: { proposed: number; admitted: number };
  proposals: number;
  agentCalls: number;
}

let template: Promise<RunInputs> | undefined;

/** The run spec and prompt every simulated run starts from (splits and seed are set per run). */
function inputs(): Promise<RunInputs> {
  template ??= loadRunInputs(
    memFiles({
      '/w/gsm.prompt.md': `---\ndescription: GSM8K, simulated\n---\n${START_BODY}`,
      '/w/gsm.jsonl': `${JSON.stringify({ id: 'x', question: 'What is 1 + 1?', expected: 2 })}\n`,
      '/w/gsm.ratchet.yaml': ['dataset: gsm.jsonl', 'split: { feedback: 0, dev: 1, test: 0 }', 'scorer: numeric', 'gate: pace+', 'mode: autopilot'].join('\n'),
    }),
    '/w/gsm.prompt.md',
  );
  return template;
}

function dataItems(items: World['dev']): DataItem[] {
  return items.map((it) => ({ id: `gsm${it.index}`, vars: { question: it.question }, expected: it.answer, source: { file: 'gsm8k/test.jsonl', line: it.index + 1 } }));
}

export async function ratchetRun(w: World, schedule: Schedule, budgets: readonly number[]): Promise<ArmRun> {
  const base = await inputs();
  const largest = Math.max(...budgets);
  const spec = { ...base.spec, seed: w.seed, gate: { ...base.spec.gate, schedule }, budget: { candidates: 1_000_000 } };
  const texts = new Map<string, string>();
  let incumbent: Sentence[] = [];
  const run: ArmRun = { qualityAt: new Map(), changedAt: new Map(), realAt: new Map(), firstRealAt: undefined, nonImproving: { proposed: 0, admitted: 0 }, proposals: 0, agentCalls: 0 };
  const snapshot = (b: number) => {
    if (run.qualityAt.has(b)) return;
    run.qualityAt.set(b, trueQuality(w, incumbent));
    run.changedAt.set(b, incumbent.length > 0);
    run.realAt.set(b, hasReal(incumbent));
  };
  const llm = new SimLlm(w, largest, { onAgentCall: (n) => budgets.forEach((b) => n === b + 1 && snapshot(b)) });
  const onEvent = async (e: EngineEvent) => {
    if (e.type === 'candidate/proposed') texts.set(e.candidateId, e.text);
    if (e.type !== 'decision') return;
    const cand = sentencesOf(w, texts.get(e.record.candidateId) ?? '');
    const improving = trueQuality(w, cand) > trueQuality(w, incumbent) + 1e-12;
    if (!improving) run.nonImproving.proposed++;
    if (e.record.decision !== 'commit') return;
    if (!improving) run.nonImproving.admitted++;
    if (run.firstRealAt === undefined && hasReal(cand) && !hasReal(incumbent)) run.firstRealAt = llm.agentCalls;
    incumbent = cand;
  };
  const ports: Ports = {
    llm,
    files: memFiles({}),
    clock: { now: () => 0, sleep: async () => undefined },
    random: new SeededRandom(w.seed),
    log: { log: () => undefined },
    proc: { run: () => Promise.reject(new Error('no processes in a simulated run')) },
  };
  const result = await runEvolve(
    {
      runId: `sim-${w.kind}-${w.seed}`,
      spec,
      prompt: base.prompt,
      template: base.template,
      splits: { feedback: dataItems(w.feedback), dev: dataItems(w.dev), test: [] },
      scorer: await createScorer(spec.scorer!, { baseDir: spec.baseDir }),
      ports,
      meter: meterOf(llm),
      control: { decide: async () => 'accept', apply: async () => 'dry-run' },
    },
    onEvent,
    new AbortController().signal,
  );
  if (result.status !== 'finished') throw new Error(`simulated run ${w.kind} seed ${w.seed} ${result.status}`);
  for (const b of budgets) snapshot(b); // a run that stopped before spending b ends where it stopped
  run.proposals = llm.proposals;
  run.agentCalls = llm.agentCalls;
  return run;
}

function meterOf(llm: SimLlm): Metered {
  return {
    cost: () => Object.fromEntries(ROLES.map((r) => [r, { calls: r === 'agent' ? llm.agentCalls : 0, cachedCalls: 0, retries: 0, promptTokens: 0, completionTokens: 0, dollars: undefined }])) as unknown as CostReport,
    totalCalls: () => llm.agentCalls + llm.proposals,
    totalDollars: () => undefined,
  };
}
