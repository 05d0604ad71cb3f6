/**
 * Runs the screen of a screened schedule (core/gates/screen.ts, docs/gates.md) for one candidate:
 * the feedback items in a seeded order of their own, measured a batch at a time (the run's
 * concurrency), fed to the screen strictly in that order; the first verdict decides and the rest of
 * its batch is paid for but ignored, as in a dev-set test (GATES.md 4.7). The gate runner says how
 * one item is measured (scores, or the validator's both-order verdicts), so the screen compares
 * exactly what the dev-set test will.
 */
import type { DataItem } from '../data/item';
import type { GateSpec } from '../run/specTypes';
import { gateRow } from '../gates/gateTable';
import { scheduleRow } from '../gates/schedules';
import { Screen } from '../gates/screen';
import type { ScreenSummary } from '../gates/screen';
import { hashSeed, seededPermutation } from '../random';
import type { Version } from './versions';

/** One feedback item measured: Δ = Y_C − Y_I (undefined: the judge left it unanswered), and whether each side paid an agent call for it. */
export interface ScreenMeasure {
  delta: number | undefined;
  candidateCall: boolean;
  incumbentCall: boolean;
}

/** Whether a candidate of this run is screened: a screened schedule and a gate with error control. */
export function screens(gate: GateSpec): boolean {
  return scheduleRow(gate.schedule).screen && gateRow(gate.name).errorControl;
}

/**
 * The screen's order of the feedback items for this candidate, fixed before any call: the items the
 * incumbent already has an output on first (its earlier screens and the parent's minibatches: the
 * candidate meets it there for the candidate's calls alone), then the rest, each part in an order
 * seeded by the run and the candidate's content, so candidates do not all meet the incumbent on the
 * same few items. Which items come first depends on earlier feedback outcomes; the screen needs no
 * validity of its own (screen.ts), and no dev item is involved.
 */
export function screenOrder(runSeed: number, cand: Version, feedback: readonly DataItem[], incumbentHasOutput: (item: DataItem) => boolean): DataItem[] {
  const seeded = seededPermutation(feedback.length, hashSeed(runSeed, cand.hash, 'screen')).map((i) => feedback[i]!);
  return [...seeded.filter(incumbentHasOutput), ...seeded.filter((item) => !incumbentHasOutput(item))];
}

/**
 * `order`: every feedback item, in the candidate's screen order (screenOrder); `devTestsBefore`: the
 * candidates of the run that reached a dev-set test before this one (the ledger's `tested`), which
 * sets the promote bar (screen.ts promoteBar).
 */
export async function screenCandidate(order: readonly DataItem[], devTestsBefore: number, batchSize: number, measure: (item: DataItem) => Promise<ScreenMeasure>): Promise<ScreenSummary> {
  const screen = new Screen(order.length, devTestsBefore);
  let candidateCalls = 0;
  let incumbentCalls = 0;
  let next = 0;
  while (!screen.verdict) {
    const batch = order.slice(next, next + Math.min(batchSize, screen.remaining));
    next += batch.length;
    const measured = await Promise.all(batch.map(measure));
    for (const m of measured) {
      if (m.candidateCall) candidateCalls++;
      if (m.incumbentCall) incumbentCalls++;
    }
    for (const m of measured) if (!screen.verdict) screen.observe(m.delta);
  }
  return screen.summary({ candidateCalls, incumbentCalls });
}
