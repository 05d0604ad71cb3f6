/**
 * A code search's programs as the Programs view paints them, folded from the run's events by the
 * same code on both ends (runState.ts calls `foldProgramEvent`). Light data only: a program's
 * text, diff, stdout and evidence stay on the host and travel on request (`program/request`).
 * Pure data: no DOM, no VS Code, no Node.
 */
import type { MetricValue } from '../core/code/database';
import type { Decision, DecisionReason, DecisionRecord } from '../core/gates/record';
import type { EventOf } from '../core/run/events';
import type { PanelEvent, WealthTrace } from './webview';
import { emptyClusterTasks, foldClusterEvent } from './clusterTasks';
import type { ClusterTasks } from './clusterTasks';

/** Caps that keep a long search's memory bounded on both ends. */
export const PROGRAM_LIMITS = {
  /** Failed proposals kept (the oldest go first; `failedDropped` counts them, `failedByReason` keeps every one). */
  failedProposals: 5_000,
  /** Migrations kept. */
  migrations: 2_000,
} as const;

export type ProgramKindName = 'seed' | 'diff' | 'full' | 'cross';
export type FailureReason = EventOf<'proposal/failed'>['reason'];

export interface ProgramNode {
  id: string;
  parentId: string | undefined;
  /** When it was proposed (the seed: when the run read it). */
  proposedAt: number;
  /** The island it was proposed on: its lane in the genealogy (a migration moves it, see `migratedTo`). */
  island: number;
  generation: number;
  kind: ProgramKindName;
  /** The proposer model the bandit picked. */
  model?: string;
  /** The proposer's <NAME>. */
  name?: string;
  /** Set once the evaluator's verdict is in: its 1-based place in evaluation order (the Score-over-time x axis). */
  evalIndex?: number;
  evaluatedAt?: number;
  correct?: boolean;
  /** Mean over the instances evaluated (a gate may stop early: fewer instances than the seed's). */
  score?: number;
  instances?: number;
  /** The gate's decision against its island's incumbent; the seed and a repair have none. */
  decision?: Decision;
  reason?: DecisionReason;
  /** A correct seed, a committed child, or a repair that became its island's incumbent. */
  committed: boolean;
  /** It raised the run's best committed score: a point the best-so-far line steps to. */
  newBest?: true;
  /** Islands ring migration moved it to, in order. */
  migratedTo?: number[];
  children: number;
}

export interface FailedProposal {
  /** 1-based, over the run's failed proposals (stable when older ones are dropped). */
  n: number;
  at: number;
  parentId: string;
  island: number;
  kind: 'diff' | 'full' | 'cross';
  attempt: number;
  reason: FailureReason;
  /** Capped at 400 characters; the journal has the whole. */
  message: string;
  model?: string;
}

export interface Migration {
  at: number;
  generation: number;
  programId: string;
  from: number;
  to: number;
}

/** One step of the best-so-far line: from evaluation `evalIndex` on, the best committed score is `score`. */
export interface BestStep {
  evalIndex: number;
  at: number;
  programId: string;
  score: number;
}

export interface ModelTally {
  proposals: number;
  failed: number;
  commits: number;
}

export interface ProgramsState {
  nodes: Record<string, ProgramNode>;
  /** Program ids in proposal order. */
  order: string[];
  /** Program ids in evaluation order: `evaluated[i]` has evalIndex i + 1. */
  evaluated: string[];
  bestSteps: BestStep[];
  failed: FailedProposal[];
  failedDropped: number;
  failedByReason: Partial<Record<FailureReason, number>>;
  migrations: Migration[];
  /** The bandit's picks: proposals per proposer model (the seed's run has none when it names no model). */
  byModel: Record<string, ModelTally>;
  islands: number;
  /** A search whose evaluations run on Slurm: its tasks (clusterTasks.ts); absent for a local one. */
  cluster?: ClusterTasks;
}

/** One instance of a program's gate test: the child's score beside the score of the program it was tested against. */
export interface PairedScore {
  instanceId: string;
  /** 1-based place in the gate's pre-fixed instance order, when the e-process counted the pair. */
  k?: number;
  child: number;
  /** Absent when the run's events never said the opponent's score on this instance. */
  opponent?: number;
  /** The e-process's outcome for the pair (child − opponent on its scale; 0 is a tie). */
  delta?: number;
}

/**
 * One program as the Programs view's detail shows it, built by the host on request
 * (`program/request`) from the texts its journal's events carried. Every string in it came from an
 * LLM, a file or the evaluator: the view sets each as text.
 */
export interface ProgramDetail {
  runId: string;
  programId: string;
  parentId: string | undefined;
  /** The seed's id (the diff "from the seed" is against its text). */
  seedId: string | undefined;
  text: string;
  parentText?: string;
  seedText?: string;
  /** The proposer's <NAME> and <DESCRIPTION>. */
  name?: string;
  description?: string;
  /** The evaluator's verdict; absent while the program is under test. */
  evaluation?: {
    correct: boolean;
    score?: number;
    instances: number;
    metrics?: Record<string, MetricValue>;
    feedback?: string;
    error?: string;
    /** The end of what an incorrect program printed, capped (`omittedOutput` says how much was cut). */
    output?: string;
    omittedOutput?: number;
  };
  /** The gate's decision; the seed and a repair have none. */
  record?: DecisionRecord;
  /** Who the program was tested against (its island's incumbent then; usually its parent). */
  opponentId: string | undefined;
  pairs: PairedScore[];
  /** Pairs left out to keep the message small. */
  omittedPairs: number;
  /** The e-process's wealth, pair by pair, to the 1/α line. */
  wealth: WealthTrace;
}

