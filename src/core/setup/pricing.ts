/**
 * The prices a run counts its dollars with, one per role, and the pre-flight that refuses a dollar
 * budget the run could not count.
 *
 * Precedence, per role: the run spec's `models.<role>.free: true` or `price`; then the editor's
 * `ratchet.models.prices` for the role's model; then `ratchet.endpoint.free`, for a role that
 * calls the editor's endpoint (not one the spec names); then Ratchet's price list (llm/prices.ts).
 * A model none of these prices is unpriced: no local-endpoint guess, since a wrong $0 would let a
 * dollar budget overspend without a word.
 */
import { badInputError, diagnostic } from '../data/diagnostics';
import { RatchetError } from '../errors';
import { listedPrice } from '../llm/prices';
import { normalizeBaseURL } from '../llm/roles';
import type { PublicEndpoint } from '../llm/roles';
import { ROLES } from '../llm/types';
import type { ModelPrice, PriceTable, Role } from '../llm/types';
import { rolesCalled } from './estimate';
import type { RolePrices, RunCalls } from './estimate';
import type { RunSpec } from '../run/specTypes';
import type { FacePrices } from '../run/overrides';

export interface RunPrices {
  byRole: RolePrices;
  /** The roles the run calls (estimate.ts rolesCalled): the ones the table and the pre-flight cover. */
  called: readonly Role[];
  /** By model id, for the LLM layer's meter (which prices each answer by its model). */
  table: PriceTable;
  /** Models the run calls outside its roles that nothing prices: a dollar budget refuses them (checkDollarBudget). */
  unpricedModels?: readonly CalledModel[];
}

/**
 * A model a run calls besides its roles' own (a code search's: each proposer model its bandit
 * chooses among, the novelty embedding), with the price its spec gives it and the field that does.
 */
export interface CalledModel {
  model: string;
  price: ModelPrice | undefined;
  field: string;
}

const FREE: ModelPrice = { inputPerMTok: 0, outputPerMTok: 0 };

/**
 * `endpoints`: each role's model and base URL as the face resolved them (spec, flags, settings).
 * `calls`: the run's calls, whose roles estimate.ts names; or, for a kind that says which roles it
 * calls itself (a code search: its proposer, meta notes and novelty judge), those roles and the
 * models it calls besides (`extra`). Every kind prices by this one precedence.
 */
export function pricesFor(spec: RunSpec, endpoints: Record<Role, PublicEndpoint>, face?: FacePrices, calls?: RunCalls): RunPrices;
export function pricesFor(spec: Pick<RunSpec, 'models'>, endpoints: Record<Role, PublicEndpoint>, face: FacePrices, calls: readonly Role[], extra?: readonly CalledModel[]): RunPrices;
export function pricesFor(spec: Pick<RunSpec, 'models'>, endpoints: Record<Role, PublicEndpoint>, face: FacePrices = {}, calls: RunCalls | readonly Role[] = 'evolve', extra: readonly CalledModel[] = []): RunPrices {
  const called = typeof calls === 'string' ? rolesCalled(spec as RunSpec, calls) : calls;
  return withCalledModels(rolePrices(spec, endpoints, face, called), face, extra);
}

function rolePrices(spec: Pick<RunSpec, 'models'>, endpoints: Record<Role, PublicEndpoint>, face: FacePrices, called: readonly Role[]): RunPrices {
  const priceOf = (role: Role): ModelPrice | undefined => {
    const m = spec.models[role];
    const { model, baseURL } = endpoints[role];
    // The meter prices each answer by the name of the model asked for; with none named (the
    // editor's models pick one) there is no name to price, so its dollars cannot be counted.
    if (model === undefined) return undefined;
    if (m.free === true) return FREE;
    if (m.price) return m.price;
    const set = face.prices && Object.hasOwn(face.prices, model) ? face.prices[model] : undefined;
    if (set) return set;
    // The editor's endpoint is the one a role calls unless the spec names another (and no flag overrode it).
    if (face.free === true && baseURL !== undefined && (m.baseURL === undefined || normalizeBaseURL(m.baseURL) !== normalizeBaseURL(baseURL))) return FREE;
    return listedPrice(model);
  };
  const byRole = Object.fromEntries(ROLES.map((role) => [role, { model: endpoints[role].model, price: priceOf(role) }])) as RolePrices;

  // The meter prices an answer by its model, so two called roles on one model need one price.
  const table: PriceTable = {};
  const owner: Record<string, Role> = {};
  for (const role of called) {
    const { model, price } = byRole[role];
    if (price === undefined || model === undefined) continue;
    const first = owner[model];
    if (first !== undefined && !samePrice(table[model]!, price)) {
      throw new RatchetError(
        'badInput',
        `The ${first} and ${role} roles both call ${model} but at different prices (a price or free: true set for one of them only); dollars are counted per model, so give models.${first} and models.${role} the same price.`,
        { field: `models.${role}.price` },
      );
    }
    owner[model] ??= role;
    table[model] = price;
  }
  return { byRole, called, table };
}

