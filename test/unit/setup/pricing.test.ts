import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import type { Diagnostic } from '../../../src/core/data/diagnostics';
import { RatchetError } from '../../../src/core/errors';
import { ROLES } from '../../../src/core/llm/types';
import type { Role } from '../../../src/core/llm/types';
import { checkDollarBudget, pricesFor } from '../../../src/core/setup/pricing';
import { loadRunSpec } from '../../../src/core/setup/spec';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { memFiles } from '../data/fakeFiles';
import type { FacePrices } from '../../../src/core/run/overrides';

const SIDE = '/w/t.ratchet.yaml';
const DATA = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}`, expected: i })).join('\n');

function specOf(...lines: string[]): Promise<RunSpec> {
  const files = memFiles({ '/w/t.prompt.md': 'Solve: {{question}}\n', [SIDE]: `${['dataset: d.jsonl', 'scorer: numeric', ...lines].join('\n')}\n`, '/w/d.jsonl': DATA });
  return loadRunSpec(files, '/w/t.prompt.md');
}

/** Every role on `model` at the face's endpoint, except those given. */
function endpoints(model: string, own: Partial<Record<Role, { model: string; baseURL: string }>> = {}) {
  return Object.fromEntries(ROLES.map((r) => [r, own[r] ?? { model, baseURL: 'http://localhost:8000/v1' }])) as Record<Role, { model: string; baseURL: string }>;
}

const p = (inputPerMTok: number, outputPerMTok: number) => ({ inputPerMTok, outputPerMTok });
const FREE = p(0, 0);

describe('pricesFor: spec price > settings price > settings free > the list', () => {
  it('takes the list price of the model each role calls, and leaves an unknown model unpriced', async () => {
    const spec = await specOf();
    const prices = pricesFor(spec, endpoints('gpt-4o-mini', { proposer: { model: 'openai/gpt-4.1', baseURL: 'https://openrouter.ai/api/v1' }, meta: { model: 'llama3', baseURL: 'http://x/v1' } }));
    expect(prices.byRole.agent).toEqual({ model: 'gpt-4o-mini', price: { inputPerMTok: 0.15, outputPerMTok: 0.6, cachedInputPerMTok: 0.075 } });
    expect(prices.byRole.proposer.price).toEqual({ inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 });
    expect(prices.byRole.meta).toEqual({ model: 'llama3', price: undefined });
    // The meter's table holds the roles the run calls (pace+: agent and proposer), by model.
    expect(Object.keys(prices.table).sort()).toEqual(['gpt-4o-mini', 'openai/gpt-4.1']);
  });

  it('ranks the spec above the settings, and the settings above the list', async () => {
    const spec = await specOf('models:', '  agent: { price: { input: 9, output: 9 } }', '  proposer: { free: true }');
    const face: FacePrices = { prices: { 'gpt-4o-mini': p(1, 2) }, free: true };
    const own = { agent: 'gpt-4o-mini', proposer: 'gpt-4o-mini', validator: 'gpt-4o-mini', meta: 'gpt-4o', challenger: 'gpt-4o' };
    const at = (models: Record<Role, string>) => Object.fromEntries(ROLES.map((r) => [r, { model: models[r], baseURL: 'http://localhost:8000/v1' }])) as Record<Role, { model: string; baseURL: string }>;
    const withFace = pricesFor({ ...spec, models: { ...spec.models, proposer: { free: true } } }, at({ ...own, proposer: 'b' }), face).byRole;
    // spec price > settings price; spec free; settings price > settings free; settings free > the list.
    expect([withFace.agent.price, withFace.proposer.price, withFace.validator.price, withFace.meta.price]).toEqual([p(9, 9), FREE, p(1, 2), FREE]);
    expect(pricesFor(spec, at({ ...own, proposer: 'b' })).byRole.meta.price).toEqual({ inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 });
  });

  it("applies the editor's free endpoint only to roles that call it, not to one whose spec names another endpoint", async () => {
    const spec = await specOf('models:', '  validator: { baseURL: "https://api.openai.com/v1/" }', '  meta: { baseURL: "https://api.openai.com/v1" }');
    const own = { validator: { model: 'llama3', baseURL: 'https://api.openai.com/v1' }, meta: { model: 'llama3', baseURL: 'http://127.0.0.1:9/v1' } };
    const { byRole } = pricesFor(spec, endpoints('llama3', own), { free: true });
    // meta's endpoint was overridden by the face (--base-url, the editor's provider): free applies.
    expect([byRole.agent.price, byRole.validator.price, byRole.meta.price]).toEqual([FREE, undefined, FREE]);
  });

  it('refuses two called roles on one model at different prices (the meter prices by model)', async () => {
    const spec = await specOf('gate: pace-rf', 'models:', '  agent: { model: m, free: true }', '  validator: { model: m, price: { input: 1, output: 1 } }');
    const err = (() => {
      try {
        pricesFor(spec, endpoints('m'));
      } catch (e) {
        return e;
      }
    })();
    expect(RatchetError.is(err, 'badInput')).toBe(true);
    expect((err as Error).message).toBe(
      'The agent and validator roles both call m but at different prices (a price or free: true set for one of them only); dollars are counted per model, so give models.agent and models.validator the same price.',
    );
    // The same price twice is fine, and uncalled roles do not count (meta only runs under focus).
    const same = await specOf('models:', '  default: { model: m, price: { input: 1, output: 1 } }', '  meta: { model: m, free: true }');
    expect(pricesFor(same, endpoints('m')).table).toEqual({ m: p(1, 1) });
  });
});

describe('checkDollarBudget: before the first call', () => {
  const failure = (spec: RunSpec, model: string): RatchetError => {
    try {
      // As roleConfig resolves them: the spec's model, else the face's.
      const own = Object.fromEntries(ROLES.flatMap((r) => (spec.models[r].model ? [[r, { model: spec.models[r].model!, baseURL: 'http://l/v1' }]] : [])));
      checkDollarBudget(spec, pricesFor(spec, endpoints(model, own)));
    } catch (e) {
      if (RatchetError.is(e, 'badInput')) return e;
      throw e;
    }
    throw new Error('expected a badInput error');
  };
  const shown = (err: RatchetError) => (err.details.diagnostics as Diagnostic[]).map((d) => [d.field, formatDiagnostic(d)]);

  it('passes a run without budget.dollars whatever its prices, and a dollar budget whose called models are priced', async () => {
    const none = await specOf();
    expect(() => checkDollarBudget(none, pricesFor(none, endpoints('sim')))).not.toThrow();
    const priced = await specOf('budget: { dollars: 2 }', 'models:', '  default: { model: sim, price: { input: 1, output: 2 } }');
    expect(() => checkDollarBudget(priced, pricesFor(priced, endpoints('sim')))).not.toThrow();
    // The meta role is never called by a pace+ run: its model needs no price.
    const metaUnpriced = await specOf('budget: { dollars: 2 }', 'models:', '  agent: { model: a, free: true }', '  proposer: gpt-4o', '  meta: local');
    const prices = pricesFor(metaUnpriced, { ...endpoints('x'), agent: { model: 'a', baseURL: 'http://l/v1' }, proposer: { model: 'gpt-4o', baseURL: 'http://l/v1' }, meta: { model: 'local', baseURL: 'http://l/v1' } });
    expect(() => checkDollarBudget(metaUnpriced, prices)).not.toThrow();
  });

  it("names the role, the model and the fix, at the role's models entry", async () => {
    const spec = await specOf('budget: { dollars: 2 }', 'models:', '  agent: { model: sim-agent }', '  proposer: gpt-4o');
    expect(shown(failure(spec, 'sim'))).toEqual([
      [
        'models.agent.price',
        `${SIDE}:5:10: budget.dollars is $2, but the agent role's model sim-agent has no known price, so its dollars could not be counted; add models.agent.price: { input: …, output: … } (USD per million tokens), or models.agent.free: true if its endpoint costs nothing (Ollama, vLLM), or set its price in the editor setting ratchet.models.prices`,
      ],
    ]);
  });

  it("asks for a model name where the editor's models would pick one: an answer is priced by its model's name", async () => {
    const spec = await specOf('budget: { dollars: 2 }', 'models:', '  default: { free: true }');
    const editor = Object.fromEntries(ROLES.map((r) => [r, {}])) as Record<Role, Record<string, never>>;
    const prices = pricesFor(spec, editor);
    expect(prices.byRole.agent).toEqual({ model: undefined, price: undefined });
    expect(prices.table).toEqual({});
    const [d] = (() => {
      try {
        checkDollarBudget(spec, prices);
      } catch (e) {
        if (RatchetError.is(e, 'badInput')) return e.details.diagnostics as Diagnostic[];
        throw e;
      }
      throw new Error('expected a badInput error');
    })();
    expect([d!.field, d!.message]).toEqual([
      'models.default.model',
      "budget.dollars is $2, but the agent and proposer roles' model is not named (the editor picks one), so its dollars could not be counted; name it in models.default.model and price it",
    ]);
  });

  it('groups roles that inherit models.default, and falls back to budget.dollars when no models entry was written', async () => {
    const inherited = await specOf('gate: pace-rf', 'budget:', '  dollars: 0.5', 'models:', '  default: { model: sim }');
    const [d] = failure(inherited, 'sim').details.diagnostics as Diagnostic[];
    expect([d!.line, d!.field, d!.message.slice(0, 96)]).toEqual([7, 'models.default.price', "budget.dollars is $0.5, but the agent and proposer and validator roles' model sim has no known p"]);
    const bare = await specOf('budget:', '  dollars: 1');
    const [b] = failure(bare, 'sim').details.diagnostics as Diagnostic[];
    expect([b!.line, b!.column, b!.field]).toEqual([4, 12, 'models.agent.price']);
  });
});

