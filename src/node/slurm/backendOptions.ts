/** What the Slurm backend (backend.ts) is built from: the run, its spec and setup, the journal, the ports. */
import type { SlurmSpec } from '../../core/code/slurmSpec';
import type { Clock } from '../../core/ports';
import type { EngineEvent } from '../../core/journal/events';
import type { ClusterLoad } from '../../core/journal/runStatus';
import type { EvaluatorSetup } from '../sandbox/sandboxEvaluation';
import type { BackoffPolicy, SlurmRunner } from './cli';
import type { SlurmEvent } from './taskBook';

export interface SlurmBackendOptions {
  runId: string;
  /** When the run started (its run.json): a resume looks for its jobs from then on. */
  startedAt: number;
  slurm: SlurmSpec;
  setup: EvaluatorSetup;
  /** The evaluator's identity (evaluationCache.ts): with the program and its instances, an evaluation's key. */
  identity: string;
  /** budget.clusterHours. */
  clusterHours?: number;
  /** The run folder's parent on the shared filesystem. */
  sharedDir: string;
  /** The task runner bundle (out/slurmTask.js) to copy there. */
  runnerFile: string;
  /** The Node program the tasks run on the nodes. */
  node: string;
  /** Values that never reach an evaluator (the provider's keys). */
  secrets: string[];
  /** The environment PATH, the locale and the evaluator.env values are read from. */
  env: Record<string, string | undefined>;
  /** The run's events so far (a resume), for the jobs it submitted. */
  journaled: readonly EngineEvent[];
  /** Journals one of the backend's events (all incidental: a resume does not replay them). */
  emit: (e: SlurmEvent) => Promise<void>;
  clock: Clock;
  /** The run's signal: cancelling it cancels every task. */
  signal: AbortSignal;
  runner: SlurmRunner;
  backoff?: BackoffPolicy;
  /** Told each time the counts change (the live status the editor shows). */
  onLoad?: (load: ClusterLoad) => void;
}