/**
 * The models called besides the roles, each at its own price or else `ratchet.models.prices`' (a
 * dollar budget needs all of them: one unpriced model would leave the run's dollars unknown and the
 * cap never reached); one model is given one price.
 */
function withCalledModels(prices: RunPrices, face: FacePrices, extra: readonly CalledModel[]): RunPrices {
  if (extra.length === 0) return prices;
  const table: PriceTable = { ...prices.table };
  const unpricedModels: CalledModel[] = [];
  for (const { model, price: own, field } of extra) {
    const price = own ?? (face.prices && Object.hasOwn(face.prices, model) ? face.prices[model] : undefined);
    if (!price) {
      unpricedModels.push({ model, price, field });
      continue;
    }
    const known = table[model];
    if (known && !samePrice(known, price)) {
      throw new RatchetError('badInput', `${model} is given two different prices (${field} and another entry); dollars are counted per model, so give it one.`, { field });
    }
    table[model] = price;
  }
  return { ...prices, table, ...(unpricedModels.length > 0 ? { unpricedModels } : {}) };
}

/**
 * Before the first call: a run with `budget.dollars` whose called roles include an unpriced model
 * could never count, so never stop on, its dollars. Located at the role's `models` entry.
 */
export function checkDollarBudget(spec: { budget: { dollars?: number }; origin: RunSpec['origin'] }, prices: RunPrices): void {
  const limit = spec.budget.dollars;
  if (limit === undefined) return;
  const missing = new Map<string, { entry: string; model: string | undefined; roles: Role[] }>();
  for (const role of prices.called) {
    const { model, price } = prices.byRole[role];
    if (price !== undefined) continue;
    // The entry the user would edit: the role's own, else `default` when the role inherits it.
    const entry = spec.origin[`models.${role}`] === undefined && spec.origin['models.default'] !== undefined ? 'default' : role;
    const key = `${entry}\u0000${model ?? ''}`;
    const m = missing.get(key) ?? { entry, model, roles: [] };
    m.roles.push(role);
    missing.set(key, m);
  }
  if (missing.size === 0) {
    const extra = prices.unpricedModels?.[0];
    if (extra) throw new RatchetError('badInput', `budget.dollars needs a price for ${extra.model}, which this run calls: set its price (${extra.field}) or ratchet.models.prices, or free: true.`, { field: extra.field });
    return;
  }
  const problems = [...missing.values()].map(({ entry, model, roles }) => {
    const whose = `the ${roles.join(' and ')} role${roles.length > 1 ? "s'" : "'s"}`;
    if (model === undefined) {
      return {
        at: spec.origin[`models.${entry}`] ?? spec.origin['budget.dollars'],
        field: `models.${entry}.model`,
        message: `budget.dollars is $${limit}, but ${whose} model is not named (the editor picks one), so its dollars could not be counted; name it in models.${entry}.model and price it`,
      };
    }
    return {
      at: spec.origin[`models.${entry}`] ?? spec.origin['budget.dollars'],
      field: `models.${entry}.price`,
      message:
        `budget.dollars is $${limit}, but ${whose} model ${model} has no known price, so its dollars could not be counted; ` +
        `add models.${entry}.price: { input: …, output: … } (USD per million tokens), or models.${entry}.free: true if its endpoint costs nothing (Ollama, vLLM), ` +
        `or set its price in the editor setting ratchet.models.prices`,
    };
  });
  const located = problems.flatMap((p) => (p.at ? [diagnostic(p.at, p.message, { field: p.field })] : []));
  if (located.length === problems.length) throw badInputError(located);
  throw new RatchetError('badInput', `${problems[0]!.message}.`, { field: problems[0]!.field });
}

function samePrice(a: ModelPrice, b: ModelPrice): boolean {
  return a.inputPerMTok === b.inputPerMTok && a.outputPerMTok === b.outputPerMTok && a.cachedInputPerMTok === b.cachedInputPerMTok;
}
