/**
 * Ratchet's settings as data: every `ratchet.*` key with its type, default and scope, which ones
 * need a server restart, and how they become the `ServerSettings` the server receives. No VS Code
 * import, so the manifest (package.json `contributes.configuration`) is pinned to this table by a
 * unit test; `Config` (config.ts) is the thin VS Code reader over it. The value lists (gates,
 * providers, modes, roles) are the server schema's (src/protocol/serverSettings.ts), so what the
 * editor offers is what the server accepts.
 */
import type { GateName } from '../core/gates/record';
import { checkPrice } from '../core/llm/prices';
import type { PriceInput } from '../core/llm/prices';
import type { RunMode } from '../core/run/events';
import type { ModelRole, ServerSettings } from '../protocol/lsp';
import { GATE_NAMES, MODEL_ROLES, PROVIDERS, RUN_MODES } from '../protocol/serverSettings';

export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

interface SettingBase {
  scope: SettingScope;
  /** The server reads it only at start (process arguments): a change restarts the server. */
  restart?: boolean;
  /**
   * Sent to the server only when the user set it somewhere. The server ranks settings above the
   * run spec, so a default sent on every start would silently override each file's own spec.
   */
  onlyWhenSet?: boolean;
}
type StringSetting = SettingBase & { type: 'string'; default: string; enum?: readonly string[] };
type NumberSetting = SettingBase & { type: 'number' | 'integer'; default: number; minimum?: number; maximum?: number };
type BooleanSetting = SettingBase & { type: 'boolean'; default: boolean };
/** A map of model id → price (`ratchet.models.prices`). */
type PricesSetting = SettingBase & { type: 'object'; default: Readonly<Record<string, PriceInput>> };
export type SettingDef = StringSetting | NumberSetting | BooleanSetting | PricesSetting;
export type SettingValue = string | number | boolean | Record<string, PriceInput>;

export const TRACE_LEVELS = ['off', 'messages', 'verbose'] as const;

const model = (): StringSetting => ({ type: 'string', default: '', scope: 'window' });

/** Keys without the `ratchet.` prefix. Defaults equal the engine's (pinned by a test). */
export const SETTINGS = {
  'endpoint.provider': { type: 'string', default: 'openai', enum: PROVIDERS, scope: 'window' },
  // Where the API key is sent, so restricted in untrusted workspaces (package.json). Not
  // machine-scoped: a remote window (code-server, SSH) ignores machine settings of the user file.
  'endpoint.baseUrl': { type: 'string', default: '', scope: 'window' },
  // A claim about the endpoint above: its calls cost $0 (Ollama, vLLM). Off unless the user says so.
  'endpoint.free': { type: 'boolean', default: false, scope: 'window' },
  'models.default': model(),
  'models.agent': model(),
  'models.proposer': model(),
  'models.validator': model(),
  'models.meta': model(),
  'models.challenger': model(),
  'models.prices': { type: 'object', default: {}, scope: 'window' },
  'gate.name': { type: 'string', default: 'pace+', enum: GATE_NAMES, scope: 'resource', onlyWhenSet: true },
  'gate.alpha': { type: 'number', default: 0.05, minimum: 0.0001, maximum: 0.5, scope: 'resource', onlyWhenSet: true },
  'run.concurrency': { type: 'integer', default: 4, minimum: 1, maximum: 64, scope: 'window', onlyWhenSet: true },
  'run.callTimeoutSeconds': { type: 'number', default: 120, minimum: 1, maximum: 3600, scope: 'window', onlyWhenSet: true },
  'run.budgetCalls': { type: 'integer', default: 0, minimum: 0, scope: 'resource', onlyWhenSet: true },
  'run.budgetCandidates': { type: 'integer', default: 30, minimum: 1, scope: 'resource', onlyWhenSet: true },
  'run.mode': { type: 'string', default: 'suggest', enum: RUN_MODES, scope: 'resource', onlyWhenSet: true },
  'run.keepAliveSeconds': { type: 'integer', default: 120, minimum: 0, maximum: 86_400, scope: 'window' },
  'server.maxMemoryMb': { type: 'integer', default: 0, minimum: 0, scope: 'machine', restart: true },
  // Read by vscode-languageclient itself (`<clientId>.trace.server`); listed so the manifest test sees it.
  'trace.server': { type: 'string', default: 'off', enum: TRACE_LEVELS, scope: 'window' },
} as const satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export const SECTION = 'ratchet';

export interface RatchetSettings {
  provider: (typeof PROVIDERS)[number];
  baseUrl: string;
  models: Record<ModelRole, string>;
  /** USD per million tokens by model id, for models the price list lacks or prices differently. */
  prices: Record<string, PriceInput>;
  endpointFree: boolean;
  gate: GateName | undefined;
  alpha: number | undefined;
  concurrency: number | undefined;
  callTimeoutSeconds: number | undefined;
  budgetCalls: number | undefined;
  budgetCandidates: number | undefined;
  mode: RunMode | undefined;
  keepAliveSeconds: number;
  maxMemoryMb: number;
  trace: (typeof TRACE_LEVELS)[number];
}

/** How the reader sees one setting: its effective value and whether the user set it anywhere. */
export interface SettingLookup {
  value(key: SettingKey): unknown;
  isSet(key: SettingKey): boolean;
}

