/**
 * Which endpoint, model and key each role of a run calls, for every run kind: the one place where
 * "not set" gets its meaning for an endpoint (see roleConfig).
 */
import { RatchetError } from '../../core/errors';
import type { RoleConfig } from '../../core/llm/roles';
import { ROLES } from '../../core/llm/types';
import type { EndpointConfig } from '../../core/llm/types';
import type { RunSpec, SpecSource } from '../../core/run/specTypes';
import { RUN_SPEC_EXTENSION } from '../../core/files/fileKinds';
import type { EvolveOverrides } from '../../core/run/overrides';
import { REDACTED, redactUrl, urlCredentials } from '../../core/redact';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { OPENAI_BASE_URL, baseURLChoice, modelChoice } from '../../core/run/modelChoice';

/**
 * Endpoints per role. Which model and base URL, and where each was chosen: run/modelChoice.ts (the
 * spec's `models`, the editor's settings or the CLI's flags, the face's defaults, OpenAI). Keys: the one the role's `apiKeyEnv` names, else the default key;
 * never written anywhere, and each role keeps where its key came from for the advice a 401 gives.
 * This is where "not set" gets its meaning.
 *
 * With the editor's language models (`editorModels`: the face passed its own transport) every
 * call goes to the editor, whatever endpoint the spec names: no base URL, no key, and a role
 * without a model leaves it undefined, for the editor to pick (EndpointConfig, llm/types.ts).
 */
export function roleConfig(spec: Pick<RunSpec, 'models' | 'origin'> & Partial<Pick<RunSpec, 'sources'>>, o: EvolveOverrides, defaults: EndpointDefaults, editorModels = false, called: readonly (typeof ROLES)[number][] = ROLES): RoleConfig {
  const endpointFor = (role: (typeof ROLES)[number]): EndpointConfig => {
    const m = spec.models[role];
    const { value: model, from: modelFrom } = modelChoice(spec, role, o, defaults);
    if (editorModels) return model === undefined ? {} : { model, modelFrom };
    const { value: baseURL = OPENAI_BASE_URL, from: baseURLFrom } = baseURLChoice(spec, role, o, defaults);
    const defaultKeyFrom = defaults.apiKeyFrom ?? 'OPENAI_API_KEY';
    checkBaseURL(baseURL, baseURLFrom, `${defaultKeyFrom} or models.${role}.apiKeyEnv`);
    if (!model) throw new RatchetError('badInput', noModelMessage(role, spec.sources ?? []), { field: `models.${role}.model` });
    const named = m.apiKeyEnv ? defaults.apiKeys?.[m.apiKeyEnv] : undefined;
    const apiKey = named ?? defaults.apiKey;
    const envField = `${m.apiKeyEnv} (models.${role}.apiKeyEnv)`;
    // A named variable that is unset falls back to the default key; the advice says both.
    const apiKeyFrom = !m.apiKeyEnv || named !== undefined ? (m.apiKeyEnv ? envField : defaultKeyFrom) : apiKey ? `${defaultKeyFrom}, as ${envField} is not set` : envField;
    return { baseURL, baseURLFrom, model, modelFrom, ...(apiKey ? { apiKey } : {}), apiKeyFrom };
  };
  // Every role the run calls is spelled out; the editor's default has no model, so a role without
  // one does not inherit another role's through it. A role the run never calls needs no model.
  const config: RoleConfig = { default: editorModels ? {} : endpointFor('agent') };
  for (const role of called) config[role] = endpointFor(role);
  return config;
}

/**
 * What to add where, when no model is named for a role: the run spec the prompt has (an empty
 * sidecar says nothing by itself), the YAML that names one, and the other places a model can come from.
 */
function noModelMessage(role: string, sources: readonly SpecSource[]): string {
  const sidecar = sources.find((s) => s.kind === 'sidecar');
  const frontMatter = sources.find((s) => s.kind === 'front-matter');
  const where = sidecar
    ? `its run spec ${sidecar.file} names none; add to it`
    : frontMatter
      ? `the front matter of ${frontMatter.file} names none; add to it`
      : `the prompt has no run spec; create <prompt name>${RUN_SPEC_EXTENSION} beside it with`;
  return `No model for the ${role} role: ${where} "models: { default: { model: <model id> } }" (or models.${role}.model for this role alone), or pass --model, set RATCHET_MODEL, or set ratchet.models.default in the editor.`;
}

/**
 * Refuses a base URL the run cannot use as given, naming where it came from, its credentials
 * blanked: a user name and password (fetch refuses such a URL, and the SDK's error would print it
 * as "could not reach the endpoint"), or credentials already blanked because run.json never keeps
 * them (a resumed run needs the full URL again).
 */
function checkBaseURL(url: string, from: string, keyGoesIn: string): void {
  const shown = redactUrl(url);
  if (url.includes(REDACTED)) {
    throw new RatchetError('badInput', `The base URL from ${from}, "${url}", had credentials that Ratchet does not write down: pass the full URL again with --base-url.`, { field: 'baseURL' });
  }
  if (urlCredentials(url).userinfo) {
    throw new RatchetError(
      'badInput',
      `The base URL from ${from}, "${shown}", has a user name or password in it, which the OpenAI client cannot send (fetch refuses such URLs): remove it from the URL and give the key as the API key instead (${keyGoesIn}).`,
      { field: 'baseURL' },
    );
  }
}
