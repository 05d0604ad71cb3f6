/**
 * The editor's settings as the server uses them. They arrive from the client untyped (JSON) and
 * are checked against the shared schema (src/protocol/serverSettings.ts); a bad field is dropped
 * with a problem message rather than failing the whole object — one typo in settings.json must not
 * stop every run.
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { modelPrice } from '../core/llm/prices';
import type { EndpointDefaults } from '../core/run/endpointDefaults';
import type { EvolveOverrides, GenDataOverrides } from '../core/run/overrides';
import { CODE_GATES } from '../core/gates/gateTable';
import type { ServerSettings } from '../protocol/lsp';
import type { RunKindOverrides, SearchRunOverrides, StartRunKind } from '../core/setup/runKinds';
import { SERVER_SETTINGS_SCHEMA } from '../protocol/serverSettings';
import type { SettingSchema } from '../protocol/serverSettings';

/** Untrusted until the client says otherwise: command scorers stay off by default. */
export const DEFAULT_SETTINGS: ServerSettings = { provider: 'openai', trusted: false };

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!compiled) {
    // removeAdditional: unknown keys (where the schema says additionalProperties: false) go silently.
    // validateSchema: false — the schema is ours, checked against draft-07 by its test
    // (settingsSchema.test.ts); compiling Ajv's meta-schema to check it again took ~130 ms of the
    // server's answer to `initialize`, at every start (bench:bundles).
    const ajv = new Ajv({ allErrors: true, strict: true, removeAdditional: true, validateSchema: false });
    ajv.addVocabulary(['x-expected']);
    compiled = ajv.compile(SERVER_SETTINGS_SCHEMA);
  }
  return compiled;
}

export function readSettings(raw: unknown): { settings: ServerSettings; problems: string[] } {
  if (raw === undefined || raw === null) return { settings: { ...DEFAULT_SETTINGS }, problems: [] };
  if (!isRecord(raw)) return { settings: { ...DEFAULT_SETTINGS }, problems: ['settings: expected an object'] };
  const value = structuredClone(raw);
  const validate = validator();
  const problems: string[] = [];
  if (!validate(value)) {
    // A field (or one entry of a map: a role's model, a model's price) with any error is dropped whole.
    const bad = new Map<string, string[]>();
    for (const e of validate.errors ?? []) {
      const path = fieldPath(e);
      bad.set(path.join('.'), path);
    }
    for (const [field, path] of bad) {
      if ([...bad.values()].some((p) => p.length < path.length && path.slice(0, p.length).join('.') === p.join('.'))) continue;
      problems.push(`ratchet settings: ${field} must be ${expectedAt(path)}; ignored`);
      drop(value, path);
    }
  }
  return { settings: { ...DEFAULT_SETTINGS, ...(value as Partial<ServerSettings>) }, problems };
}

/** The field an error is about: the top-level setting, or the entry of a map or of `budget`. */
function fieldPath(e: ErrorObject): string[] {
  const path =
    e.instancePath === ''
      ? []
      : e.instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  // A bad key of a map (an unknown role) is reported at the map; the key is the entry to drop.
  const key = e.propertyName ?? (e.keyword === 'propertyNames' ? String((e.params as { propertyName: unknown }).propertyName) : undefined);
  if (key !== undefined) path.push(key);
  return path.slice(0, 2);
}

function expectedAt(path: readonly string[]): string {
  let node: SettingSchema = SERVER_SETTINGS_SCHEMA;
  for (const key of path) {
    const next: SettingSchema | undefined = node.properties?.[key] ?? (node.additionalProperties || undefined);
    if (!next) break;
    node = next;
  }
  return node['x-expected'];
}

function drop(value: Record<string, unknown>, path: readonly string[]): void {
  const parent = path.slice(0, -1).reduce<unknown>((v, key) => (isRecord(v) ? v[key] : undefined), value);
  if (isRecord(parent)) delete parent[path[path.length - 1]!];
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
  return o;
}

