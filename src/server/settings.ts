/**
 * The editor's settings as the server uses them. They arrive from the client untyped (JSON), so
 * each field is checked; a bad field is dropped with a problem message rather than failing the
 * whole object — one typo in settings.json must not stop every run.
 */
import { GATE_NAMES, isGateName } from '../core/gates/gateTable';
import { checkPrice, modelPrice } from '../core/llm/prices';
import type { EvolveOverrides } from '../node/evolveRun';
import type { ModelRole, ServerSettings } from '../protocol/lsp';

/** Untrusted until the client says otherwise: command scorers stay off by default. */
export const DEFAULT_SETTINGS: ServerSettings = { provider: 'openai', trusted: false };

const ROLES: readonly ModelRole[] = ['default', 'agent', 'proposer', 'validator', 'meta', 'challenger'];

/**
 * The base URL of every role when the provider is VS Code's language models. Nothing is sent to
 * it (the transport is the client); it only has to pass the LLM layer's URL check, and the
 * reserved `.invalid` name makes sure no request could ever reach a real host.
 */
export const VSCODE_LM_BASE_URL = 'https://vscode-lm.invalid/v1';

export function readSettings(raw: unknown): { settings: ServerSettings; problems: string[] } {
  const problems: string[] = [];
  const v = isRecord(raw) ? raw : {};
  if (!isRecord(raw) && raw !== undefined && raw !== null) problems.push('settings: expected an object');
  const s: ServerSettings = { ...DEFAULT_SETTINGS };
  const bad = (field: string, want: string) => problems.push(`ratchet settings: ${field} must be ${want}; ignored`);

  if (v.provider !== undefined) {
    if (v.provider === 'openai' || v.provider === 'vscode-lm') s.provider = v.provider;
    else bad('provider', "'openai' or 'vscode-lm'");
  }
  if (v.trusted !== undefined) {
    if (typeof v.trusted === 'boolean') s.trusted = v.trusted;
    else bad('trusted', 'true or false');
  }
  if (v.baseURL !== undefined) {
    if (typeof v.baseURL === 'string' && /^https?:\/\//.test(v.baseURL)) s.baseURL = v.baseURL;
    else bad('baseURL', 'an http(s) URL');
  }
  if (v.apiKey !== undefined) {
    if (typeof v.apiKey === 'string') s.apiKey = v.apiKey;
    else bad('apiKey', 'a string');
  }
  if (v.models !== undefined) {
    if (isRecord(v.models)) {
      const models: Partial<Record<ModelRole, string>> = {};
      for (const [role, model] of Object.entries(v.models)) {
        if (ROLES.includes(role as ModelRole) && typeof model === 'string' && model !== '') models[role as ModelRole] = model;
        else bad(`models.${role}`, `a model id for one of ${ROLES.join(', ')}`);
      }
      s.models = models;
    } else bad('models', 'an object of role → model id');
  }
  if (v.prices !== undefined) {
    if (isRecord(v.prices)) {
      const prices: NonNullable<ServerSettings['prices']> = {};
      for (const [model, price] of Object.entries(v.prices)) {
        const p = checkPrice(price);
        if (p) prices[model] = p;
        else bad(`prices.${model}`, '{ input, output } in USD per million tokens (numbers ≥ 0)');
      }
      s.prices = prices;
    } else bad('prices', 'an object of model id → { input, output }');
  }
  if (v.free !== undefined) {
    if (typeof v.free === 'boolean') s.free = v.free;
    else bad('free', 'true or false');
  }
  if (v.gate !== undefined) {
    if (isGateName(v.gate)) s.gate = v.gate;
    else bad('gate', `one of ${GATE_NAMES.join(', ')}`);
  }
  if (v.alpha !== undefined) {
    if (typeof v.alpha === 'number' && v.alpha > 0 && v.alpha < 1) s.alpha = v.alpha;
    else bad('alpha', 'a number between 0 and 1');
  }
  if (v.concurrency !== undefined) {
    if (isCount(v.concurrency) && v.concurrency > 0) s.concurrency = v.concurrency;
    else bad('concurrency', 'a whole number above 0');
  }
  if (v.callTimeoutSeconds !== undefined) {
    if (typeof v.callTimeoutSeconds === 'number' && Number.isFinite(v.callTimeoutSeconds) && v.callTimeoutSeconds > 0) s.callTimeoutSeconds = v.callTimeoutSeconds;
    else bad('callTimeoutSeconds', 'a number of seconds above 0');
  }
  if (v.budget !== undefined) {
    if (isRecord(v.budget)) {
      const budget: NonNullable<ServerSettings['budget']> = {};
      if (v.budget.calls !== undefined) {
        if (isCount(v.budget.calls)) budget.calls = v.budget.calls;
        else bad('budget.calls', 'a whole number');
      }
      if (v.budget.candidates !== undefined) {
        if (isCount(v.budget.candidates)) budget.candidates = v.budget.candidates;
        else bad('budget.candidates', 'a whole number');
      }
      s.budget = budget;
    } else bad('budget', 'an object');
  }
  if (v.keepAliveSeconds !== undefined) {
    if (isCount(v.keepAliveSeconds)) s.keepAliveSeconds = v.keepAliveSeconds;
    else bad('keepAliveSeconds', 'a whole number of seconds');
  }
  if (v.mode !== undefined) {
    if (v.mode === 'suggest' || v.mode === 'autopilot') s.mode = v.mode;
    else bad('mode', "'suggest' or 'autopilot'");
  }
  return { settings: s, problems };
}

/** What the settings override in every run spec (the editor's equivalent of the CLI's flags). */
export function settingsOverrides(s: ServerSettings): EvolveOverrides {
  const o: EvolveOverrides = {};
  if (s.gate !== undefined) o.gate = s.gate;
  if (s.alpha !== undefined) o.alpha = s.alpha;
  if (s.concurrency !== undefined) o.concurrency = s.concurrency;
  if (s.callTimeoutSeconds !== undefined) o.callTimeoutSeconds = s.callTimeoutSeconds;
  if (s.budget?.calls !== undefined) o.budgetCalls = s.budget.calls;
  if (s.budget?.candidates !== undefined) o.candidates = s.budget.candidates;
  if (s.mode !== undefined) o.mode = s.mode;
  const roleModels = Object.fromEntries(Object.entries(s.models ?? {}).filter(([role]) => role !== 'default'));
  if (Object.keys(roleModels).length > 0) o.roleModels = roleModels;
  if (s.prices && Object.keys(s.prices).length > 0) o.prices = Object.fromEntries(Object.entries(s.prices).map(([model, p]) => [model, modelPrice(p)]));
  if (s.free === true) o.free = true;
  // Every call goes to the client, whatever endpoint the spec names.
  if (s.provider === 'vscode-lm') o.baseURL = VSCODE_LM_BASE_URL;
  return o;
}

/**
 * The environment a run reads endpoints and keys from: the server's own, with the settings where
 * the CLI would read OPENAI_BASE_URL, RATCHET_MODEL and OPENAI_API_KEY. A new record each time;
 * process.env is never written, so a key never leaks into an evaluator command's environment.
 */
export function settingsEnv(s: ServerSettings, base: Record<string, string | undefined>): Record<string, string | undefined> {
  const env = { ...base };
  if (s.baseURL !== undefined) env.OPENAI_BASE_URL = s.baseURL;
  const model = s.models?.default ?? (s.provider === 'vscode-lm' ? 'copilot' : undefined);
  if (model !== undefined) env.RATCHET_MODEL = model;
  if (s.apiKey !== undefined) env.OPENAI_API_KEY = s.apiKey;
  return env;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 0;
}
