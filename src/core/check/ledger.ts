/**
 * The repository's error budget (`.ratchet/ledger.json`, committed): one run-level schedule
 * (core/gates/schedules.ts) spent over every verdict `ratchet check` has given in the repository's
 * history, so the share of false verdicts among all its verdicts (e-LOND: the false-discovery
 * rate) or the chance of any false verdict at all (α-spending) stays at most α over months, not
 * only per pull request. Each test faces the schedule's next threshold (candidateThreshold) and
 * advances the ledger (advanceLedger) whatever it decides; nothing else moves it.
 */
import { RatchetError } from '../errors';
import { advanceLedger, candidateThreshold, checkAlpha, gammaAt } from '../gates/thresholds';
import type { RunLedger } from '../gates/thresholds';
import { isSchedule, scheduleRow, screenedGamma } from '../gates/schedules';
import type { Schedule } from '../gates/schedules';
import type { Decision } from '../gates/record';

export const LEDGER_VERSION = 1;

/** One test the ledger paid for. */
export interface LedgerEntry {
  at: string;
  file: string;
  policy: string;
  base: string;
  head: string;
  /** The gate's decision on its candidate (commit: the claim the policy tests was shown). */
  decision: Decision;
  threshold: number;
  /** The evidence bundle, repository-relative. */
  bundle: string;
}

export interface RepoLedger {
  version: number;
  schedule: Exclude<Schedule, 'per-candidate'>;
  alpha: number;
  /** Tests the budget is split over (α-spending, e-LOND: γ_t = 1/horizon); past it, the budget is spent. */
  horizon: number;
  tested: number;
  commits: number;
  history: LedgerEntry[];
}

/** A repository's budget when it has none yet: e-LOND, α = 0.05 over 100 tests. */
export function newLedger(): RepoLedger {
  return { version: LEDGER_VERSION, schedule: 'e-lond', alpha: 0.05, horizon: 100, tested: 0, commits: 0, history: [] };
}

/** The file's JSON, checked field by field; `file` names it in every error. */
export function parseLedger(file: string, text: string): RepoLedger {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new RatchetError('badInput', `${file} is not JSON (${err instanceof Error ? err.message : String(err)}).`, { file });
  }
  const bad = (field: string, why: string): never => {
    throw new RatchetError('badInput', `${file}: ${field} ${why}.`, { file, field });
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return bad('the top level', 'must be an object');
  const o = raw as Record<string, unknown>;
  if (o['version'] !== LEDGER_VERSION) bad('version', `must be ${LEDGER_VERSION}`);
  const schedule = o['schedule'];
  if (!isSchedule(schedule) || schedule === 'per-candidate') bad('schedule', 'must be one of e-lond, fwer-spend, fwer-screened (per-candidate spends nothing over the history)');
  const alpha = o['alpha'];
  if (typeof alpha !== 'number') bad('alpha', 'must be a number in (0, 1)');
  try {
    checkAlpha(alpha as number);
  } catch {
    bad('alpha', 'must be a number in (0, 1)');
  }
  const count = (name: string, min: number): number => {
    const v = o[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) bad(name, `must be a whole number ≥ ${min}`);
    return v as number;
  };
  const horizon = count('horizon', 1);
  const tested = count('tested', 0);
  const commits = count('commits', 0);
  if (commits > tested) bad('commits', `(${commits}) cannot exceed tested (${tested})`);
  if (!Array.isArray(o['history'])) bad('history', 'must be a list');
  return { version: LEDGER_VERSION, schedule: schedule as RepoLedger['schedule'], alpha: alpha as number, horizon, tested, commits, history: o['history'] as LedgerEntry[] };
}

export function runLedgerOf(l: Pick<RepoLedger, 'tested' | 'commits'>): RunLedger {
  return { tested: l.tested, commits: l.commits };
}

/** The evidence the next test must reach; Infinity once the budget is spent. */
export function nextThreshold(l: RepoLedger): number {
  return candidateThreshold(l.schedule, l.alpha, runLedgerOf(l), scheduleRow(l.schedule).horizon ? l.horizon : undefined);
}

/** γ_t of the t-th test (1-based): the share of α the schedule gives it. */
function gammaOf(l: RepoLedger, t: number): number {
  return l.schedule === 'fwer-screened' ? screenedGamma(t) : gammaAt(t, l.horizon);
}

/** α spent by the tests so far (Σ α γ_t) and what is left of α. */
export function alphaLeft(l: RepoLedger): { spent: number; left: number; testsLeft: number | undefined } {
  let spent = 0;
  for (let t = 1; t <= l.tested; t++) spent += l.alpha * gammaOf(l, t);
  const bounded = l.schedule !== 'fwer-screened';
  return { spent, left: Math.max(0, l.alpha - spent), testsLeft: bounded ? Math.max(0, l.horizon - l.tested) : undefined };
}

/** Throws, before any call, when the budget can pay for no more tests. */
export function refuseWhenSpent(file: string, l: RepoLedger, tests: number): void {
  const left = alphaLeft(l).testsLeft;
  if (left !== undefined && left < tests) {
    throw new RatchetError(
      'badInput',
      `The repository's error budget (${file}: ${l.schedule}, α = ${l.alpha} over ${l.horizon} tests) has ${left} test${left === 1 ? '' : 's'} left and this check needs ${tests}: a verdict past it would carry no guarantee. Start a new budget deliberately (raise horizon, or a new ledger with a note in the history) — not by deleting the file.`,
      { file, field: 'horizon' },
    );
  }
}

export function advanceRepoLedger(l: RepoLedger, entry: LedgerEntry): RepoLedger {
  const next = advanceLedger(runLedgerOf(l), entry.decision);
  return { ...l, tested: next.tested, commits: next.commits, history: [...l.history, entry] };
}

/** What is left, in one sentence. */
export function describeLedger(l: RepoLedger): string {
  const { spent, left, testsLeft } = alphaLeft(l);
  const threshold = nextThreshold(l);
  const what = l.schedule === 'e-lond' ? 'false-discovery rate' : 'chance of any false verdict';
  const tests = testsLeft === undefined ? '' : `, ${testsLeft} of ${l.horizon} tests left`;
  const next = Number.isFinite(threshold) ? `the next test needs evidence ×${Number(threshold.toPrecision(3))}` : 'no test can pass any more';
  return `repository budget (${l.schedule}, ${what} ≤ ${l.alpha}): ${l.tested} tests so far, ${l.commits} shown; α spent ${Number(spent.toPrecision(3))}, left ${Number(left.toPrecision(3))}${tests}; ${next}.`;
}