/** What the settings override in a dev-set generation's spec: the prompt run's overrides a generation has a use for. */
export function genDataSettingsOverrides(s: ServerSettings): GenDataOverrides {
  const { concurrency, callTimeoutSeconds, budgetCalls, roleModels, prices, free } = settingsOverrides(s);
  const o: GenDataOverrides = { concurrency, callTimeoutSeconds, budgetCalls, roleModels, prices, free };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as GenDataOverrides;
}

/**
 * What the settings override in a code search's spec: the gate (when it is one a search can use;
 * a prompt gate set for every run is left to prompt runs), alpha, concurrency, the mode, and the
 * roles' models and prices as for every run kind. Budgets are a
 * prompt run's (calls, candidates); a search's own come from its spec or the request.
 */
export function searchSettingsOverrides(s: ServerSettings): SearchRunOverrides {
  const o: SearchRunOverrides = {};
  if (s.gate !== undefined && (CODE_GATES as readonly string[]).includes(s.gate)) o.gate = s.gate;
  if (s.alpha !== undefined) o.alpha = s.alpha;
  if (s.concurrency !== undefined) o.concurrency = s.concurrency;
  // Suggest or autopilot means the same for the best program of a search as for a prompt run's edits.
  if (s.mode !== undefined) o.mode = s.mode;
  // Which model each role calls and what it costs: the same settings as a prompt run's.
  const { roleModels, prices, free } = settingsOverrides(s);
  if (roleModels) o.roleModels = roleModels;
  if (prices) o.prices = prices;
  if (free) o.free = free;
  return o;
}

/** What the settings override in a run of each kind the editor starts (src/core/setup/runKinds.ts). */
const SETTINGS_OVERRIDES: { [K in StartRunKind]: (s: ServerSettings) => RunKindOverrides[K] } = {
  evolve: settingsOverrides,
  evaluate: settingsOverrides,
  search: searchSettingsOverrides,
  'gen-data': genDataSettingsOverrides,
};

export function settingsOverridesFor<K extends StartRunKind>(kind: K, s: ServerSettings): RunKindOverrides[K] {
  return SETTINGS_OVERRIDES[kind](s);
}

/**
 * What a run falls back to where its spec names no endpoint, and its keys — the one place the
 * editor's "not set" gets a meaning: the settings, else the server's own environment read as the
 * CLI reads the shell's (an editor started from a shell with OPENAI_API_KEY works as the CLI does).
 * `keyNames` are the variables the run spec's roles name with `apiKeyEnv`; only those, and
 * nothing else of the environment, reach the run. With VS Code's language models no key goes at all.
 */
export function endpointDefaults(s: ServerSettings, env: Readonly<Record<string, string | undefined>>, keyNames: readonly string[] = []): EndpointDefaults {
  const set = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  // Every call goes to the editor (DaemonRunSetup.languageModels); roleConfig says what an unset model means there.
  if (s.provider === 'vscode-lm') return s.models?.default === undefined ? {} : { model: s.models.default, modelFrom: 'setting ratchet.models.default' };
  const out: EndpointDefaults = {};
  const baseURL = s.baseURL ?? set('OPENAI_BASE_URL');
  if (baseURL !== undefined) {
    out.baseURL = baseURL;
    out.baseURLFrom = s.baseURL !== undefined ? 'setting ratchet.endpoint.baseUrl' : "OPENAI_BASE_URL (the editor's environment)";
  }
  const model = s.models?.default ?? set('RATCHET_MODEL');
  if (model !== undefined) {
    out.model = model;
    out.modelFrom = s.models?.default !== undefined ? 'setting ratchet.models.default' : "RATCHET_MODEL (the editor's environment)";
  }
  const apiKey = s.apiKey ?? set('OPENAI_API_KEY');
  if (apiKey !== undefined) out.apiKey = apiKey;
  out.apiKeyFrom = s.apiKey !== undefined ? 'the key stored with Ratchet: Set API Key' : apiKey !== undefined ? "OPENAI_API_KEY (the editor's environment)" : 'Ratchet: Set API Key';
  const named = keyNames.flatMap((name) => {
    const value = set(name);
    return value === undefined ? [] : [[name, value] as const];
  });
  if (named.length > 0) out.apiKeys = Object.fromEntries(named);
  return out;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