/** A value of the wrong type or out of range (hand-edited settings.json) reads as the default. */
export function valid(key: SettingKey, raw: unknown): SettingValue {
  const def: SettingDef = SETTINGS[key];
  if (def.type === 'boolean') return typeof raw === 'boolean' ? raw : def.default;
  // One bad entry drops that model's price, not the others'.
  if (def.type === 'object') return validPrices(raw);
  if (def.type === 'string') {
    if (typeof raw !== 'string') return def.default;
    if (def.enum && !def.enum.includes(raw)) return def.default;
    // The server takes only http(s) URLs; anything else would be dropped there with a warning.
    if (key === 'endpoint.baseUrl') return /^https?:\/\/\S+$/.test(raw.trim()) ? raw.trim() : def.default;
    return raw;
  }
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return def.default;
  if (def.type === 'integer' && !Number.isInteger(raw)) return def.default;
  if (def.minimum !== undefined && raw < def.minimum) return def.default;
  if (def.maximum !== undefined && raw > def.maximum) return def.default;
  return raw;
}

function validPrices(raw: unknown): Record<string, PriceInput> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, PriceInput> = {};
  for (const [model, price] of Object.entries(raw)) {
    const p = checkPrice(price);
    if (model.trim() !== '' && p) out[model.trim()] = p;
  }
  return out;
}

export function readSettings(lookup: SettingLookup): RatchetSettings {
  const get = <T extends SettingValue>(key: SettingKey): T => valid(key, lookup.value(key)) as T;
  const ifSet = <T extends SettingValue>(key: SettingKey): T | undefined => (lookup.isSet(key) ? get<T>(key) : undefined);
  const models = Object.fromEntries(MODEL_ROLES.map((role) => [role, get<string>(`models.${role}`).trim()])) as Record<ModelRole, string>;
  const budgetCalls = ifSet<number>('run.budgetCalls');
  return {
    provider: get('endpoint.provider'),
    baseUrl: get('endpoint.baseUrl'),
    models,
    prices: get('models.prices'),
    endpointFree: get('endpoint.free'),
    gate: ifSet('gate.name'),
    alpha: ifSet('gate.alpha'),
    concurrency: ifSet('run.concurrency'),
    callTimeoutSeconds: ifSet('run.callTimeoutSeconds'),
    // 0 means "no limit beyond the run spec's", which is what leaving it out says.
    budgetCalls: budgetCalls === 0 ? undefined : budgetCalls,
    budgetCandidates: ifSet('run.budgetCandidates'),
    mode: ifSet('run.mode'),
    keepAliveSeconds: get('run.keepAliveSeconds'),
    maxMemoryMb: get('server.maxMemoryMb'),
    trace: get('trace.server'),
  };
}

export interface SessionFacts {
  /** From SecretStorage; undefined when none is stored. */
  apiKey: string | undefined;
  trusted: boolean;
}

/** What the server receives; empty strings and unset values are left out so the server falls back. */
export function toServerSettings(s: RatchetSettings, facts: SessionFacts): ServerSettings {
  const out: ServerSettings = { provider: s.provider, trusted: facts.trusted };
  if (s.baseUrl !== '' && s.provider === 'openai') out.baseURL = s.baseUrl;
  const models = Object.fromEntries(Object.entries(s.models).filter(([, m]) => m !== '')) as Partial<Record<ModelRole, string>>;
  if (Object.keys(models).length > 0) out.models = models;
  if (Object.keys(s.prices).length > 0) out.prices = s.prices;
  // The editor's models are priced by the editor (vscode-lm): the endpoint claim is only about an openai one.
  if (s.endpointFree && s.provider === 'openai') out.free = true;
  // The key goes only to the endpoint that needs it; vscode-lm calls never leave the editor.
  if (facts.apiKey && s.provider === 'openai') out.apiKey = facts.apiKey;
  if (s.gate !== undefined) out.gate = s.gate;
  if (s.alpha !== undefined) out.alpha = s.alpha;
  if (s.concurrency !== undefined) out.concurrency = s.concurrency;
  if (s.callTimeoutSeconds !== undefined) out.callTimeoutSeconds = s.callTimeoutSeconds;
  if (s.budgetCalls !== undefined || s.budgetCandidates !== undefined) {
    out.budget = {};
    if (s.budgetCalls !== undefined) out.budget.calls = s.budgetCalls;
    if (s.budgetCandidates !== undefined) out.budget.candidates = s.budgetCandidates;
  }
  if (s.mode !== undefined) out.mode = s.mode;
  out.keepAliveSeconds = s.keepAliveSeconds;
  return out;
}

/** The keys among `changed` whose new value only takes effect in a new server process. */
export function keysNeedingRestart(changed: readonly SettingKey[]): SettingKey[] {
  return changed.filter((key) => (SETTINGS[key] as SettingDef).restart === true);
}

/** Node arguments for the server process, from the restart-only settings. */
export function serverExecArgv(s: RatchetSettings): string[] {
  return s.maxMemoryMb > 0 ? [`--max-old-space-size=${s.maxMemoryMb}`] : [];
}

/** One log line about what the server was sent, with the key reduced to whether there is one. */
export function describeServerSettings(s: ServerSettings): string {
  const { apiKey, ...rest } = s;
  return `${JSON.stringify(rest)}, API key ${apiKey ? 'set' : 'not set'}`;
}
