/**
 * What the gate (gate.ts) is given to test one child of a code search against its island's
 * incumbent: the run's instances and score range, its evaluator slots (shard by shard, or a batch
 * backend's one submission), the score cache, the child's e-process steps held back as the
 * proposal's events, and for gate `pairwise` the validator.
 */
import type { LlmClient } from '../ports';
import type { CodeGateContext, PairwiseValidator, ScoreCache } from './gateTypes';
import type { Evaluations, ProgramBatchEvaluator } from './evaluations';
import { pairwiseValidator } from './pairwiseValidator';
import type { Child, Proposal } from './proposal';
import type { RunInstances } from './runInstances';
import type { CodeRunSpec } from './spec';

export interface ChildGateSetting {
  spec: CodeRunSpec;
  llm: LlmClient;
  instances: RunInstances;
  evaluations: Evaluations;
  evaluateShards?: ProgramBatchEvaluator;
  cache: ScoreCache;
  /** Each program's text by id. */
  texts: ReadonlyMap<string, string>;
  signal: AbortSignal;
}

export function childGateContext(s: ChildGateSetting, p: Proposal, child: Child): CodeGateContext {
  const { spec, instances, evaluations, cache } = s;
  const e = spec.evaluator;
  return {
    // Per-instance scores always go through the paired gate; only one repeatable score needs none.
    gate: { ...spec.gate, name: instances.deterministic && evaluations.singleScore ? 'greedy' : spec.gate.name },
    runSeed: spec.seed,
    instances: instances.ids,
    range: e.scoreRange,
    shardSize: e.shards ? e.shardSize : instances.ids.length,
    parallelShards: Math.max(1, Math.floor(spec.concurrency / 2)),
    evaluate: evaluations.shardEvaluator(),
    // A batch backend takes a sharded test's shards in one submission; a whole evaluation is one call either way.
    ...(s.evaluateShards && e.shards && !evaluations.singleScore ? { evaluateBatch: evaluations.shardBatchEvaluator(s.evaluateShards) } : {}),
    cache,
    onStep: async (instanceId, step) => {
      p.events.push(
        { type: 'item/evaluated', candidateId: child.id, itemId: instanceId, score: cache.get(child.hash, instanceId) ?? NaN, cached: false },
        { type: 'wealth/step', candidateId: child.id, k: step.k, itemId: instanceId, delta: step.delta, logWealth: step.logWealth, logThreshold: step.logThreshold, logBest: step.logBest },
      );
    },
    ...(spec.gate.name === 'pairwise' ? { pairwise: childValidator(s, p, child) } : {}),
    signal: s.signal,
  };
}

function childValidator(s: ChildGateSetting, p: Proposal, child: Child): PairwiseValidator {
  const { spec } = s;
  const setting = { llm: s.llm, runSeed: spec.seed, programPath: spec.programPath, instances: s.instances.ids.length, range: spec.evaluator.scoreRange, reportOf: (hash: string) => s.evaluations.reportOf(hash) };
  return pairwiseValidator(setting, child, { textHash: p.incumbent.textHash, text: s.texts.get(p.incumbent.id)! });
}
