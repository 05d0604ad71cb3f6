import { describe, expect, it } from 'vitest';
import { checkStartingPrompt, datasetFieldsOf } from '../../../src/core/prompt/promptChecks';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { templateOf } from '../../../src/core/prompt/template';

const check = (path: string, text: string, datasetFields: string[] = ['question'], maxPromptTokens = 4000) => {
  const prompt = parsePromptFile(path, text);
  return checkStartingPrompt(prompt, templateOf(prompt), { maxPromptTokens, datasetFields }).map((d) => ({ line: d.line, severity: d.severity, message: d.message }));
};

describe('checkStartingPrompt', () => {
  it('refuses an empty body, saying whether the file or only its body is empty', () => {
    expect(check('p.md', ' \r\n\t\n')).toEqual([{ line: 1, severity: 'error', message: 'the prompt has no body (the file is empty): write the prompt the run should evolve' }]);
    expect(check('p.prompt.md', '---\r\nmode: agent\r\n---\r\n')).toEqual([{ line: 4, severity: 'error', message: 'the prompt has no body (nothing follows the front matter): write the prompt the run should evolve' }]);
  });

  it('refuses binary content at the line it starts: a NUL, or mostly undecodable text; a stray U+FFFD in text is kept', () => {
    expect(check('p.md', 'Q: {{question}}\nok\n\u0000\u0001')[0]).toMatchObject({ line: 3, severity: 'error' });
    expect(check('p.md', `{{question}}\n${'\uFFFD\u0003x'.repeat(20)}`)[0]).toMatchObject({ line: 2, message: expect.stringContaining('binary content') });
    expect(check('p.md', `Caf\uFFFD {{question}} and a tab\tand a form feed\f.\n`)).toEqual([]);
  });

  it('refuses a prompt over maxPromptTokens, the limit every child is held to', () => {
    const body = `{{question}} ${'x'.repeat(387)}`; // 400 characters: 100 tokens
    expect(check('p.md', body, ['question'], 100)).toEqual([]);
    expect(check('p.md', `${body}y`, ['question'], 100)).toEqual([
      {
        line: 1,
        severity: 'error',
        message: "the prompt is about 101 tokens, over the run's maxPromptTokens of 100, and would be sent with every item: shorten it, or raise maxPromptTokens in the run spec",
      },
    ]);
  });

  it('warns when the body uses none of the dataset’s fields, and not for a zero-data run', () => {
    expect(check('p.md', 'Solve it.', ['question', 'context', 'lang', 'level'])).toEqual([
      {
        line: 1,
        severity: 'warning',
        message: "the prompt uses none of the dataset's fields ({{question}}, {{context}}, {{lang}}, …), so every item gets the same prompt: add a placeholder such as {{question}}",
      },
    ]);
    expect(check('p.md', 'Solve it.', [])).toEqual([]);
    expect(check('p.md', 'Solve {{ question }}.')).toEqual([]);
  });

  it('lists the dataset’s fields in order of first appearance', () => {
    expect(datasetFieldsOf([{ vars: { question: 1 } }, { vars: { context: 2, question: 3 } }])).toEqual(['question', 'context']);
  });
});
