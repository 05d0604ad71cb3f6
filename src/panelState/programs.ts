/**
 * A code search's programs as the Programs view paints them, folded from the run's events by the
 * same code on both ends (runState.ts calls `foldProgramEvent`). Light data only: a program's
 * text, diff, stdout and evidence stay on the host and travel on request (`program/request`).
 * Pure data: no DOM, no VS Code, no Node.
 */
import { emptyClusterTasks, foldClusterEvent } from './clusterTasks';
import type { ModelTally, PanelEvent, ProgramNode, ProgramsState } from './types';

/** Caps that keep a long search's memory bounded on both ends. */
export const PROGRAM_LIMITS = {
  /** Failed proposals kept (the oldest go first; `failedDropped` counts them, `failedByReason` keeps every one). */
  failedProposals: 5_000,
  /** Migrations kept. */
  migrations: 2_000,
} as const;

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
