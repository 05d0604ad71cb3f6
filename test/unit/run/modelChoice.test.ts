// Which model each role calls and where that was chosen: the line a run says before its first call,
// the lens tooltip and the errors of an unknown model all read this, so it must name the place a
// user would go to change the model — the spec line that wins, else the setting or flag.
import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/core/llm/types';
import { baseURLChoice, describeModelChoices, modelChoice, roleModels } from '../../../src/core/run/modelChoice';
import { loadRunSpec } from '../../../src/core/setup/spec';
import type { RunSpec } from '../../../src/core/run/specTypes';
import { memFiles } from '../data/fakeFiles';

const DATA = Array.from({ length: 30 }, (_, i) => JSON.stringify({ question: `q${i}`, expected: i })).join('\n');

function specOf(...lines: string[]): Promise<RunSpec> {
  const sidecar = `${['dataset: d.jsonl', 'scorer: numeric', ...lines].join('\n')}\n`;
  return loadRunSpec(memFiles({ '/w/t.prompt.md': 'Solve: {{question}}\n', '/w/t.ratchet.yaml': sidecar, '/w/d.jsonl': DATA }), '/w/t.prompt.md');
}

const EDITOR = { model: 'llama3.1', modelFrom: 'setting ratchet.models.default' };

describe('modelChoice', () => {
  it('names the spec line of a role’s own model, of the default entry, and of the shorthand', async () => {
    const spec = await specOf('models:', '  default:', '    model: gpt-4o-mini', '  proposer: gpt-4o', '  validator:', '    temperature: 0');
    expect(modelChoice(spec, 'agent', {}, EDITOR)).toEqual({ value: 'gpt-4o-mini', from: 't.ratchet.yaml:5', at: spec.origin['models.default.model'] });
    expect(modelChoice(spec, 'proposer', {}, EDITOR)).toMatchObject({ value: 'gpt-4o', from: 't.ratchet.yaml:6' });
    // A role entry without a model of its own takes the default entry's line.
    expect(modelChoice(spec, 'validator', {}, EDITOR)).toMatchObject({ value: 'gpt-4o-mini', from: 't.ratchet.yaml:5' });
  });

  it('falls to the editor’s per-role setting, --model, then the face’s default, each named', async () => {
    const spec = await specOf('models:', '  agent:', '    temperature: 0');
    expect(modelChoice(spec, 'agent', {}, EDITOR)).toEqual({ value: 'llama3.1', from: 'setting ratchet.models.default' });
    expect(modelChoice(spec, 'agent', { roleModels: { agent: 'qwen' } }, EDITOR)).toEqual({ value: 'qwen', from: 'setting ratchet.models.agent' });
    expect(modelChoice(spec, 'agent', { model: 'm' }, EDITOR)).toEqual({ value: 'm', from: '--model' });
    expect(modelChoice(spec, 'agent', {}, { model: 'env' })).toEqual({ value: 'env', from: 'RATCHET_MODEL' });
    expect(modelChoice(spec, 'agent', {}, {})).toEqual({ value: undefined, from: 'not set' });
  });

  it('names where the base URL came from: --base-url, the spec line, the face, else OpenAI', async () => {
    const spec = await specOf('models:', '  default:', '    baseURL: http://127.0.0.1:11434/v1');
    const setting = { baseURL: 'http://set/v1', baseURLFrom: 'setting ratchet.endpoint.baseUrl' };
    expect(baseURLChoice(spec, 'agent', {}, setting)).toMatchObject({ value: 'http://127.0.0.1:11434/v1', from: 't.ratchet.yaml:5' });
    expect(baseURLChoice(spec, 'agent', { baseURL: 'http://cli/v1' }, setting)).toEqual({ value: 'http://cli/v1', from: '--base-url' });
    const bare = await specOf();
    expect(baseURLChoice(bare, 'agent', {}, setting)).toEqual({ value: 'http://set/v1', from: 'setting ratchet.endpoint.baseUrl' });
    expect(baseURLChoice(bare, 'agent', {}, {})).toEqual({ value: 'https://api.openai.com/v1', from: 'the default, OpenAI' });
  });
});

describe('describeModelChoices', () => {
  it('says each called role’s model and origin on one line, roles that agree sharing an entry', async () => {
    const spec = await specOf('models:', '  proposer:', '    model: gpt-4o');
    const line = describeModelChoices(roleModels(spec, ['agent', 'proposer', 'validator'], {}, EDITOR));
    expect(line).toBe('agent, validator: llama3.1 (setting ratchet.models.default) · proposer: gpt-4o (t.ratchet.yaml:5)');
    expect(
      describeModelChoices(
        roleModels(
          spec,
          ROLES.filter((r) => r === 'agent'),
          {},
          {},
        ),
      ),
    ).toBe('agent: no model (not set)');
  });
});
