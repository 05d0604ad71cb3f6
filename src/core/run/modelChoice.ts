/**
 * Which model and endpoint each role calls, and where that choice was made: a line of the run
 * spec, an editor setting, a CLI flag or an environment variable. One precedence for the calls
 * (`roleConfig`, src/node/runs/evolveRun.ts), the line a run says before its first call (CLI, panel
 * header), the Evolve lens's tooltip, and the errors an unknown model or an unreachable endpoint
 * gets — so what a user is told is always what the run did.
 *
 * Model precedence: the spec's role entry, its `models.default`, the editor's per-role setting
 * (`ratchet.models.<role>`), `--model`, then the face's default (`ratchet.models.default`,
 * RATCHET_MODEL). Base URL: `--base-url`, the spec's role or default entry, the face's default, OpenAI.
 */
import type { Location } from '../data/diagnostics';
import { fileName } from '../fileName';
import type { Role } from '../llm/types';
import type { EndpointDefaults } from './endpointDefaults';
import type { EvolveOverrides } from './overrides';
import type { RunSpec } from './specTypes';
import type { RoleModel } from '../journal/payloadTypes';

export interface Choice {
  /** undefined: nothing chose one (with the editor's language models: the editor picks). */
  value: string | undefined;
  /** Where the value came from, as a user would look for it: `word-problems.ratchet.yaml:10`, `setting ratchet.models.default`. */
  from: string;
  /** The spec line that chose it, when one did (faces link to it). */
  at?: Location;
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

type SpecModels = Pick<RunSpec, 'models' | 'origin'>;
type FaceModels = Pick<EvolveOverrides, 'model' | 'roleModels'>;
type FaceEndpoint = Pick<EndpointDefaults, 'model' | 'modelFrom'>;

export function modelChoice(spec: SpecModels, role: Role, o: FaceModels, defaults: FaceEndpoint): Choice {
  const written = spec.models[role].model;
  if (written !== undefined) return fromSpec(written, spec, role, 'model');
  const perRole = o.roleModels?.[role];
  if (perRole !== undefined) return { value: perRole, from: `setting ratchet.models.${role}` };
  if (o.model !== undefined) return { value: o.model, from: '--model' };
  if (defaults.model !== undefined) return { value: defaults.model, from: defaults.modelFrom ?? 'RATCHET_MODEL' };
  return { value: undefined, from: 'not set' };
}

export function baseURLChoice(spec: SpecModels, role: Role, o: Pick<EvolveOverrides, 'baseURL'>, defaults: Pick<EndpointDefaults, 'baseURL' | 'baseURLFrom'>): Choice {
  if (o.baseURL !== undefined) return { value: o.baseURL, from: '--base-url' };
  const written = spec.models[role].baseURL;
  if (written !== undefined) return fromSpec(written, spec, role, 'baseURL');
  if (defaults.baseURL !== undefined) return { value: defaults.baseURL, from: defaults.baseURLFrom ?? 'OPENAI_BASE_URL' };
  return { value: OPENAI_BASE_URL, from: 'the default, OpenAI' };
}

/** `agent: llama3.1 (setting ratchet.models.default) · proposer: gpt-4o (word-problems.ratchet.yaml:9)`; roles that agree share one entry. */
export function describeModelChoices(choices: readonly RoleModel[]): string {
  const groups: { roles: Role[]; model: string | undefined; from: string }[] = [];
  for (const c of choices) {
    const same = groups.find((g) => g.model === c.model && g.from === c.from);
    if (same) same.roles.push(c.role);
    else groups.push({ roles: [c.role], model: c.model, from: c.from });
  }
  return groups.map((g) => `${g.roles.join(', ')}: ${g.model ?? 'no model'} (${g.from})`).join(' · ');
}

/** `editorModels`: VS Code's language models answer, and pick a model for a role that names none. */
export function roleModels(spec: SpecModels, roles: readonly Role[], o: FaceModels, defaults: FaceEndpoint, editorModels = false): RoleModel[] {
  return roles.map((role) => {
    const c = modelChoice(spec, role, o, defaults);
    return { role, model: c.value, from: c.value === undefined && editorModels ? 'the editor picks' : c.from };
  });
}

function fromSpec(value: string, spec: SpecModels, role: Role, field: 'model' | 'baseURL'): Choice {
  const at = writtenAt(spec, role, field);
  return at === undefined ? { value, from: `the run spec's models.${role}.${field}` } : { value, from: `${fileName(at.file)}:${at.line}`, at };
}

/**
 * The spec line that set the role's field: its own entry (`agent: { model: … }`, or the shorthand
 * `agent: gpt-4o`), else `models.default`'s. The spec's models are already merged with the default,
 * so the origins say which entry wrote it.
 */
function writtenAt(spec: SpecModels, role: Role, field: 'model' | 'baseURL'): Location | undefined {
  for (const entry of [role, 'default']) {
    const own = spec.origin[`models.${entry}.${field}`];
    if (own !== undefined) return own;
    if (field === 'model' && isShorthand(spec, entry)) return spec.origin[`models.${entry}`];
  }
  return undefined;
}

/** `agent: gpt-4o`: the entry was written but has no fields of its own. */
function isShorthand(spec: SpecModels, entry: string): boolean {
  const key = `models.${entry}`;
  return spec.origin[key] !== undefined && !Object.keys(spec.origin).some((k) => k.startsWith(`${key}.`));
}
