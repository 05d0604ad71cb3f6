/**
 * Pre-flight check (GATES.md 4.2): before any evaluation, can this gate commit anything with this
 * dev set? If even n straight wins cannot reach the threshold, every candidate would be rejected as
 * infeasible; the UI and the CLI say so up front with the minimum number of consecutive wins.
 */
import type { PaceConfig } from './pace';
import type { RunLedger } from './thresholds';
import type { EProcess } from './eprocess';
import { RatchetError } from '../errors';
import { createEProcess } from './eprocess';
import { createFiniteEProcess } from './finite';
import { gateRow } from './gateTable';
import { scheduleRow } from './schedules';
import { candidateThreshold } from './thresholds';

/**
 * Fewest consecutive wins (Δ = +1 from the first item) that bring the e-process to `threshold`:
 * 8 for paper PACE and 6 for the PACE+ grid at α = 0.05 (GATES.md 3, 4). Infinity if more than
 * `limit` wins would be needed (or the threshold is infinite). A finite-population gate's wealth
 * depends on the dev-set size `n` (each win's factor 1 + λ(1 − m_k) grows as the items run out), so
 * it needs `n` and counts only wins within those n items.
 */
export function minConsecutiveWins(cfg: PaceConfig, threshold: number = 1 / cfg.alpha, limit = 100_000, n?: number): number {
  const logThr = Math.log(threshold);
  if (!Number.isFinite(logThr)) return Infinity;
  let ep: EProcess;
  if (cfg.population === 'finite') {
    if (n === undefined) throw new RatchetError('internal', 'A finite-population gate needs the dev-set size to count wins.');
    ep = createFiniteEProcess(cfg.bettor, cfg.scores, n);
    limit = Math.min(limit, n);
  } else {
    ep = createEProcess(cfg.bettor, cfg.scores);
  }
  for (let k = 1; k <= limit; k++) {
    ep.observe(1);
    if (ep.logWealth() >= logThr) return k;
  }
  return Infinity;
}

export interface Preflight {
  feasible: boolean;
  minWins: number;
  threshold: number;
  n: number;
  /** The warning to show when infeasible; undefined otherwise. */
  message: string | undefined;
}

/**
 * The pre-flight verdict for the next candidate of a run (its threshold depends on the ledger in
 * run-level modes). Feasible iff n ≥ the minimum consecutive wins; for the grid and Beta bettors
 * that is exactly B_0(n) ≥ threshold (finite population: for the grid).
 */
export function preflight(cfg: PaceConfig, ledger: RunLedger, n: number): Preflight {
  const threshold = candidateThreshold(cfg.schedule, cfg.alpha, ledger, cfg.horizonT);
  const minWins = minConsecutiveWins(cfg, threshold, undefined, n);
  const feasible = n >= minWins;
  return { feasible, minWins, threshold, n, message: feasible ? undefined : preflightMessage(cfg, minWins, threshold, n) };
}

/**
 * "PACE+ needs at least 6 consecutive wins at α = 0.05; your dev set has 5 items" — with the
 * run-level threshold named when it is not 1/α.
 */
export function preflightMessage(cfg: PaceConfig, minWins: number, threshold: number, n: number): string {
  // A sentence starts with it.
  const title = gateRow(cfg.gate).title;
  const label = title.charAt(0).toUpperCase() + title.slice(1);
  const items = `your dev set has ${n} item${n === 1 ? '' : 's'}`;
  if (cfg.population === 'finite' && !Number.isFinite(minWins) && Number.isFinite(threshold)) {
    return `${label} (finite population) cannot reach ×${formatThreshold(threshold)} at α = ${cfg.alpha} even if all ${n} item${n === 1 ? '' : 's'} of your dev set are wins`;
  }
  if (!Number.isFinite(minWins)) {
    return `${label} cannot commit another candidate at α = ${cfg.alpha}: the run's declared budget of ${cfg.horizonT ?? '?'} candidates is spent.`;
  }
  const schedule = cfg.schedule === 'per-candidate' ? '' : ` (${scheduleRow(cfg.schedule).title} threshold ×${formatThreshold(threshold)})`;
  return `${label} needs at least ${minWins} consecutive wins at α = ${cfg.alpha}${schedule}; ${items}`;
}

function formatThreshold(t: number): string {
  return String(Number(t.toPrecision(4))); // 599.9999999999999 → "600"
}
