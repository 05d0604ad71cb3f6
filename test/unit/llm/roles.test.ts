import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { describeRoles, resolveEndpoint, validateRoles } from '../../../src/core/llm/roles';
import type { RoleConfig } from '../../../src/core/llm/roles';

const roles: RoleConfig = {
  default: { baseURL: 'https://api.openai.com/v1/', model: 'gpt-x', apiKey: 'sk-default' },
  validator: { model: 'gpt-mini' },
  agent: { baseURL: 'http://localhost:11434/v1', model: 'llama' },
  meta: { baseURL: 'https://openrouter.ai/api/v1', apiKey: 'sk-or' },
};

describe('resolveEndpoint', () => {
  it('falls back to the default for whatever a role does not override', () => {
    expect(resolveEndpoint(roles, 'proposer')).toEqual({ baseURL: 'https://api.openai.com/v1', model: 'gpt-x', apiKey: 'sk-default' });
    expect(resolveEndpoint(roles, 'validator')).toEqual({ baseURL: 'https://api.openai.com/v1', model: 'gpt-mini', apiKey: 'sk-default' });
    expect(resolveEndpoint(roles, 'meta')).toEqual({ baseURL: 'https://openrouter.ai/api/v1', model: 'gpt-x', apiKey: 'sk-or' });
  });

  it('does not send the default key to another host', () => {
    expect(resolveEndpoint(roles, 'agent')).toEqual({ baseURL: 'http://localhost:11434/v1', model: 'llama' });
  });
});

describe('describeRoles', () => {
  it('lists every role without keys', () => {
    const described = describeRoles(roles);
    expect(Object.keys(described).sort()).toEqual(['agent', 'challenger', 'meta', 'proposer', 'validator']);
    expect(JSON.stringify(described)).not.toContain('sk-');
    expect(described.challenger).toEqual({ baseURL: 'https://api.openai.com/v1', model: 'gpt-x' });
  });
});

describe("roles without a base URL (the editor's language models)", () => {
  it('resolve to no base URL, and no model where none is named', () => {
    const editor: RoleConfig = { default: {}, validator: { model: 'judge' } };
    expect(resolveEndpoint(editor, 'agent')).toEqual({});
    expect(resolveEndpoint(editor, 'validator')).toEqual({ model: 'judge' });
  });

  it('pass validation: the transport picks a model; an HTTP endpoint still needs one', () => {
    expect(() => validateRoles({ default: {} })).not.toThrow();
    expect(() => validateRoles({ default: { baseURL: 'http://h/v1' } })).toThrow(/No model is set for the agent role/);
  });
});

describe('validateRoles', () => {
  it('names the role and field of a bad base URL or a missing model', () => {
    const bad = () => validateRoles({ default: { baseURL: 'localhost:8080', model: 'm' } });
    expect(bad).toThrow(RatchetError);
    expect(bad).toThrow(/base URL for the agent role/);
    expect(() => validateRoles({ default: { baseURL: 'http://h/v1', model: 'm' }, challenger: { model: ' ' } })).toThrow(/No model is set for the challenger role/);
  });
});
