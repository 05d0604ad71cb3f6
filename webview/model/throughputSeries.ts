/**
 * The Throughput section's numbers: evaluations per minute from the programs' evaluation times,
 * the evaluator's slot timeline from the live load this window saw, a Slurm search's tasks from
 * its journal, proposal failures by kind, and the bandit's picks per proposer model. Pure data (no DOM).
 */
import type { CostReport } from '../../src/core/llm/types';
import { clusterTime } from '../../src/panelState/clusterTasks';
import type { ClusterTasks } from '../../src/panelState/clusterTasks';
import type { EvaluatorLoadSample } from '../../src/protocol/webview';
import type { FailureReason, ProgramsState } from '../../src/panelState/types';

/** What each failure kind means, in the words the section shows. */
export const FAILURE_KINDS: Record<FailureReason, string> = {
  format: 'answer not in the asked format',
  patch: 'diff did not apply',
  duplicate: 'same program as one already tried',
  'not-novel': 'rejected as too similar (novelty check)',
};

export interface RateSeries {
  /** Start of each minute, in seconds since the epoch (uPlot's time axis). */
  x: number[];
  perMinute: number[];
}

/** Evaluations finished in each wall-clock minute, from the first evaluation's minute to the last's (empty minutes are 0). */
export function evaluationsPerMinute(s: ProgramsState): RateSeries {
  const times: number[] = [];
  let earliest = Infinity;
  let latest = -Infinity;
  for (const id of s.evaluated) {
    const at = s.nodes[id]?.evaluatedAt;
    if (at === undefined) continue;
    times.push(at);
    earliest = Math.min(earliest, at);
    latest = Math.max(latest, at);
  }
  if (times.length === 0) return { x: [], perMinute: [] };
  const minute = 60_000;
  const first = Math.floor(earliest / minute);
  const last = Math.floor(latest / minute);
  const perMinute = new Array<number>(last - first + 1).fill(0);
  for (const at of times) perMinute[Math.floor(at / minute) - first]! += 1;
  return { x: perMinute.map((_, i) => ((first + i) * minute) / 1000), perMinute };
}

export interface SlotSeries {
  /** Seconds since the epoch. */
  x: number[];
  busy: number[];
  slots: number[];
}

/**
 * The slot timeline as steps: each sample holds until the next one. `now` extends the last
 * sample to the present while the run goes on, so a steady load still shows as a line.
 */
export function slotSeries(samples: readonly EvaluatorLoadSample[], now?: number): SlotSeries {
  const out: SlotSeries = { x: [], busy: [], slots: [] };
  for (const sample of samples) {
    out.x.push(sample.at / 1000);
    out.busy.push(sample.busy);
    out.slots.push(sample.slots);
  }
  const last = samples.at(-1);
  if (last && now !== undefined && now > last.at) {
    out.x.push(now / 1000);
    out.busy.push(last.busy);
    out.slots.push(last.slots);
  }
  return out;
}

/** The share of slot time spent evaluating over the samples (0..1), or undefined with under two samples. */
export function slotUse(samples: readonly EvaluatorLoadSample[], now?: number): number | undefined {
  const series = slotSeries(samples, now);
  let busy = 0;
  let total = 0;
  for (let i = 0; i + 1 < series.x.length; i++) {
    const dt = series.x[i + 1]! - series.x[i]!;
    busy += series.busy[i]! * dt;
    total += series.slots[i]! * dt;
  }
  return total > 0 ? busy / total : undefined;
}

export interface FailureRow {
  reason: FailureReason;
  meaning: string;
  count: number;
  /** Of every proposal the run asked for (programs made plus proposals that failed). */
  share: number;
}