export function emptyPrograms(): ProgramsState {
  return { nodes: {}, order: [], evaluated: [], bestSteps: [], failed: [], failedDropped: 0, failedByReason: {}, migrations: [], byModel: {}, islands: 1 };
}

const MESSAGE_CAP = 400;

/** Folds one event into a search's programs; events of other kinds leave it as it was. */
export function foldProgramEvent(s: ProgramsState, e: PanelEvent): void {
  switch (e.type) {
    case 'candidate/proposed': {
      if (Object.hasOwn(s.nodes, e.candidateId)) return; // a resume replays what it journaled
      const p = e.program;
      const parent = e.parentId === undefined ? undefined : s.nodes[e.parentId];
      if (parent) parent.children += 1;
      s.nodes[e.candidateId] = {
        id: e.candidateId,
        parentId: e.parentId,
        proposedAt: e.at,
        island: p?.island ?? 0,
        generation: p?.generation ?? 0,
        kind: p?.kind ?? 'seed',
        ...(p?.model ? { model: p.model } : {}),
        ...(e.reasoning ? { name: e.reasoning } : {}),
        committed: false,
        children: 0,
      };
      s.order.push(e.candidateId);
      if (p) {
        s.islands = Math.max(s.islands, p.island + 1);
        if (p.model) tally(s, p.model).proposals += 1;
      }
      return;
    }
    case 'program/evaluated': {
      const node = s.nodes[e.candidateId];
      if (!node || node.evalIndex !== undefined) return;
      s.evaluated.push(node.id);
      node.evalIndex = s.evaluated.length;
      node.evaluatedAt = e.at;
      node.correct = e.correct;
      node.instances = e.instances;
      if (e.score !== undefined) node.score = e.score;
      // The seed has no decision: a correct seed is its islands' first incumbent. A repair's
      // decision never comes either; the log says which became an incumbent, so it is not guessed here.
      if (node.parentId === undefined && e.correct) markCommitted(s, node);
      else if (node.decision === 'commit') markCommitted(s, node);
      return;
    }
    case 'decision': {
      const node = s.nodes[e.record.candidateId];
      if (!node) return;
      node.decision = e.record.decision;
      node.reason = e.record.reason;
      // The decision comes before the program's evaluation event: committed is marked once both are in.
      if (e.record.decision === 'commit' && node.evalIndex !== undefined) markCommitted(s, node);
      return;
    }
    case 'proposal/failed': {
      const n = s.failed.length + s.failedDropped + 1;
      s.failed.push({
        n,
        at: e.at,
        parentId: e.parentId,
        island: e.island,
        kind: e.kind,
        attempt: e.attempt,
        reason: e.reason,
        message: e.message.length > MESSAGE_CAP ? `${e.message.slice(0, MESSAGE_CAP - 1)}…` : e.message,
        ...(e.model ? { model: e.model } : {}),
      });
      s.failedByReason[e.reason] = (s.failedByReason[e.reason] ?? 0) + 1;
      if (e.model) tally(s, e.model).failed += 1;
      if (s.failed.length > PROGRAM_LIMITS.failedProposals) {
        s.failed.shift();
        s.failedDropped += 1;
      }
      s.islands = Math.max(s.islands, e.island + 1);
      return;
    }
    case 'program/migrated':
      for (const m of e.moves) {
        const node = s.nodes[m.programId];
        if (node) (node.migratedTo ??= []).push(m.to);
        s.migrations.push({ at: e.at, generation: e.generation, programId: m.programId, from: m.from, to: m.to });
        s.islands = Math.max(s.islands, m.from + 1, m.to + 1);
      }
      if (s.migrations.length > PROGRAM_LIMITS.migrations) s.migrations.splice(0, s.migrations.length - PROGRAM_LIMITS.migrations);
      return;
    case 'slurm/submitted':
    case 'slurm/task':
    case 'slurm/cancelled':
    case 'slurm/attached':
    case 'slurm/status':
      foldClusterEvent((s.cluster ??= emptyClusterTasks()), e);
      return;
    default:
      return;
  }
}

function markCommitted(s: ProgramsState, node: ProgramNode): void {
  if (node.committed) return;
  node.committed = true;
  if (node.model) tally(s, node.model).commits += 1;
  if (node.score === undefined || node.evalIndex === undefined) return;
  const best = s.bestSteps.at(-1);
  if (best && best.score >= node.score) return;
  node.newBest = true;
  s.bestSteps.push({ evalIndex: node.evalIndex, at: node.evaluatedAt ?? node.proposedAt, programId: node.id, score: node.score });
}

function tally(s: ProgramsState, model: string): ModelTally {
  return (s.byModel[model] ??= { proposals: 0, failed: 0, commits: 0 });
}

