/**
 * A seeded synthetic code search for the Programs view's tests and bench:panel, in the order the
 * engine journals it: the seed, then one proposal per island per generation (a failed
 * attempt or two before some), the gate's decision before the program's evaluation, and a ring
 * migration every few generations. Valid events only (they fold like a real search's); the
 * numbers are made up, the shape is not: parents are the island's incumbent or an earlier program
 * of its island, scores drift from the parent's, a commit raises the island's incumbent.
 */
import type { DecisionRecord } from '../../../src/core/gates/record';
import type { EngineEvent } from '../../../src/core/journal/events';
import { SeededRandom } from '../../../src/core/random';

export interface SyntheticSearchOptions {
  /** Programs proposed, the seeds included. */
  programs: number;
  islands?: number;
  seed?: number;
  runId?: string;
  startAt?: number;
  /** Wall-clock ms between two evaluations. */
  spacingMs?: number;
  migrationInterval?: number;
  models?: string[];
  /**
   * Evaluations on Slurm: each child's instances as one array job of this many shards, submitted
   * when it is proposed; the shards run and finish one after another, and the shards a decision
   * made unneeded are cancelled, as the Slurm backend journals them.
   */
  slurmShards?: number;
}

const REASONS = ['patch', 'format', 'duplicate', 'not-novel'] as const;
const KINDS = ['diff', 'diff', 'diff', 'full', 'cross'] as const;

export function syntheticSearch(o: SyntheticSearchOptions): EngineEvent[] {
  const islands = o.islands ?? 4;
  const runId = o.runId ?? 'search-1';
  const r = new SeededRandom(o.seed ?? 7);
  // Its own stream, so a search on Slurm is the same search with its tasks added.
  const cluster = new SeededRandom(o.seed ?? 7).fork('slurm');
  const models = o.models ?? ['model-a', 'model-b', 'model-c'];
  const spacing = o.spacingMs ?? 1_500;
  const migrationInterval = o.migrationInterval ?? 10;
  let at = o.startAt ?? 1_700_000_000_000;
  const events: EngineEvent[] = [];
  const emit = (e: Record<string, unknown>) => events.push({ runId, at, ...e } as EngineEvent);
  emit({ type: 'run/started', info: { kind: 'search', target: 'circle_packing.js', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: o.seed ?? 7 } });

  const score = new Map<string, number>();
  const pool: string[][] = Array.from({ length: islands }, () => []);
  const incumbent: string[] = [];
  let made = 0;
  let failures = 0;
  // As the engine does: the seed is proposed and evaluated once; each other island starts from a
  // copy of it (p0.<island>) that no event names, so its first children have a parent never seen.
  emit({ type: 'candidate/proposed', candidateId: 'p0', parentId: undefined, contentHash: 'h-p0', text: '' });
  emit({ type: 'program/evaluated', candidateId: 'p0', island: 0, correct: true, score: 0.5, instances: 30 });
  made++;
  for (let island = 0; island < islands; island++) {
    const id = island === 0 ? 'p0' : `p0.${island}`;
    score.set(id, 0.5);
    pool[island]!.push(id);
    incumbent[island] = id;
  }
  for (let generation = 1; made < o.programs; generation++) {
    for (let island = 0; island < islands && made < o.programs; island++, made++) {
      at += spacing;
      const parentId = r.next() < 0.5 ? incumbent[island]! : pool[island]![Math.floor(r.next() * pool[island]!.length)]!;
      const model = models[Math.floor(r.next() * models.length)]!;
      const kind = KINDS[Math.floor(r.next() * KINDS.length)]!;
      // Some attempts fail before the one that makes the program (the engine retries the step).
      for (let attempt = 1; r.next() < 0.15 && attempt <= 2; attempt++) {
        failures++;
        emit({ type: 'proposal/failed', parentId, island, kind, attempt, reason: REASONS[failures % REASONS.length], message: `attempt ${attempt}: the SEARCH text was not found in the parent`, model });
      }
      const id = `p${made}`;
      emit({ type: 'candidate/proposed', candidateId: id, parentId, contentHash: `h-${id}`, text: '', reasoning: `idea ${made}`, program: { island, generation, kind, model } });
      const correct = r.next() > 0.05;
      const value = Math.min(1, Math.max(0, score.get(parentId)! + (r.next() - 0.55) * 0.06));
      const best = score.get(incumbent[island]!)!;
      const commit = correct && value > best + 0.005 && r.next() < 0.8;
      const record: DecisionRecord = {
        candidateId: id,
        parentId,
        incumbentId: incumbent[island],
        gate: 'pace+',
        configHash: 'cfg',
        alpha: 0.05,
        schedule: 'per-candidate',
        ledgerBefore: { tested: made, commits: 0 },
        threshold: 20,
        orderSeed: made,
        itemsConsumed: 30,
        wins: commit ? 20 : 10,
        losses: commit ? 4 : 12,
        ties: 6,
        logWealth: commit ? 3.2 : -1.5,
        decision: commit ? 'commit' : 'reject',
        reason: commit ? 'evidence' : 'futile',
        candidateCalls: 0,
        incumbentCalls: 0,
      };
      if (o.slurmShards !== undefined) slurmTasks(emit, () => (at += 400), made, o.slurmShards, correct ? (commit ? 0.4 : 0.7) : 1 / o.slurmShards, cluster);
      if (correct) emit({ type: 'decision', record });
      emit({ type: 'program/evaluated', candidateId: id, island, correct, ...(correct ? { score: value } : {}), instances: correct ? 30 : 1 });
      if (!correct) continue;
      score.set(id, value);
      pool[island]!.push(id);
      if (commit) incumbent[island] = id;
    }
    if (islands > 1 && generation % migrationInterval === 0) {
      const moves = Array.from({ length: islands }, (_, from) => ({ programId: incumbent[from]!, from, to: (from + 1) % islands }));
      emit({ type: 'program/migrated', generation, moves });
      for (const m of moves) pool[m.to]!.push(m.programId);
    }
  }
  return events;
}

/** One child's array job: its first `share` of shards run to the end (an incorrect one stops at its first), the rest are cancelled past the verdict. */
function slurmTasks(emit: (e: Record<string, unknown>) => void, tick: () => number, job: number, shards: number, share: number, r: SeededRandom): void {
  const jobId = String(1000 + job);
  const ran = Math.max(1, Math.round(shards * share));
  emit({ type: 'slurm/submitted', jobId, programHash: `h-p${job}`, attempt: 1, dir: '/shared/run', tasks: Array.from({ length: shards }, (_, index) => ({ index, key: `k${job}.${index}` })) });
  for (let index = 0; index < ran; index++) {
    tick();
    emit({ type: 'slurm/task', jobId, index, key: `k${job}.${index}`, attempt: 1, state: 'RUNNING' });
    const timedOut = r.next() < 0.02;
    const clusterSeconds = Math.round(20 + r.next() * 40);
    tick();
    emit({ type: 'slurm/task', jobId, index, key: `k${job}.${index}`, attempt: 1, state: timedOut ? 'TIMEOUT' : 'COMPLETED', elapsedSeconds: clusterSeconds, cpus: 1, clusterSeconds, outcome: timedOut ? 'incorrect' : 'done' });
  }
  if (ran >= shards) return;
  const cancelled = Array.from({ length: shards - ran }, (_, i) => ran + i);
  emit({ type: 'slurm/cancelled', jobId, indices: cancelled, why: 'verdict' });
  for (const index of cancelled) emit({ type: 'slurm/task', jobId, index, key: `k${job}.${index}`, attempt: 1, state: 'CANCELLED', outcome: 'cancelled' });
}
