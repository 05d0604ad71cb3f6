/**
 * The judge run of a program: one candidate text of a code-search file against the file's current
 * text, tested once with the code search's paired gate (code/gate.ts `testChild`) on the
 * evaluator's instances — the same test a search gives a child against its incumbent, without the
 * search. The file's program is evaluated whole first (its instances and scores, 4.3); the
 * candidate then in an order seeded by its hash (A2), shard by shard, stopping at the verdict.
 *
 * A candidate may change only what a code search may change: the text inside the EVOLVE-BLOCK
 * regions. The frozen text (the harness the evaluator relies on) must come back byte for byte, or
 * the candidate could rewrite what measures it. An evaluator that reports one score for the whole
 * program, without `evaluator.repeats`, cannot be tested in pairs: refused.
 */
import { RatchetError } from '../errors';
import { frozenSegments, parseBlocks } from '../code/blocks';
import { scoreCache, testChild } from '../code/gate';
import type { CodeGateSpec, ShardEvaluator } from '../code/gate';
import { textHash } from '../code/novelty';
import { repeatSeeds } from '../code/runInstances';
import type { ProgramEvaluator } from '../code/search';
import type { CodeRunSpec } from '../code/spec';
import { isPaceGate } from '../gates/gateTable';
import type { GateName } from '../gates/gateTable';
import { EMPTY_LEDGER } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import type { EngineEvent } from '../journal/events';
import type { RunSummaryInfo } from '../journal/payloadTypes';
import type { EventPayload, RunControl } from '../journal/control';
import { runEnding } from '../journal/runEnding';
import type { Clock } from '../ports';
import { budgetOf } from '../run/budget';
import { applyCandidate } from './judgeEdit';
import type { JudgeEditOutcome, JudgedPair } from './judgeEdit';

export interface JudgeProgramOptions {
  runId: string;
  spec: CodeRunSpec;
  /** The program file, as messages and the journal name it. */
  file: string;
  incumbentText: string;
  candidateText: string;
  /** The evaluator (in the sandbox, through the evaluation cache): every evaluator run of this test. */
  evaluate: ProgramEvaluator;
  clock: Clock;
  gate: CodeGateSpec;
  ledger?: RunLedger;
  apply?: RunControl;
  reasoning?: string;
  budget?: RunSummaryInfo['budget'];
}

/** The code gate a judge test uses: the spec's when it is anytime-valid, else PACE+ (say which it replaced). */
export function judgeProgramGate(spec: Pick<CodeRunSpec, 'gate'>): { gate: CodeGateSpec; substituted?: GateName } {
  const g = spec.gate;
  const name = isPaceGate(g.name) && (g.name === 'pace' || g.name === 'pace+') ? g.name : 'pace+';
  const gate: CodeGateSpec = { name, alpha: g.alpha, schedule: 'per-candidate', population: g.population, ...(g.horizon === undefined ? {} : { horizon: g.horizon }) };
  return name === g.name ? { gate } : { gate, substituted: g.name };
}

/** Refuses, before any evaluation, a candidate that is no edit or that touches the frozen text. */
export function checkProgramCandidate(file: string, incumbentText: string, candidateText: string): void {
  if (candidateText === incumbentText) throw new RatchetError('badInput', `The candidate is the text ${file} already holds: there is no edit to judge.`, { file, field: 'candidate' });
  const before = parseBlocks(incumbentText, file);
  const after = parseBlocks(candidateText, `${file} (the candidate)`);
  const frozen = frozenSegments(incumbentText, before);
  const kept = frozenSegments(candidateText, after);
  if (before.regions.length !== after.regions.length || frozen.some((segment, i) => segment !== kept[i])) {
    throw new RatchetError(
      'badInput',
      `The candidate changes ${file} outside its EVOLVE-BLOCK regions (or their markers); only the text inside them may change, since the frozen code is what its evaluator relies on. Send the edit of the blocks alone.`,
      { file, field: 'candidate' },
    );
  }
}

