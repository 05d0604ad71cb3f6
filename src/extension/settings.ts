/**
 * Ratchet's settings as data: every `ratchet.*` key with its type, default, range, scope and
 * description, which ones need a server restart, and how they become the `ServerSettings` the
 * server receives. No VS Code import, so `npm run manifest` writes the manifest's
 * `contributes.configuration` from this table (scripts/contributes.ts); `Config` (config.ts) is
 * the thin VS Code reader over it. The value lists (gates, providers, modes, roles) and the shape
 * of a price are the server schema's (src/protocol/serverSettings.ts), so what the editor offers
 * is what the server accepts.
 */
import { GATE_TABLE } from '../core/gates/gateTable';
import type { GateName } from '../core/gates/record';
import { checkPrice } from '../core/llm/prices';
import type { PriceInput } from '../core/llm/prices';
import type { RunMode } from '../core/journal/payloadTypes';
import type { ModelRole, ServerSettings } from '../protocol/lsp';
import { GATE_NAMES, MODEL_ROLES, PROVIDERS, RUN_MODES } from '../protocol/serverSettings';

export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

interface SettingBase {
  scope: SettingScope;
  /** Markdown, shown in the Settings editor; `#ratchet.x.y#` links another setting. */
  description: string;
  /** The server reads it only at start (process arguments): a change restarts the server. */
  restart?: boolean;
  /**
   * Sent to the server only when the user set it somewhere. The server ranks settings above the
   * run spec, so a default sent on every start would silently override each file's own spec.
   */
  onlyWhenSet?: boolean;
  /** In an untrusted workspace only the user's own value counts (the manifest's `restrictedConfigurations`). */
  restricted?: boolean;
}
type StringSetting = SettingBase & {
  type: 'string';
  /** '' is "not set" (readSettings makes it undefined): the Settings editor shows an empty box. */
  default: string;
  enum?: readonly string[];
  /** One per `enum` value, in its order. */
  enumDescriptions?: readonly string[];
  /** A value must match it; the default must too. */
  pattern?: string;
  patternErrorMessage?: string;
};
type NumberSetting = SettingBase & { type: 'number' | 'integer'; default: number; minimum?: number; maximum?: number };
type BooleanSetting = SettingBase & { type: 'boolean'; default: boolean };
/** A map of model id → price (`ratchet.models.prices`); each value has the server schema's price shape. */
type PricesSetting = SettingBase & { type: 'object'; default: Readonly<Record<string, PriceInput>> };
export type SettingDef = StringSetting | NumberSetting | BooleanSetting | PricesSetting;
export type SettingValue = string | number | boolean | Record<string, PriceInput>;

export const TRACE_LEVELS = ['off', 'messages', 'verbose'] as const;

/** An enum with a description for each value, written as a record so none is missing. */
function choices<V extends string>(values: readonly V[], descriptions: Readonly<Record<V, string>>): { enum: readonly V[]; enumDescriptions: readonly string[] } {
  return { enum: values, enumDescriptions: values.map((v) => descriptions[v]) };
}

const model = (description: string): StringSetting => ({ type: 'string', default: '', scope: 'window', description });
const orDefault = 'Empty: `ratchet.models.default`.';

