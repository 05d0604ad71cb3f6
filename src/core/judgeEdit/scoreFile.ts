/**
 * An evaluation run: one prompt file's score on its dev or test split, with a 95 % interval — what
 * the editor's Evaluate does on the test split, and what an agent asks (`ratchet mcp`'s evaluate)
 * before and after its own edits. Journaled as a run of kind `evaluate`: the items, the version,
 * every item's score and output, and the report (`report/test`, with its split).
 *
 * A budget that stops it midway leaves no report: a mean over the items that happened to finish
 * first is not the split's score.
 */
import type { DataItem } from '../data/item';
import type { Scorer } from '../data/scorers/types';
import { RatchetError, isCancellation } from '../errors';
import type { EngineEvent } from '../journal/events';
import type { RunSummaryInfo, ScoreInterval } from '../journal/payloadTypes';
import type { EventPayload } from '../journal/control';
import type { Ports } from '../ports';
import type { PromptFile } from '../prompt/promptFile';
import { evolvableText } from '../prompt/evolvable';
import type { AgentHarness } from '../evolve/harness';
import { fileHarness } from './judgeEdit';
import type { Metered } from '../run/budget';
import { budgetOf } from '../run/budget';
import type { RunSpec } from '../run/specTypes';
import { Evaluator } from '../evolve/evaluator';
import { datasetItemInfo } from '../evolve/loop';
import { meanInterval } from '../evolve/report';
import { makeVersion } from '../evolve/versions';

export interface ScoreFileOptions {
  runId: string;
  spec: RunSpec;
  file: PromptFile;
  split: 'dev' | 'test';
  items: readonly DataItem[];
  scorer: Scorer;
  ports: Pick<Ports, 'llm' | 'clock'>;
  /** A `harness: command` run's, from its face; default: the file kind's chat harness. */
  harness?: AgentHarness;
  meter: Metered;
  budget?: RunSummaryInfo['budget'];
  estimate?: RunSummaryInfo['estimate'];
  models?: RunSummaryInfo['models'];
}

export interface ScoreFileOutcome {
  status: 'finished' | 'cancelled' | 'failed';
  /** The mean score with its 95 % interval over `n` items; undefined when a budget stopped it. */
  score?: ScoreInterval & { n: number };
  stoppedBy?: string;
  error?: { code: string; message: string };
}

export async function runScoreFile(o: ScoreFileOptions, emitEvent: (e: EngineEvent) => Promise<void>, signal: AbortSignal): Promise<ScoreFileOutcome> {
  const emit = (e: EventPayload<EngineEvent>) => emitEvent({ ...e, runId: o.runId, at: o.ports.clock.now() } as EngineEvent);
  const v0 = makeVersion('v0', evolvableText(o.file), undefined);
  await emit({
    type: 'run/started',
    info: {
      kind: 'evaluate',
      target: o.file.path,
      gate: o.spec.gate.name,
      alpha: o.spec.gate.alpha,
      mode: 'suggest',
      seed: o.spec.seed,
      budget: { candidates: 0, ...o.budget },
      ...(o.estimate ? { estimate: o.estimate } : {}),
      ...(o.models ? { models: o.models } : {}),
    },
  });
  await emit({ type: 'dataset/loaded', items: o.items.map((item) => datasetItemInfo(item, o.split)) });
  try {
    await emit({ type: 'candidate/proposed', candidateId: v0.id, parentId: undefined, contentHash: v0.hash, text: v0.text, reasoning: `The text of ${o.file.path}.` });
    const evaluator = new Evaluator({ harness: o.harness ?? fileHarness(o.file, o.spec, o.ports.llm), scorer: o.scorer });
    let evals;
    try {
      evals = await Promise.all(o.items.map((item) => evaluator.evaluate(v0.hash, v0.text, item, signal)));
    } catch (err) {
      if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
      const stoppedBy = budgetOf(err);
      await emit({ type: 'log', level: 'info', message: `Budget reached (${stoppedBy}) before every item was scored; no score is reported.` });
      await emit({ type: 'cost/update', cost: o.meter.cost(), llmCalls: o.meter.totalCalls() });
      await emit({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: v0.id });
      return { status: 'finished', stoppedBy };
    }
    // In item order, after the concurrent calls: the same journal on every run of the same inputs.
    for (const e of evals) await emit({ type: 'item/evaluated', candidateId: v0.id, itemId: e.itemId, score: e.score ?? 0, cached: false, output: e.output });
    const score = { ...meanInterval(evals.map((e) => e.score ?? 0)), n: evals.length };
    const baseline = { candidateId: v0.id, mean: score.mean, lo: score.lo, hi: score.hi };
    await emit({ type: 'report/test', split: o.split, n: score.n, baseline, final: baseline, difference: { mean: 0, lo: 0, hi: 0 } });
    await emit({ type: 'cost/update', cost: o.meter.cost(), llmCalls: o.meter.totalCalls() });
    await emit({ type: 'run/finished', commits: 0, candidates: 0, incumbentId: v0.id });
    return { status: 'finished', score };
  } catch (err) {
    if (isCancellation(err) || signal.aborted) {
      await emit({ type: 'run/cancelled' });
      return { status: 'cancelled' };
    }
    const error = RatchetError.is(err) ? { code: err.code, message: err.message } : { code: 'internal', message: err instanceof Error ? err.message : String(err) };
    await emit({ type: 'run/failed', error });
    return { status: 'failed', error };
  }
}