export async function runJudgeProgram(o: JudgeProgramOptions, emitEvent: (e: EngineEvent) => Promise<void>, signal: AbortSignal): Promise<JudgeEditOutcome> {
  const emit = (e: EventPayload<EngineEvent>) => emitEvent({ ...e, runId: o.runId, at: o.clock.now() } as EngineEvent);
  const ledger = o.ledger ?? EMPTY_LEDGER;
  const pairs: JudgedPair[] = [];
  let items = 0;
  const outcome = (status: JudgeEditOutcome['status'], rest: Partial<JudgeEditOutcome> = {}): JudgeEditOutcome => ({ status, verdict: undefined, record: undefined, pairs, items, ledgerAfter: ledger, ...rest });
  const e = o.spec.evaluator;
  const parent = { id: 'v0', hash: textHash(o.incumbentText) };
  const child = { id: 'c1', hash: textHash(o.candidateText) };
  await emit({ type: 'run/started', info: { kind: 'judge', target: o.file, gate: o.gate.name, alpha: o.gate.alpha, mode: o.apply ? 'autopilot' : 'suggest', seed: o.spec.seed, ...(o.budget ? { budget: o.budget } : {}) } });
  try {
    await emit({ type: 'candidate/proposed', candidateId: parent.id, parentId: undefined, contentHash: parent.hash, text: o.incumbentText, reasoning: `The program in ${o.file} when the test started.` });
    await emit({ type: 'candidate/proposed', candidateId: child.id, parentId: parent.id, contentHash: child.hash, text: o.candidateText, reasoning: o.reasoning ?? 'The candidate sent to be judged.' });
    // The file's program whole: which instances there are, and its score on each (its cache entries).
    const seeds = e.repeats === undefined ? undefined : repeatSeeds(e.repeats);
    const first = await o.evaluate(o.incumbentText, seeds, signal);
    if (!first.correct) throw new RatchetError('badInput', `The program in ${o.file} is incorrect by its evaluator (${first.error ?? 'no reason given'}): there is nothing correct to test the candidate against.`, { file: o.file });
    const instances = seeds ?? Object.keys(first.instances ?? {});
    if (instances.length === 0) {
      throw new RatchetError('badInput', `The evaluator of ${o.file} reports one score for the whole program: a paired test needs a score per instance, or evaluator.repeats: N to score it on N seeds.`, { field: 'evaluator.repeats' });
    }
    items = instances.length;
    const cache = scoreCache();
    for (const id of instances) {
      const y = first.instances?.[id];
      if (y === undefined || !Number.isFinite(y)) throw new RatchetError('badInput', `The evaluator gave the program in ${o.file} no score for instance ${id}.`, { instanceId: id });
      if (y < e.scoreRange.lo || y > e.scoreRange.hi)
        throw new RatchetError('badInput', `The program in ${o.file} scored ${y} on instance ${id}, outside evaluator.scoreRange [${e.scoreRange.lo}, ${e.scoreRange.hi}]; declare the range the scores take.`, {
          field: 'evaluator.scoreRange',
        });
      cache.set(parent.hash, id, y);
      await emit({ type: 'item/evaluated', candidateId: parent.id, itemId: id, score: y, cached: false });
    }
    const evaluate: ShardEvaluator = async (program, ids, s) => {
      const text = program.hash === child.hash ? o.candidateText : o.incumbentText;
      const whole = ids.length === instances.length;
      const r = await o.evaluate(text, whole && seeds === undefined ? undefined : ids, s);
      if (!r.correct) return { correct: false, error: r.error ?? 'the evaluator found it incorrect' };
      const scores: Record<string, number> = {};
      for (const id of ids) {
        const y = r.instances?.[id];
        if (y === undefined || !Number.isFinite(y)) return { correct: false, error: `the evaluator gave no score for instance ${id}` };
        scores[id] = y;
        // As a search keeps them: each step's journal line reads the child's score from here.
        cache.set(program.hash, id, y);
      }
      return { correct: true, scores };
    };
    let result;
    try {
      result = await testChild(
        {
          gate: o.gate,
          runSeed: o.spec.seed,
          instances,
          range: e.scoreRange,
          shardSize: e.shards ? e.shardSize : instances.length,
          parallelShards: Math.max(1, Math.floor(o.spec.concurrency / 2)),
          evaluate,
          cache,
          onStep: async (id, step) => {
            pairs.push({ itemId: id, delta: step.delta });
            await emit({ type: 'item/evaluated', candidateId: child.id, itemId: id, score: cache.get(child.hash, id) ?? NaN, cached: false });
            await emit({ type: 'wealth/step', candidateId: child.id, k: step.k, itemId: id, delta: step.delta, logWealth: step.logWealth, logThreshold: step.logThreshold, logBest: step.logBest });
          },
          signal,
        },
        child,
        parent,
        ledger,
      );
    } catch (err) {
      if (!RatchetError.is(err, 'budgetExhausted') || signal.aborted) throw err;
      const stoppedBy = budgetOf(err);
      await emit({ type: 'candidate/stopped', candidateId: child.id, reason: 'budget', budget: stoppedBy });
      await emit({ type: 'run/finished', commits: 0, candidates: 1, incumbentId: parent.id });
      return outcome('finished', { verdict: 'undecided', stoppedBy });
    }
    const scores = [...result.childScores.values()];
    await emit({
      type: 'program/evaluated',
      candidateId: child.id,
      island: 0,
      correct: result.incorrect === undefined,
      ...(scores.length > 0 && result.incorrect === undefined ? { score: scores.reduce((a, b) => a + b, 0) / scores.length } : {}),
      instances: result.childScores.size,
      ...(result.incorrect === undefined ? {} : { error: result.incorrect }),
    });
    await emit({ type: 'decision', record: result.record });
    const committed = result.record.decision === 'commit';
    const applied = committed && o.apply ? await applyCandidate(o.apply, { candidateId: child.id, file: o.file, baseText: o.incumbentText, newText: o.candidateText }, emit) : undefined;
    await emit({ type: 'run/finished', commits: committed ? 1 : 0, candidates: 1, incumbentId: committed ? child.id : parent.id });
    return outcome('finished', { verdict: committed ? 'commit' : 'reject', record: result.record, ledgerAfter: result.ledgerAfter, ...(applied ? { applied } : {}) });
  } catch (err) {
    const ending = runEnding(err, signal);
    await emit(ending.event);
    return ending.cancelled ? outcome('cancelled') : outcome('failed', { error: ending.error });
  }
}
