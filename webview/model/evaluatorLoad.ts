/**
 * The evaluator load samples this webview received (`programs/load`), per run, bounded: the
 * journal keeps no evaluator start or end, so this is the only slot timeline there is, and it
 * covers what this window saw. The panel app records; the Throughput section reads and listens.
 */
import type { EvaluatorLoadSample } from '../../src/protocol/webview';

export const LOAD_LIMITS = {
  /** Samples kept per run (the oldest go first). */
  samples: 2_000,
  /** Runs kept (the least recently sampled go first). */
  runs: 8,
} as const;

export class EvaluatorLoads {
  private readonly byRun = new Map<string, EvaluatorLoadSample[]>();
  private readonly listeners = new Set<(runId: string) => void>();

  record(runId: string, sample: EvaluatorLoadSample): void {
    const samples = this.byRun.get(runId) ?? [];
    this.byRun.delete(runId);
    this.byRun.set(runId, samples);
    const last = samples.at(-1);
    // Out of order (a late message) or unchanged: nothing new to draw.
    if (last && (sample.at < last.at || (last.busy === sample.busy && last.slots === sample.slots))) return;
    samples.push({ at: sample.at, busy: sample.busy, slots: sample.slots });
    if (samples.length > LOAD_LIMITS.samples) samples.splice(0, samples.length - LOAD_LIMITS.samples);
    for (const runIdToDrop of [...this.byRun.keys()].slice(0, Math.max(0, this.byRun.size - LOAD_LIMITS.runs))) this.byRun.delete(runIdToDrop);
    for (const listener of this.listeners) listener(runId);
  }

  samples(runId: string): readonly EvaluatorLoadSample[] {
    return this.byRun.get(runId) ?? [];
  }

  onChange(listener: (runId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The webview's one record of evaluator load (a page holds one panel). */
export const evaluatorLoads = new EvaluatorLoads();
