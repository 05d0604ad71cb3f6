/**
 * Everything a face shows, as one discriminated union. The journal stores these one per line; the
 * CLI's --json prints them; the panel and the server render them. Faces never compute decisions.
 */
import type { DecisionRecord } from '../gates/record';
import type { CostReport } from '../llm/types';
import type { DatasetItemInfo, EvaluationIsolation, Exemplar, FormatDiscardReason, HistogramBin, JsonRepair, MetricValue, ProposedProgram, Reliability, RunSummaryInfo, ScoreInterval, SlurmTaskInfo, ZeroTaskInfo } from './payloadTypes';

interface Base {
  runId: string;
  /** Milliseconds since the epoch, from the Clock port. */
  at: number;
  /**
   * The event's place in its run's journal: 1, 2, … without gaps, across resumes. The journal
   * writer sets it (the engine emits events without it); a journal written before it existed is
   * numbered when read, so every event a face receives carries one (`JournaledEvent`).
   */
  seq?: number;
}

export type EngineEvent = Base &
  (
    | { type: 'run/started'; info: RunSummaryInfo; resumed?: boolean }
    | {
        /**
         * The items' inputs as text, once per run, so evidence can show what each item asked and the
         * Results view what each row is. `expected` and `vars` are absent from journals written
         * before the Results view existed (and `expected` from unlabeled items).
         */
        type: 'dataset/loaded';
        items: DatasetItemInfo[];
      }
    | {
        type: 'candidate/proposed';
        candidateId: string;
        parentId: string | undefined;
        contentHash: string;
        text: string;
        reasoning?: string;
        /** The proposer model's reasoning section, apart from its answer (#25): shown folded, never read for the candidate. */
        thinking?: string;
        /** Code search: where the proposal put the program and who wrote it (absent for prompts and for the seed). */
        program?: ProposedProgram;
      }
    | {
        type: 'item/evaluated';
        candidateId: string;
        itemId: string;
        score: number;
        cached: boolean;
        /** The agent's final answer, reasoning removed (#25). */
        output?: string;
        /** The agent's reasoning section, apart from its output: never scored. */
        thinking?: string;
        /** The judging scorer's judge gave no grade, asked twice: why. `score` is then no score (0 as a placeholder) and no gate used it. */
        abstained?: string;
      }
    | {
        type: 'verdict';
        candidateId: string;
        parentId: string;
        itemId: string | undefined;
        /** Which version sat in slot A. */
        order: 'child-first' | 'parent-first';
        /** `abstained`: asked twice, the judge wrote no verdict that can be read (#25); never a tie. */
        winner: 'child' | 'parent' | 'tie' | 'abstained';
        rationale?: string;
        /** Why no verdict was read, when the judge abstained: what it was told when asked again. */
        problem?: string;
        /** The judge's reasoning, apart from its answer: shown folded, never read for the verdict. */
        thinking?: string;
      }
    | {
        type: 'wealth/step';
        candidateId: string;
        /** 1-based position in the pre-fixed item order. */
        k: number;
        itemId: string;
        delta: number;
        logWealth: number;
        logThreshold: number;
        /** Log of the best wealth still reachable: below logThreshold means futile. */
        logBest: number;
        /** The item was consumed without an outcome: the judge did not answer (not a tie). */
        abstained?: true;
      }
    | { type: 'decision'; record: DecisionRecord }
    | { type: 'suggestion'; candidateId: string; file: string; baseText: string; newText: string }
    | { type: 'edit/applied'; candidateId: string; file: string; by: 'autopilot' | 'user' }
    | {
        /**
         * The edit was not written. By the user (Reject), or by the run: a code search's newer
         * best `superseded` a suggestion still waiting for an answer, or the file had changed so
         * the edit did not apply (`stale`; it was not written over the user's text).
         */
        type: 'edit/rejected';
        candidateId: string;
        file: string;
        by: 'user' | 'run';
        /** Present exactly when `by` is 'run'. */
        reason?: 'superseded' | 'stale';
        why?: string;
      }
    | { type: 'cost/update'; cost: CostReport; llmCalls: number }
    | {
        /** Adaptive Focus: the meta role rewrote the judge's rubric between two tests. */
        type: 'rubric/updated';
        version: number;
        rubric: string;
        why?: string;
      }
    | {
        /** Elo and the Bradley–Terry refit after a match; selectP = parent-selection probability. */
        type: 'ratings';
        ratings: { candidateId: string; elo: number; bt?: number; lo?: number; hi?: number; selectP: number }[];
      }
    | {
        /** The held-out test split, scored once at the end: generalisation, not dev-set luck. */
        type: 'report/test';
        /** The split scored: absent, the test split; `dev` when an evaluation was asked of the dev split (`ratchet mcp`'s evaluate). */
        split?: 'dev' | 'test';
        n: number;
        baseline: ScoreInterval & { candidateId: string };
        final: ScoreInterval & { candidateId: string };
        /** Paired difference final − baseline with a 95 % interval. */
        difference: ScoreInterval;
      }
    | { type: 'log'; level: 'info' | 'warn'; message: string }
    | {
        /**
         * An LLM call is waiting before its next attempt: the provider asked for patience (429/503
         * with Retry-After: 'rate-limited') or a transient failure is being retried ('retry').
         * Incidental: how often it happens depends on the endpoint, not on the run's seed.
         */
        type: 'llm/waiting';
        role: string;
        /** Absent: the role names no model, the editor's models pick one. */
        model?: string;
        why: 'rate-limited' | 'retry';
        waitMs: number;
        status?: number;
        message: string;
      }
    | {
        /**
         * This process took the run up again from its journal. `elapsedMs` is the run's active time
         * before it (what its wall-time budget has used), summed over earlier processes.
         */
        type: 'run/resumed';
        elapsedMs: number;
      }
    | {
        /**
         * A budget ran out while a candidate was under test: it is neither committed nor rejected
         * (no decision on partial evidence), and the run ends after this.
         */
        type: 'candidate/stopped';
        candidateId: string;
        reason: 'budget';
        budget: string;
      }
    | {
        /**
         * Code search: a proposal that never became a program to evaluate — its answer could not be
         * read or applied (answered in the same chat, `attempt` counts), or it repeats a program.
         */
        type: 'proposal/failed';
        parentId: string;
        island: number;
        kind: 'diff' | 'full' | 'cross';
        attempt: number;
        reason: 'format' | 'patch' | 'duplicate' | 'not-novel';
        message: string;
        /** The proposer model the bandit picked for it. */
        model?: string;
      }
    | {
        /** Code search: what the evaluator said of a program, once its gate test (or seed evaluation) is over. */
        type: 'program/evaluated';
        candidateId: string;
        island: number;
        correct: boolean;
        /** Mean over the instances evaluated. */
        score?: number;
        instances: number;
        feedback?: string;
        /** The evaluator's public metrics, merged over the shards it ran (the proposer sees these too). */
        metrics?: Record<string, MetricValue>;
        error?: string;
        /** The end of what an incorrect program printed (stderr, then stdout). */
        output?: string;
        /** How far the evaluation was isolated from the machine (isolationWords says it). */
        isolation?: EvaluationIsolation;
        /** What the sandbox saw: limits hit, processes left, late writes, escapes tried. */
        incidents?: string[];
      }
    | {
        /**
         * Code search: what confines its evaluations on the machine this process runs on, said at
         * each start (a resume on another machine may say otherwise): incidental, never replayed.
         */
        type: 'sandbox/preflight';
        /** The tier evaluations get here, with the network the spec asks for. */
        isolation: EvaluationIsolation;
        /** `evaluator.isolation` as the spec sets it. */
        setting: string;
        /** bubblewrap's version and path, or why there is none. */
        jail: string;
        /** How processes, memory, disk and each process are capped here, in words. */
        limits: string;
        /** What a Ratchet process that died left and this start swept, in words. */
        swept?: string;
        /** What the sandbox does not guarantee here. */
        caveats: string[];
      }
    | {
        /** Code search: ring migration moved these committed programs to the next island (after generation `generation`). */
        type: 'program/migrated';
        generation: number;
        moves: { programId: string; from: number; to: number }[];
      }
    | {
        /** Code search: the meta role's recommendations after `afterProgram`, one given to each later proposal in turn. */
        type: 'meta/notes';
        afterProgram: string;
        recommendations: string[];
      }
    | {
        /**
         * One zero-data round (core/zero/rounds.ts), everything it decided as data for the Zero-data
         * tab: what the Challenger wrote and why tasks were dropped, the dev tasks kept and the
         * held-out (test) tasks, the histograms over every judged task, the judge's reliability per
         * pair type (measured with `exemplarsUsed`, the previous round's choice) and the exemplars
         * chosen for the next round.
         */
        type: 'zero/round';
        round: number;
        /** Tasks asked for, and blocks the Challenger wrote (well-formed or not). */
        requested: number;
        written: number;
        discarded: {
          format: Record<FormatDiscardReason, number>;
          duplicate: number;
          /** Every answer's score was an abstention. */
          unjudged: number;
          lowDispersion: number;
          notInTopK: number;
        };
        /**
         * How the Challenger's task JSON had to be repaired to be read (a fence, a label line, a
         * trailing comma, a comment, a line break inside a string), counted by kind; absent when
         * nothing was (#25). A block may need several.
         */
        repaired?: Record<JsonRepair, number>;
        kept: ZeroTaskInfo[];
        heldOut: ZeroTaskInfo[];
        tooEasy: number;
        tooHard: number;
        difficultyHistogram: HistogramBin[];
        dispersionHistogram: HistogramBin[];
        reliability: Reliability[];
        exemplarsUsed: string[];
        /** Whole worked examples, so the tab can show what the judge was taught. */
        exemplars: Exemplar[];
        /** The incumbent's mean judged score on the held-out tasks, n answers. */
        heldOutScore?: ScoreInterval & { n: number };
      }
    | {
        /**
         * Code search on Slurm (issue #18): an array job was submitted, one task per shard. Journaled
         * before the run relies on the job, so a resume re-attaches to it instead of submitting again.
         */
        type: 'slurm/submitted';
        jobId: string;
        /** The program's content hash. */
        programHash: string;
        /** 1 for a shard's first submission; a retry of failed tasks counts up. */
        attempt: number;
        /** The shared run folder the job's script, inputs and results are in. */
        dir: string;
        /** One per array task: its index, its evaluation's key (the evaluation cache's) and its shard (absent: a whole evaluation). */
        tasks: SlurmTaskInfo[];
        /** Found on the cluster by its name when the run resumed, not journaled at submission (the process died in between). */
        adopted?: boolean;
      }
    | {
        /**
         * A Slurm task of the run changed state: RUNNING, then its final state with what it cost.
         * `clusterSeconds` = sacct's ElapsedRaw × AllocCPUS (allocated CPU-seconds, what a cluster
         * charges), the unit of budget.clusterHours.
         */
        type: 'slurm/task';
        jobId: string;
        index: number;
        key: string;
        attempt: number;
        /** Slurm's state word: PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, PREEMPTED, CANCELLED… */
        state: string;
        /** Slurm's reason or exit code, when it gives one. */
        reason?: string;
        elapsedSeconds?: number;
        cpus?: number;
        clusterSeconds?: number;
        /** Final states only: its result was read, it is submitted again, it counts as an incorrect evaluation, or Ratchet cancelled it. */
        outcome?: 'done' | 'retry' | 'incorrect' | 'cancelled';
      }
    | {
        /** Ratchet asked Slurm to cancel tasks: past a gate's verdict, at the run's end or cancel, or because budget.clusterHours is spent. */
        type: 'slurm/cancelled';
        jobId: string;
        indices: number[];
        why: 'verdict' | 'run' | 'budget';
      }
    | {
        /** A resumed run took up tasks its journal says were submitted and not finished, instead of submitting them again. */
        type: 'slurm/attached';
        jobId: string;
        indices: number[];
      }
    | {
        /**
         * The cluster as Ratchet sees it: `probing` while the probe job checks that the nodes see
         * the shared run folder, `ready` once it did, `paused` while Slurm does not answer
         * (submissions wait and are retried with backoff), `resumed` when it answers again.
         */
        type: 'slurm/status';
        state: 'probing' | 'ready' | 'paused' | 'resumed';
        message: string;
        retryMs?: number;
      }
    | {
        type: 'run/finished';
        commits: number;
        candidates: number;
        incumbentId: string | undefined;
        /** Why the run stopped before its budget of proposals was spent, in one sentence with its full stop (a code search's failures in a row, a spent budget). */
        stopped?: string;
      }
    | { type: 'run/failed'; error: { code: string; message: string } }
    | { type: 'run/cancelled' }
  );

export type EngineEventType = EngineEvent['type'];

/** An event as the journal holds it and every face receives it: numbered. */
export type JournaledEvent = EngineEvent & { seq: number };
export type EventOf<T extends EngineEventType> = Extract<EngineEvent, { type: T }>;
