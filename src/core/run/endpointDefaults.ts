/**
 * What a face knows about a run's endpoints that the run spec does not: where roles without an
 * endpoint of their own go, and the API keys. The CLI reads it from the user's shell
 * (`endpointDefaultsFromEnv`); the editor from its settings and SecretStorage, and it reaches the
 * run daemon as a field of the run request — never as an environment variable.
 *
 * Every field may be undefined: not set. `roleConfig` (src/node/runs/evolveRun.ts) is the one place that
 * says what happens then. The keys are secrets: `redact` blanks `apiKey` and `apiKeys` wherever
 * this object is written down, and nothing journals or logs it.
 */
export interface EndpointDefaults {
  /** Below the run spec's `models.*.baseURL` (CLI: OPENAI_BASE_URL). */
  baseURL?: string;
  /** Below the run spec's models (CLI: RATCHET_MODEL). */
  model?: string;
  /** The key of the default endpoint (CLI: OPENAI_API_KEY). */
  apiKey?: string;
  /** Keys a run spec's roles name with `apiKeyEnv`, by that name. */
  apiKeys?: Readonly<Record<string, string>>;
  /**
   * Where `baseURL` and `apiKey` came from, as a user would look for them (`OPENAI_BASE_URL`, `the
   * setting ratchet.endpoint.baseUrl`, `the key stored with Ratchet: Set API Key`); for `apiKey`
   * unset, where one would be set. Messages name them; undefined reads as the CLI's variables.
   */
  baseURLFrom?: string;
  apiKeyFrom?: string;
  /** Where `model` came from (`setting ratchet.models.default`); undefined reads as RATCHET_MODEL. */
  modelFrom?: string;
}

/** The CLI's defaults: the user's shell environment, where every variable can be a role's `apiKeyEnv`. */
export function endpointDefaultsFromEnv(env: Readonly<Record<string, string | undefined>>): EndpointDefaults {
  const set = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const apiKeys = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  return withoutUndefined({
    baseURL: set('OPENAI_BASE_URL'),
    model: set('RATCHET_MODEL'),
    apiKey: set('OPENAI_API_KEY'),
    apiKeys,
    baseURLFrom: 'OPENAI_BASE_URL',
    apiKeyFrom: 'OPENAI_API_KEY',
    modelFrom: 'RATCHET_MODEL',
  });
}

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
