/**
 * Which endpoint and model each role talks to. One default endpoint, and per-role overrides that
 * only name what differs (a cheaper validator model, a local agent on Ollama…).
 */
import { RatchetError } from '../errors';
import { redactUrl } from '../redact';
import { ROLES } from './types';
import type { EndpointConfig, Role } from './types';

export type RoleConfig = { default: EndpointConfig } & Partial<Record<Role, Partial<EndpointConfig>>>;

/** What may be shown, logged or journaled about an endpoint: everything but the key (`redact` blanks the URL's credentials where it is written down). */
export type PublicEndpoint = Omit<EndpointConfig, 'apiKey' | 'apiKeyFrom' | 'modelFrom' | 'baseURLFrom'>;

/**
 * The endpoint a role's calls go to. A role that overrides `baseURL` without its own `apiKey` gets
 * no key rather than the default's: the default key belongs to the default host, and sending it to
 * another provider (OpenRouter, a colleague's vLLM) would leak it.
 */
export function resolveEndpoint(roles: RoleConfig, role: Role): EndpointConfig {
  const base = roles.default;
  const override = roles[role] ?? {};
  const url = override.baseURL ?? base.baseURL;
  const baseURL = url === undefined ? undefined : normalizeBaseURL(url);
  const sameHost = baseURL === (base.baseURL === undefined ? undefined : normalizeBaseURL(base.baseURL));
  const keyed = override.apiKey !== undefined ? override : sameHost ? base : {};
  const model = override.model ?? base.model;
  const endpoint: EndpointConfig = {};
  if (baseURL !== undefined) endpoint.baseURL = baseURL;
  if (model !== undefined) endpoint.model = model;
  const modelFrom = override.model !== undefined ? override.modelFrom : base.modelFrom;
  if (modelFrom !== undefined) endpoint.modelFrom = modelFrom;
  const baseURLFrom = override.baseURL !== undefined ? override.baseURLFrom : base.baseURLFrom;
  if (baseURLFrom !== undefined) endpoint.baseURLFrom = baseURLFrom;
  if (keyed.apiKey !== undefined && keyed.apiKey !== '') endpoint.apiKey = keyed.apiKey;
  const apiKeyFrom = keyed.apiKeyFrom ?? override.apiKeyFrom ?? base.apiKeyFrom;
  if (apiKeyFrom !== undefined) endpoint.apiKeyFrom = apiKeyFrom;
  return endpoint;
}

/** Endpoints for every role, without keys: for run.json, the panel and logs. */
export function describeRoles(roles: RoleConfig): Record<Role, PublicEndpoint> {
  const out = {} as Record<Role, PublicEndpoint>;
  for (const role of ROLES) {
    const { apiKey: _, apiKeyFrom: _from, modelFrom: _model, baseURLFrom: _url, ...shown } = resolveEndpoint(roles, role);
    out[role] = shown;
  }
  return out;
}

/** Checks the configuration once, up front, so a typo fails the run before any call is paid. */
export function validateRoles(roles: RoleConfig): void {
  for (const role of ROLES) {
    const { baseURL, model } = resolveEndpoint(roles, role);
    // No base URL: the face's own transport, which picks a model when none is named (types.ts).
    if (baseURL === undefined) continue;
    if (!/^https?:\/\/[^/\s]+/.test(baseURL)) {
      throw new RatchetError('badInput', `The base URL for the ${role} role, "${redactUrl(baseURL)}", is not an http(s) URL: set it to the endpoint's address, e.g. http://localhost:11434/v1.`, { role, field: 'baseURL' });
    }
    if (model === undefined || model.trim() === '') {
      throw new RatchetError('badInput', `No model is set for the ${role} role: set a default model or one for this role.`, {
        role,
        field: 'model',
      });
    }
  }
}

/** Trailing slashes do not change the endpoint, and must not change cache keys either. */
export function normalizeBaseURL(url: string): string {
  return url.trim().replace(/\/+$/, '');
}
