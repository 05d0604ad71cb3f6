/**
 * What a one-shot test of a prompt file (a judge run, an evaluation) may spend, and the refusals
 * before its first call: a limit its upper estimate passes, a scorer that would run untrusted code.
 * Also the pricing of the client's own models (MCP sampling) at $0, and the spend as a face reports it.
 */
import { RatchetError } from '../../core/errors';
import { runsWorkspaceCode } from '../../core/data/scorers/types';
import type { Scorer, ScorerDeps } from '../../core/data/scorers/types';
import type { CostReport, ModelPrice, Role } from '../../core/llm/types';
import type { RoleConfig } from '../../core/llm/roles';
import type { RunPrices } from '../../core/setup/pricing';
import type { RunSpec } from '../../core/run/specTypes';
import type { NodeFiles } from '../files';
import { createNodeScorer } from '../scorers';

/** What a test may spend; every limit is checked against its upper estimate before any call. */
export interface TestBudget {
  /** LLM calls, all roles. */
  calls: number;
  /** Outputs evaluated: one per version and item. */
  evaluations: number;
  /** USD; applies when every model the test calls is priced (a local or sampled model counts $0). */
  dollars?: number;
}

/** Small enough that a forgotten budget spends little; enough for both versions on 50 dev items. */
export const DEFAULT_TEST_BUDGET: Readonly<Required<TestBudget>> = Object.freeze({ calls: 200, evaluations: 100, dollars: 1 });

/** Each given limit, else the default; dollars by default only when they can be counted. */
export function testBudget(given: Partial<TestBudget> | undefined, priced: boolean): TestBudget {
  const dollars = given?.dollars ?? (priced ? DEFAULT_TEST_BUDGET.dollars : undefined);
  return { calls: given?.calls ?? DEFAULT_TEST_BUDGET.calls, evaluations: given?.evaluations ?? DEFAULT_TEST_BUDGET.evaluations, ...(dollars === undefined ? {} : { dollars }) };
}

/**
 * A test whose upper estimate passes a limit is refused before its first call: stopped halfway it
 * would have paid for evidence that decides nothing. `what` says what the estimate covers.
 */
export function refuseOverBudget(estimate: { calls: number; evaluations: number; dollars?: number }, budget: TestBudget, what: string): void {
  const over = (unit: string, need: string, have: string, field: string) =>
    new RatchetError('badInput', `This may need up to ${need} ${unit} (${what}) and the budget allows ${have}: raise budget.${field} to at least ${need}, or use a smaller split.`, { field: `budget.${field}`, need, have });
  if (estimate.evaluations > budget.evaluations) throw over('evaluations', String(estimate.evaluations), String(budget.evaluations), 'evaluations');
  if (estimate.calls > budget.calls) throw over('LLM calls', String(estimate.calls), String(budget.calls), 'calls');
  if (budget.dollars !== undefined && estimate.dollars !== undefined && estimate.dollars > budget.dollars) {
    throw over('dollars', `$${estimate.dollars.toFixed(4)}`, `$${budget.dollars}`, 'dollars');
  }
}

/** Every called role at $0: the client's own models (MCP sampling), whose bill is not Ratchet's to count. */
export function freePrices(spec: RunSpec, roles: RoleConfig, called: readonly Role[]): RunPrices {
  const free: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 };
  const byRole = Object.fromEntries(Object.keys(spec.models).map((role) => [role, { model: roles[role as Role]?.model, price: free }])) as RunPrices['byRole'];
  // The meter prices an answer by the name of the model that gave it, which only the client knows: every name is free.
  const table = new Proxy({}, { get: () => free, has: () => true }) as Record<string, ModelPrice>;
  return { byRole, called, table };
}

/**
 * The run spec's scorer, refused before it is built when it would run workspace code in an
 * untrusted workspace (building a module scorer imports — runs — the module).
 */
export async function trustedScorer(spec: RunSpec, deps: Omit<ScorerDeps, 'importModule' | 'baseDir' | 'locate'> & { files: NodeFiles }, untrusted: boolean): Promise<Scorer | undefined> {
  if (!spec.scorer) return undefined;
  if (runsWorkspaceCode(spec.scorer) && untrusted) {
    throw new RatchetError(
      'badInput',
      `This run's ${spec.scorer.type} scorer executes code from the workspace, which is not trusted; trust the workspace (Workspace Trust in the editor, or ratchet mcp --trust) or use a scorer that runs no code.`,
      { field: 'scorer' },
    );
  }
  return createNodeScorer(spec.scorer, { ...deps, baseDir: spec.baseDir, locate: (field) => spec.origin[field] });
}

/** A run's spend as a face reports it: calls, tokens, and dollars when every call was priced. */
export function spent(cost: CostReport, calls: number, dollars: number | undefined): { calls: number; tokens: number; dollars: number | undefined } {
  const tokens = Object.values(cost).reduce((n, r) => n + r.promptTokens + r.completionTokens, 0);
  return { calls, tokens, dollars };
}
