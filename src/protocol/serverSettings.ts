/**
 * The JSON schema of `ServerSettings` (lsp.ts): what the client may send the server in
 * `initializationOptions` and `workspace/didChangeConfiguration`. The server validates what
 * arrives with it (src/server/settings.ts, through Ajv); each field's `x-expected` is the words a
 * problem message uses ("ratchet settings: alpha must be a number between 0 and 1; ignored").
 *
 * The schema is typed against the interface: a field added to `ServerSettings` without its schema
 * here does not compile. The value lists are the ones the client's settings table offers too.
 */
import { GATE_NAMES } from '../core/gates/gateTable';
import type { RunMode } from '../core/journal/payloadTypes';
import type { ModelRole, ServerSettings } from './lsp';

/** The gates, from the one gate table. */
export { GATE_NAMES };
export const PROVIDERS = ['openai', 'vscode-lm'] as const satisfies readonly ServerSettings['provider'][];
export const RUN_MODES = ['suggest', 'autopilot'] as const satisfies readonly RunMode[];
export const MODEL_ROLES = ['default', 'agent', 'proposer', 'validator', 'meta', 'challenger'] as const satisfies readonly ModelRole[];

/** The subset of JSON schema the settings use, with our `x-expected` annotation. */
export interface SettingSchema {
  type?: 'string' | 'number' | 'integer' | 'boolean' | 'object';
  enum?: readonly string[];
  pattern?: string;
  minLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Readonly<Record<string, SettingSchema>>;
  required?: readonly string[];
  /** false: unknown keys are dropped silently; a schema: a map whose every value is checked. */
  additionalProperties?: false | SettingSchema;
  propertyNames?: SettingSchema;
  /** What the value means; the editor's Settings editor shows it (the manifest is written from it). */
  description?: string;
  /** What a problem message says the value must be. */
  'x-expected': string;
}

/** One model's price; also the shape of each value of the editor's `ratchet.models.prices` setting. */
export const PRICE_SCHEMA: SettingSchema = {
  type: 'object',
  required: ['input', 'output'],
  properties: {
    input: { type: 'number', minimum: 0, description: 'USD per million prompt tokens.', 'x-expected': 'a number ≥ 0' },
    output: { type: 'number', minimum: 0, description: 'USD per million completion tokens.', 'x-expected': 'a number ≥ 0' },
    cachedInput: {
      type: 'number',
      minimum: 0,
      description: "USD per million prompt tokens served from the provider's prompt cache (default: the input price).",
      'x-expected': 'a number ≥ 0',
    },
  },
  additionalProperties: false,
  'x-expected': '{ input, output } in USD per million tokens (numbers ≥ 0)',
};

const count = (what: string): SettingSchema => ({ type: 'integer', minimum: 0, 'x-expected': what });

/** Every field of `ServerSettings`, each with the words its problem message uses. */
const properties: { readonly [K in keyof ServerSettings]-?: SettingSchema } = {
  provider: { type: 'string', enum: PROVIDERS, 'x-expected': "'openai' or 'vscode-lm'" },
  trusted: { type: 'boolean', 'x-expected': 'true or false' },
  baseURL: { type: 'string', pattern: '^https?://', 'x-expected': 'an http(s) URL' },
  models: {
    type: 'object',
    propertyNames: { type: 'string', enum: MODEL_ROLES, 'x-expected': `one of ${MODEL_ROLES.join(', ')}` },
    additionalProperties: { type: 'string', minLength: 1, 'x-expected': `a model id for one of ${MODEL_ROLES.join(', ')}` },
    'x-expected': 'an object of role → model id',
  },
  prices: { type: 'object', additionalProperties: PRICE_SCHEMA, 'x-expected': 'an object of model id → { input, output }' },
  free: { type: 'boolean', 'x-expected': 'true or false' },
  apiKey: { type: 'string', 'x-expected': 'a string' },
  gate: { type: 'string', enum: GATE_NAMES, 'x-expected': `one of ${GATE_NAMES.join(', ')}` },
  alpha: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, 'x-expected': 'a number between 0 and 1' },
  concurrency: { type: 'integer', minimum: 1, 'x-expected': 'a whole number above 0' },
  callTimeoutSeconds: { type: 'number', exclusiveMinimum: 0, 'x-expected': 'a number of seconds above 0' },
  budget: {
    type: 'object',
    properties: { calls: count('a whole number'), candidates: count('a whole number') },
    additionalProperties: false,
    'x-expected': 'an object',
  },
  mode: { type: 'string', enum: RUN_MODES, 'x-expected': "'suggest' or 'autopilot'" },
  keepAliveSeconds: count('a whole number of seconds'),
};

/**
 * The settings object. Unknown keys are dropped without a word (a newer client may send more);
 * `provider` and `trusted` may be missing, the server then keeps its defaults for them.
 */
export const SERVER_SETTINGS_SCHEMA = {
  type: 'object',
  properties,
  additionalProperties: false,
  'x-expected': 'an object',
} as const satisfies SettingSchema;
