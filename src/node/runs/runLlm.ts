/**
 * A run's LLM client, as every run driver (evolve, gen-data, code search) builds it: each role's
 * endpoint through the openai SDK (or the face's own transport: the editor's language models), the
 * spec's concurrency and per-call timeout, retries (`--max-failures` tightens them), the meter's
 * prices, the workspace's response cache (so a resume or a rerun does not pay twice), the budget
 * asked before every attempt and fed by the meter after it, and backoff jitter on its own seeded
 * stream so retries never shift the engine's draws.
 */
import { createLlmClient } from '../../core/llm/client';
import type { LlmLayer } from '../../core/llm/client';
import { DEFAULT_RETRY } from '../../core/llm/retry';
import type { RoleConfig } from '../../core/llm/roles';
import type { PriceTable } from '../../core/llm/types';
import { SeededRandom } from '../../core/random';
import type { RunBudget } from '../../core/run/budget';
import type { Clock, LlmTransport } from '../../core/ports';
import type { NodeFiles } from '../files';
import { OpenAiTransport } from '../openaiTransport';

export interface RunLlmOptions {
  spec: { concurrency: number; callTimeoutSeconds: number; seed: number };
  roles: RoleConfig;
  prices: PriceTable;
  files: NodeFiles;
  workspace: string;
  budget: RunBudget;
  clock: Clock;
  /** The face's transport; the openai SDK on the roles' endpoints when absent. */
  transport?: LlmTransport;
  /** `--max-failures`: failed attempts in a row before a call gives up. */
  maxFailures?: number;
  /**
   * Keep answers in the workspace's response cache (default). Off for a transport that does not
   * say which model will answer (MCP sampling: the client picks, and may pick another one next
   * time): a cached answer of one model must not stand in for another's in a later comparison.
   */
  cache?: boolean;
}

export function runLlmClient(o: RunLlmOptions): LlmLayer {
  const llm = createLlmClient({
    transport: o.transport ?? new OpenAiTransport({ roles: o.roles }),
    roles: o.roles,
    concurrency: o.spec.concurrency,
    timeoutMs: o.spec.callTimeoutSeconds * 1000,
    retry: o.maxFailures === undefined ? DEFAULT_RETRY : { ...DEFAULT_RETRY, maxFailures: o.maxFailures },
    prices: o.prices,
    ...(o.cache === false ? {} : { cache: { files: o.files, dir: o.files.join(o.workspace, '.ratchet', 'cache', 'llm') } }),
    admission: o.budget,
    clock: o.clock,
    random: new SeededRandom(o.spec.seed).fork('llm-jitter'),
  });
  o.budget.measure(llm);
  return llm;
}
