/**
 * The guarantee a run has, in plain words: the one sentence every face shows about how likely the
 * run is to commit an edit that is not truly better — the CLI before the first call and in
 * `runs show`, the panel in its header. From the gate table and the schedule table, never restated.
 *
 *   this run: P(any false commit) ≤ 0.05
 *   each candidate: P(false commit) ≤ 0.05; over 30 candidates up to 0.79 if independent
 */
import { gateRow, isGateName } from './gateTable';
import type { Schedule } from './schedules';
import { isSchedule, scheduleRow } from './schedules';

export interface GuaranteeFacts {
  gate: string;
  alpha: number;
  /** undefined for a run journaled before runs said their schedule: nothing is claimed for it. */
  schedule: string | undefined;
  /** The candidates the run may test (its declared budget), for the per-candidate sentence. */
  candidates?: number;
}

export function guaranteeSentence(f: GuaranteeFacts): string | undefined {
  if (!isGateName(f.gate)) return undefined;
  const gate = gateRow(f.gate);
  if (!gate.errorControl) return `no false-commit bound: ${gate.title} commits without error control`;
  if (!isSchedule(f.schedule)) return undefined;
  const a = formatProbability(f.alpha);
  // A reward-free gate's "false" is the validator's: its preference, not the labels' truth (GATES.md 5).
  const judged = gate.kind === 'scored' ? '' : ' (as the validator judges)';
  switch (scheduleRow(f.schedule as Schedule).controls) {
    case 'fwer':
      return `this run: P(any false commit) ≤ ${a}${judged}`;
    case 'fdr':
      return `this run: expected share of false commits among commits (FDR) ≤ ${a}${judged}`;
    case 'candidate': {
      const each = `each candidate: P(false commit) ≤ ${a}${judged}`;
      const t = f.candidates;
      if (t === undefined || !(t > 1)) return each;
      return `${each}; over ${t} candidates up to ${formatProbability(1 - (1 - f.alpha) ** t)} if independent`;
    }
  }
}

/**
 * The sentence for a run as its `run/started` describes it (RunSummaryInfo's fields), or undefined
 * when the run commits nothing (an evaluation, a dev-set generation) or predates the schedule.
 */
export function runGuarantee(info: { kind: string; gate: string; alpha: number; schedule?: string; budget?: { candidates?: number } }): string | undefined {
  if (info.kind !== 'evolve' && info.kind !== 'search') return undefined;
  return guaranteeSentence({ gate: info.gate, alpha: info.alpha, schedule: info.schedule, ...(info.budget?.candidates === undefined ? {} : { candidates: info.budget.candidates }) });
}

/** 0.05 → "0.05", 0.001 → "0.001", 0.7226 → "0.72", 0.99994 → "0.9999": never rounded up to 1. */
function formatProbability(p: number): string {
  if (p >= 1) return '1';
  if (p < 0.1) return String(Number(p.toPrecision(2)));
  let digits = 2;
  while (Number(p.toFixed(digits)) >= 1 && digits < 6) digits++;
  return String(Number(p.toFixed(digits)));
}