describe('a run that writes its own dev set prices and checks the Challenger too', () => {
  const own = { challenger: { model: 'gpt-4o', baseURL: 'https://api.openai.com/v1' } };
  // The other roles on a free local model, each its own entry (models.default would pass free: true on to the Challenger).
  const local = ['models:', ...['agent', 'proposer', 'validator'].map((r) => `  ${r}: { model: local, free: true }`)];

  it("counts the Challenger's dollars in a zero-data evolve and in gen-data, and gen-data no proposer's", async () => {
    const spec = await specOf(...local, '  challenger: gpt-4o');
    const gpt4o = { inputPerMTok: 2.5, outputPerMTok: 10, cachedInputPerMTok: 1.25 };
    // A run on a dataset never calls the Challenger: its model stays out of the meter's table.
    expect(pricesFor(spec, endpoints('local', own)).table).toEqual({ local: FREE });
    expect(pricesFor(spec, endpoints('local', own), {}, 'zeroDataEvolve')).toMatchObject({ called: ['agent', 'proposer', 'validator', 'challenger'], table: { local: FREE, 'gpt-4o': gpt4o } });
    expect(pricesFor(spec, endpoints('local', own), {}, 'genData')).toMatchObject({ called: ['agent', 'validator', 'challenger'], table: { local: FREE, 'gpt-4o': gpt4o } });
  });

  it('refuses a dollar budget whose Challenger model has no price, before any call', async () => {
    const spec = await specOf('budget: { dollars: 1 }', ...local, '  challenger: my-writer');
    const writer = endpoints('local', { challenger: { model: 'my-writer', baseURL: 'http://l/v1' } });
    expect(() => checkDollarBudget(spec, pricesFor(spec, writer))).not.toThrow();
    for (const calls of ['zeroDataEvolve', 'genData'] as const) {
      expect(() => checkDollarBudget(spec, pricesFor(spec, writer, {}, calls))).toThrow(/the challenger role's model my-writer has no known price/);
    }
  });
});

describe('a kind that names its roles and the models it calls besides them (a code search)', () => {
  const arm = (model: string, price?: { inputPerMTok: number; outputPerMTok: number }) => ({ model, price, field: 'search.proposerModels' });

  it("prices each model called besides the roles by its own price, else the editor's ratchet.models.prices; one model, one price", async () => {
    const spec = await specOf('models:', '  proposer: { model: local, free: true }');
    const prices = pricesFor(spec, endpoints('local'), { prices: { 'set-in-editor': p(1, 2) } }, ['proposer'], [arm('own-price', p(3, 4)), arm('set-in-editor')]);
    expect(prices.table).toEqual({ local: FREE, 'own-price': p(3, 4), 'set-in-editor': p(1, 2) });
    expect(prices.unpricedModels).toBeUndefined();
    expect(() => pricesFor(spec, endpoints('local'), {}, ['proposer'], [arm('local', p(1, 1))])).toThrow(/local is given two different prices/);
  });

  it('refuses a dollar budget when a model called besides the roles has no price, naming its field; without one it runs unpriced', async () => {
    const spec = await specOf('models:', '  proposer: { model: local, free: true }');
    const prices = pricesFor(spec, endpoints('local'), {}, ['proposer'], [arm('mystery')]);
    expect(prices.unpricedModels).toEqual([arm('mystery')]);
    expect(() => checkDollarBudget(spec, prices)).not.toThrow();
    const capped = { ...spec, budget: { ...spec.budget, dollars: 1 } };
    expect(() => checkDollarBudget(capped, prices)).toThrow(/budget.dollars needs a price for mystery, which this run calls: set its price \(search.proposerModels\)/);
  });
});
