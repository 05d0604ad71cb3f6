/**
 * What a face may override on top of a run spec: the CLI's flags, the editor's settings. A wire
 * contract too (src/protocol carries it to the server and the run daemon), so it lives in the
 * engine, which the protocol may depend on.
 */
import type { GateName } from '../gates/record';
import type { Role } from '../llm/types';
import type { FacePrices } from './pricing';
import type { RunSpec } from './specTypes';

/** What a face may override on top of the run spec (CLI flags, editor settings); prices below the spec's. */
export interface EvolveOverrides extends FacePrices {
  dataset?: string;
  gate?: GateName;
  alpha?: number;
  budgetCalls?: number;
  candidates?: number;
  seed?: number;
  mode?: RunSpec['mode'];
  baseURL?: string;
  model?: string;
  /** Per-role models (editor settings): below the spec's own `models`, above `model`. */
  roleModels?: Partial<Record<Role, string>>;
  concurrency?: number;
  /** Seconds one LLM request may go unanswered (the spec's `callTimeoutSeconds`). */
  callTimeoutSeconds?: number;
  /** Real failures in a row after which an LLM call gives up (rate-limit waits never count). */
  maxFailures?: number;
}
