/**
 * Which model each role of a code search calls, and where each was chosen (the run's
 * `run/started` says so), and the models it calls besides its roles' (priced before the run).
 */
import type { CodeRunSpec } from '../../core/code/spec';
import type { Role } from '../../core/llm/types';
import { ROLES } from '../../core/llm/types';
import type { RoleModel } from '../../core/journal/payloadTypes';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import { roleModels } from '../../core/run/modelChoice';
import type { SearchOverrides } from '../../core/run/overrides';
import type { CalledModel } from '../../core/setup/pricing';

/**
 * Each role's model for a code search and the face's choices it is resolved with: the proposer's
 * own model is its endpoint's default (with search.proposerModels and none named, the first of
 * them); the meta notes and the novelty judge (the validator role) go where the proposer goes
 * unless the spec or the editor's ratchet.models.<role> names theirs.
 */
export function searchModels(spec: CodeRunSpec, o: SearchOverrides): { models: CodeRunSpec['models']; face: FaceModels; asProposer: Role[] } {
  const listed = spec.search.proposerModels?.[0];
  const proposer = spec.models.proposer.model === undefined && listed ? { ...spec.models.proposer, model: listed.model } : spec.models.proposer;
  const inherits = (role: Role) => role !== 'proposer' && spec.models[role].model === undefined && o.roleModels?.[role] === undefined;
  const models = Object.fromEntries(ROLES.map((role) => [role, role === 'proposer' ? proposer : inherits(role) ? proposer : spec.models[role]])) as CodeRunSpec['models'];
  const fromProposer = proposer.model === undefined ? o.roleModels?.proposer : undefined;
  const roleModels = { ...o.roleModels, ...(fromProposer === undefined ? {} : Object.fromEntries(ROLES.filter(inherits).map((role) => [role, fromProposer]))) };
  const face: FaceModels = {
    ...(o.baseURL ? { baseURL: o.baseURL } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(Object.keys(roleModels).length > 0 ? { roleModels } : {}),
  };
  return { models, face, asProposer: ROLES.filter(inherits) };
}

/** Where each called role's model was chosen; a role that goes where the proposer goes says so. */
export function searchRoleModels(spec: CodeRunSpec, models: CodeRunSpec['models'], called: readonly Role[], face: FaceModels, defaults: EndpointDefaults, asProposer: readonly Role[]): RoleModel[] {
  const chosen = roleModels({ models, origin: spec.origin }, ['proposer', ...called.filter((r) => r !== 'proposer')], face, defaults);
  const proposer = chosen[0]!;
  return chosen.filter((m) => called.includes(m.role)).map((m) => (asProposer.includes(m.role) ? { ...m, from: `as the proposer: ${proposer.from}` } : m));
}

export type FaceModels = Pick<SearchOverrides, 'baseURL' | 'model' | 'roleModels'>;

/** The models a code search calls besides its roles': each proposer model the bandit chooses among, and the embedding model (called at the validator's endpoint). */
export function calledModels(spec: CodeRunSpec): CalledModel[] {
  const embedding = spec.search.novelty.embedding;
  return [
    ...(spec.search.proposerModels ?? []).map((arm) => ({ model: arm.model, price: arm.price, field: 'search.proposerModels' })),
    ...(embedding ? [{ model: embedding.model, price: embedding.price, field: 'search.novelty.embedding' }] : []),
  ];
}