/** Keys without the `ratchet.` prefix. Defaults equal the engine's (pinned by a test). */
export const SETTINGS = {
  'endpoint.provider': {
    type: 'string',
    default: 'openai',
    ...choices(PROVIDERS, {
      openai: 'An OpenAI-compatible HTTP endpoint (OpenAI, Azure, Ollama, vLLM, LM Studio, llama.cpp, OpenRouter): base URL below, key from "Ratchet: Set API Key" or OPENAI_API_KEY.',
      'vscode-lm': 'VS Code\'s Language Model API (the models of your installed chat providers); pick one with "Ratchet: Select Model". No key needed; no logprobs, so Soft Elo falls back to Plain Elo.',
    }),
    scope: 'window',
    description: 'Where LLM calls go.',
  },
  // Where the API key is sent, so restricted in untrusted workspaces. Not machine-scoped: a remote
  // window (code-server, SSH) ignores machine settings of the user file.
  'endpoint.baseUrl': {
    type: 'string',
    default: '',
    pattern: '^(https?://\\S+)?$',
    patternErrorMessage: 'An http(s) URL, e.g. http://127.0.0.1:11434/v1',
    scope: 'window',
    restricted: true,
    description: 'Base URL of the OpenAI-compatible endpoint, e.g. `http://127.0.0.1:11434/v1` (Ollama). Empty: `OPENAI_BASE_URL`, else OpenAI. Your API key is sent here, so in an untrusted workspace only your user setting is used.',
  },
  // A claim about the endpoint above: its calls cost $0 (Ollama, vLLM). Off unless the user says so.
  'endpoint.free': {
    type: 'boolean',
    default: false,
    scope: 'window',
    description:
      "The endpoint of `#ratchet.endpoint.baseUrl#` costs nothing (a model served on your machine: Ollama, vLLM, LM Studio): calls to it count $0 toward a run's `budget.dollars`. Roles whose run spec names another endpoint are not covered. Ratchet never assumes this on its own.",
  },
  'models.default': model('Model for every role without its own (e.g. `gpt-4o-mini`). With the `vscode-lm` provider, a model family or id; "Ratchet: Select Model" sets it. Empty: the run spec\'s, else `RATCHET_MODEL`.'),
  'models.agent': model(`Model that runs the prompt under evolution (the Solver). ${orDefault}`),
  'models.proposer': model(`Model that proposes edits to the prompt. ${orDefault}`),
  'models.validator': model(`Frozen model that judges parent vs child in the pairwise gates. ${orDefault}`),
  'models.meta': model(`Model that refreshes the judging rubric (Adaptive Focus). ${orDefault}`),
  'models.challenger': model(`Model that writes dev tasks when there is no dataset. ${orDefault}`),
  'models.prices': {
    type: 'object',
    default: {},
    scope: 'window',
    description:
      'Prices by model id, in USD per million tokens, e.g. `{ "my-azure-gpt4o": { "input": 2.5, "output": 10 } }`: for models Ratchet\'s price list lacks or prices differently. A run spec\'s `models.<role>.price` wins over this; this wins over the list. Dollars are counted (and `budget.dollars` enforced) only for priced models.',
  },
  'gate.name': {
    type: 'string',
    default: 'pace+',
    enum: GATE_NAMES,
    enumDescriptions: GATE_TABLE.map((g) => g.description),
    scope: 'resource',
    onlyWhenSet: true,
    description: "Acceptance gate when you set it here: it then overrides every run spec's `gate.name` (like the CLI's `--gate`). Leave unset to use each run spec's gate (default PACE+).",
  },
  'gate.alpha': {
    type: 'number',
    default: 0.05,
    minimum: 0.0001,
    maximum: 0.5,
    scope: 'resource',
    onlyWhenSet: true,
    description:
      "α: the probability of committing an edit that is not better, at any stopping time — for the whole run under the default `gate.schedule` (each candidate that reaches the dev set then needs evidence ×j(j+1)/α: ×40, ×120, … at 0.05), for each candidate under `per-candidate` (×1/α). Set here, it overrides every run spec's `gate.alpha`.",
  },
  'run.concurrency': {
    type: 'integer',
    default: 4,
    minimum: 1,
    maximum: 64,
    scope: 'window',
    onlyWhenSet: true,
    description: 'LLM calls in flight at once, across a run. Set here, it overrides the run spec.',
  },
  'run.callTimeoutSeconds': {
    type: 'number',
    default: 120,
    minimum: 1,
    maximum: 3600,
    scope: 'window',
    onlyWhenSet: true,
    description: "How long one LLM request may go unanswered before Ratchet abandons it and tries again (a slow local model may need more). Set here, it overrides the run spec's `callTimeoutSeconds`.",
  },
  'run.budgetCalls': {
    type: 'integer',
    default: 0,
    minimum: 0,
    scope: 'resource',
    onlyWhenSet: true,
    description: "Stop a run after this many LLM calls; `0`: no limit beyond the run spec's budget.",
  },
  'run.budgetCandidates': {
    type: 'integer',
    default: 30,
    minimum: 1,
    scope: 'resource',
    onlyWhenSet: true,
    description: "Candidates a run may test. Set here, it overrides the run spec's `budget.candidates`.",
  },
  'run.mode': {
    type: 'string',
    default: 'suggest',
    ...choices(RUN_MODES, {
      suggest: 'Each committed edit waits inline for your Accept / Reject.',
      autopilot: 'Committed edits are applied as they come, each one undoable, until the budget ends.',
    }),
    scope: 'resource',
    onlyWhenSet: true,
    description: "What happens to an edit the gate commits. Set here, it overrides the run spec's `mode`.",
  },
  'run.keepAliveSeconds': {
    type: 'integer',
    default: 120,
    minimum: 0,
    maximum: 86_400,
    scope: 'window',
    description:
      'Runs execute in a background process that survives a window reload. After the window closes (or while it reloads), they keep going this many seconds waiting for it to come back, then stop where they are and can be resumed. `0`: runs stop with the window.',
  },
  'server.maxMemoryMb': {
    type: 'integer',
    default: 0,
    minimum: 0,
    scope: 'machine',
    restart: true,
    description: "Heap limit of the language server process in MB (`--max-old-space-size`); `0`: Node's default. Changing it restarts the server.",
  },
  // Read by vscode-languageclient itself (`<clientId>.trace.server`); tabled so the manifest has it.
  'trace.server': {
    type: 'string',
    default: 'off',
    enum: TRACE_LEVELS,
    scope: 'window',
    description: 'Traces the messages between VS Code and the Ratchet language server in the "Ratchet Trace" output (set that channel\'s log level to Trace). The API key is scrubbed from it.',
  },
} as const satisfies Record<string, SettingDef>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
export const SECTION = 'ratchet';

/** What the user chose; undefined (or a role left out of `models`): not set, the server falls back. */
export interface RatchetSettings {
  provider: (typeof PROVIDERS)[number];
  baseUrl: string | undefined;
  models: Partial<Record<ModelRole, string>>;
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
    // The pattern the Settings editor enforces, so a hand-edited value cannot slip past it.
    if (def.pattern !== undefined) return new RegExp(def.pattern).test(raw.trim()) ? raw.trim() : def.default;
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
  // An empty box in the Settings editor is how VS Code shows "not set" for a text setting.
  const text = (key: SettingKey): string | undefined => get<string>(key).trim() || undefined;
  const models: Partial<Record<ModelRole, string>> = {};
  for (const role of MODEL_ROLES) {
    const m = text(`models.${role}`);
    if (m !== undefined) models[role] = m;
  }
  const budgetCalls = ifSet<number>('run.budgetCalls');
  return {
    provider: get('endpoint.provider'),
    baseUrl: text('endpoint.baseUrl'),
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

/** What the server receives; unset values are left out so the server falls back. */
export function toServerSettings(s: RatchetSettings, facts: SessionFacts): ServerSettings {
  const out: ServerSettings = { provider: s.provider, trusted: facts.trusted };
  if (s.baseUrl !== undefined && s.provider === 'openai') out.baseURL = s.baseUrl;
  if (Object.keys(s.models).length > 0) out.models = { ...s.models };
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