/** Proposal failures per kind, most frequent first; kinds that never happened are left out. */
export function failureRows(s: ProgramsState): FailureRow[] {
  const failed = Object.values(s.failedByReason).reduce((a, b) => a + (b ?? 0), 0);
  const children = s.order.filter((id) => s.nodes[id]?.parentId !== undefined).length;
  const asked = children + failed;
  return (Object.keys(FAILURE_KINDS) as FailureReason[])
    .flatMap((reason) => {
      const count = s.failedByReason[reason] ?? 0;
      return count > 0 ? [{ reason, meaning: FAILURE_KINDS[reason], count, share: asked > 0 ? count / asked : 0 }] : [];
    })
    .sort((a, b) => b.count - a.count);
}

export interface ModelRow {
  model: string;
  proposals: number;
  failed: number;
  commits: number;
  /** Commits per proposal the model made into a program. */
  commitRate: number;
  /** Known only when one model wrote every proposal: the run's cost is kept per role, not per model. */
  dollars?: number;
}

/** The bandit's picks per proposer model, most picked first. */
export function modelRows(s: ProgramsState, cost: CostReport | undefined): ModelRow[] {
  const models = Object.entries(s.byModel);
  const proposerDollars = cost?.proposer.dollars;
  return models
    .map(([model, t]) => ({
      model,
      proposals: t.proposals,
      failed: t.failed,
      commits: t.commits,
      commitRate: t.proposals > 0 ? t.commits / t.proposals : 0,
      ...(models.length === 1 && proposerDollars !== undefined ? { dollars: proposerDollars } : {}),
    }))
    .sort((a, b) => b.proposals + b.failed - (a.proposals + a.failed) || a.model.localeCompare(b.model));
}

export interface ClusterSeries {
  /** Seconds since the epoch. */
  x: number[];
  queued: number[];
  running: number[];
}

/** The Slurm tasks waiting and running over time, as steps; `now` holds the last counts to the present while the run goes on. */
export function clusterSeries(c: ClusterTasks, now?: number): ClusterSeries {
  const out: ClusterSeries = { x: [], queued: [], running: [] };
  for (const p of c.steps) {
    out.x.push(p.at / 1000);
    out.queued.push(p.queued);
    out.running.push(p.running);
  }
  const last = c.steps.at(-1);
  if (last && now !== undefined && now > last.at) {
    out.x.push(now / 1000);
    out.queued.push(last.queued);
    out.running.push(last.running);
  }
  return out;
}

/** The Slurm tasks in words: where they are now, what the finished ones cost, how they ended and what Ratchet cancelled. */
export function clusterLines(c: ClusterTasks): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [
    `${plural(c.submitted, 'task')} in ${plural(c.jobs, 'array job')}: ${c.queued} queued, ${c.running} running, ${c.finished} over; ${clusterTime(c.clusterSeconds)} used by the finished ones (sacct's elapsed time × CPUs, what budget.clusterHours counts).`,
  ];
  const ended = [
    c.outcomes.done > 0 ? `${c.outcomes.done} read` : '',
    c.outcomes.retry > 0 ? `${c.outcomes.retry} submitted again` : '',
    c.outcomes.incorrect > 0 ? `${c.outcomes.incorrect} counted incorrect` : '',
    c.outcomes.cancelled > 0 ? `${c.outcomes.cancelled} cancelled` : '',
  ].filter((p) => p !== '');
  const failed = Object.entries(c.failures)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([state, n]) => `${n} ${state}`);
  if (ended.length > 0) lines.push(`Ended: ${ended.join(', ')}${failed.length > 0 ? ` (failed on the cluster: ${failed.join(', ')})` : ''}.`);
  const why = [
    c.cancelled.verdict > 0 ? `${plural(c.cancelled.verdict, 'task')} the gate's verdict made unneeded` : '',
    c.cancelled.budget > 0 ? `${c.cancelled.budget} for the cluster-hours budget` : '',
    c.cancelled.run > 0 ? `${c.cancelled.run} as the run ended` : '',
  ].filter((p) => p !== '');
  if (why.length > 0) lines.push(`Ratchet cancelled ${why.join(', ')}.`);
  if (c.paused !== undefined) lines.push(`Submissions wait: ${c.paused}`);
  return lines;
}
