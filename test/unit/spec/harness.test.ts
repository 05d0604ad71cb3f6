// The run spec's `harness`, and what loading a Copilot file's run checks before any call (#31).
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/data/diagnostics';
import type { Diagnostic } from '../../../src/core/data/diagnostics';
import { RatchetError } from '../../../src/core/errors';
import { loadRunInputs, validateRunSpecText } from '../../../src/core/setup/spec';
import { memFiles } from '../data/fakeFiles';

const lines = (...l: string[]): string => `${l.join('\n')}\n`;
const data = (rows: object[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const ROWS = Array.from({ length: 30 }, (_, i) => ({ question: `What is ${i} + 1?`, expected: i + 1 }));

async function problems(files: ReturnType<typeof memFiles>, prompt: string): Promise<string[]> {
  const err = await loadRunInputs(files, prompt).catch((e: unknown) => e);
  if (!RatchetError.is(err, 'badInput')) throw new Error(`expected badInput, got ${String(err)}`);
  return (err.details.diagnostics as Diagnostic[]).filter((d) => d.severity === 'error').map(formatDiagnostic);
}

describe('harness in the run spec', () => {
  it('defaults to chat; a command harness takes its defaults and resolves support files beside the spec', async () => {
    const files = memFiles({
      '/w/AGENTS.md': '# House rules\nAnswer with the number only.\n',
      '/w/AGENTS.ratchet.yaml': lines('dataset: d.jsonl', 'scorer: numeric', 'harness:', '  type: command', '  command: ./agent.sh {file} {input}', '  supportFiles: [agent.sh]'),
      '/w/d.jsonl': data(ROWS),
    });
    const { spec } = await loadRunInputs(files, '/w/AGENTS.md');
    expect(spec.harness).toEqual({ type: 'command', command: './agent.sh {file} {input}', timeoutSeconds: 300, env: [], network: 'on', supportFiles: ['/w/agent.sh'] });
    await files.writeTextAtomic('/w/AGENTS.ratchet.yaml', lines('dataset: d.jsonl', 'scorer: numeric'));
    expect((await loadRunInputs(files, '/w/AGENTS.md')).spec.harness).toEqual({ type: 'chat' });
  });

  it('needs a command for type: command, and warns about command fields on a chat harness', () => {
    const side = '/w/x.ratchet.yaml';
    expect(validateRunSpecText(side, lines('harness: { type: command }')).map(formatDiagnostic)).toEqual([
      `${side}:1:12: harness type: command needs a command that runs the agent on {file} and {input}, e.g. command: ./run-agent.sh {file} {input}`,
    ]);
    expect(validateRunSpecText(side, lines('harness:', '  timeoutSeconds: 5')).map((d) => [d.severity, d.message])).toEqual([['warning', 'harness.timeoutSeconds is read by harness type: command only; set type: command, or remove it']]);
    expect(validateRunSpecText(side, lines('harness: { type: shell }'))[0]?.message).toMatch(/^harness\.type must be one of chat, command/);
  });
});

describe('loading a Copilot file’s run', () => {
  it('asks which field is the message when an instructions file’s items have several, before any call', async () => {
    const files = memFiles({
      '/w/r.instructions.md': '---\napplyTo: "**"\n---\nBe brief.\n',
      '/w/r.ratchet.yaml': lines('dataset: d.jsonl', 'scorer: numeric'),
      '/w/d.jsonl': data(ROWS.map((r) => ({ ...r, context: 'c' }))),
    });
    expect((await problems(files, '/w/r.instructions.md'))[0]).toBe(
      '/w/d.jsonl:1:1: item has the variables "question", "context"; which one is the user\'s message? Name it "input", or set harness.message in the run spec, e.g. message: "{{question}}"',
    );
    await files.writeTextAtomic('/w/r.ratchet.yaml', lines('dataset: d.jsonl', 'scorer: numeric', 'harness: { message: "{{context}}: {{question}}" }'));
    const inputs = await loadRunInputs(files, '/w/r.instructions.md');
    // Instructions use no dataset field themselves, and are not warned for it.
    expect(inputs.warnings.filter((w) => /uses none of the dataset/.test(w.message))).toEqual([]);
  });

  it('refuses a skill without a description, and trigger labels without a scorer', async () => {
    const files = memFiles({
      '/w/s/SKILL.md': '---\nname: s\n---\nDo it.\n',
      '/w/s/SKILL.ratchet.yaml': lines('dataset: d.jsonl', 'gate: pace-rf'),
      '/w/s/d.jsonl': data(ROWS.map(({ question }, i) => ({ question, trigger: i % 2 === 0 }))),
    });
    expect(await problems(files, '/w/s/SKILL.md')).toEqual([
      '/w/s/SKILL.md:1:1: the skill has no description in its front matter: an agent reads it to decide whether to load the skill; add a description: line saying what the skill does and when to use it',
      '/w/s/SKILL.ratchet.yaml:1:10: items say whether the skill should load (trigger), which is a score: add a scorer for the answers (with "expected" on the items, or scorer: { type: llm-rubric, rubric: … })',
    ]);
  });
});
