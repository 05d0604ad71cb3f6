// Builds the full LLM stack the product uses (core layer → OpenAiTransport → openai SDK → HTTP)
// against a fake server, for the llm-* integration tests and the throughput bench.
import { createLlmClient } from '../../src/core/llm/client';
import type { LlmClientOptions, LlmLayer } from '../../src/core/llm/client';
import { DEFAULT_RETRY } from '../../src/core/llm/retry';
import type { RoleConfig } from '../../src/core/llm/roles';
import { SeededRandom } from '../../src/core/random';
import { OpenAiTransport } from '../../src/node/openaiTransport';
import { SystemClock } from '../../src/node/clock';

export const TEST_KEY = 'sk-test-0123456789abcdef';

/** Every role on the fake server, each with its own simulated model. */
export function simRoles(url: string, apiKey: string | undefined = TEST_KEY): RoleConfig {
  const roles: RoleConfig = {
    default: { baseURL: url, model: 'sim-agent' },
    proposer: { model: 'sim-proposer' },
    validator: { model: 'sim-validator' },
    meta: { model: 'sim-meta' },
    challenger: { model: 'sim-challenger' },
  };
  if (apiKey !== undefined) roles.default.apiKey = apiKey;
  return roles;
}

export function layerFor(url: string, overrides: Partial<LlmClientOptions> = {}): LlmLayer {
  const roles = overrides.roles ?? simRoles(url);
  return createLlmClient({
    transport: new OpenAiTransport({ roles }),
    roles,
    concurrency: 4,
    timeoutMs: 10_000,
    retry: { ...DEFAULT_RETRY, maxFailures: 3, baseDelayMs: 10, maxDelayMs: 50 },
    clock: new SystemClock(),
    random: new SeededRandom(1),
    ...overrides,
  });
}
