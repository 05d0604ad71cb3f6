/** What an evolve run is given and what it answers (core/evolve/loop.ts runs it). */
import type { DataItem } from '../data/item';
import type { Scorer } from '../data/scorers/types';
import type { RunControl } from '../journal/control';
import type { RunSummaryInfo } from '../journal/payloadTypes';
import type { Ports } from '../ports';
import type { PromptFile } from '../prompt/promptFile';
import type { Template } from '../prompt/template';
import type { Metered, RunBudget } from '../run/budget';
import type { RunSpec } from '../run/specTypes';
import type { AgentHarness } from './harness';
import type { Version } from './versions';

export interface EvolveOptions {
  runId: string;
  spec: RunSpec;
  prompt: PromptFile;
  template: Template;
  splits: { feedback: DataItem[]; dev: DataItem[]; test: DataItem[] };
  scorer: Scorer | undefined;
  ports: Ports;
  meter: Metered;
  /** The run's budgets; the LLM layer asks it before each call. Default: spec.budget from now. */
  budget?: RunBudget;
  control: RunControl;
  /** The run's starting prompt body, when resuming from a journal (the file may have changed since). */
  startText?: string;
  /** What the run expects to spend (run/estimate.ts), said in `run/started` before the first call. */
  estimate?: RunSummaryInfo['estimate'];
  /** Each called role's model and where it was chosen, said in `run/started`. */
  models?: RunSummaryInfo['models'];
  /** A run without a dataset (zero-data): its items are generated in rounds as it goes. */
  dataRounds?: DataRounds;
  /** Who runs a version on an item when a command does (`harness: command`); default: the agent model, as the file's kind says. */
  harness?: AgentHarness;
}

/**
 * Where a zero-data run's items come from (core/zero/rounds.ts, through the face that journals
 * them): round 1 before the first candidate, then one more round every `candidatesPerRound`
 * candidates, each written for the incumbent of that moment. `next` answers the feedback and dev
 * items so far, or 'stop' when generating more would not help (the held-out score stopped rising).
 */
export interface DataRounds {
  candidatesPerRound: number;
  next(round: number, incumbentText: string, signal: AbortSignal): Promise<{ feedback: DataItem[]; dev: DataItem[] } | 'stop'>;
}

export interface EvolveResult {
  commits: number;
  candidates: number;
  incumbent: Version;
  status: 'finished' | 'cancelled' | 'failed';
}
