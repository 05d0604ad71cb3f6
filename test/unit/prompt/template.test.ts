import { describe, expect, it } from 'vitest';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { listTemplateVariables, missingVariables, renderPrompt, renderTemplate, templateOf, templateVariableNames } from '../../../src/core/prompt/template';

describe('template variables', () => {
  it('lists every occurrence with 1-based line and column, whitespace-tolerant', () => {
    const text = 'Hi {{name}}!\n  Q: {{ question }} and {{\tuser.city }}\n{{name}}';
    expect(listTemplateVariables(text)).toEqual([
      { name: 'name', root: 'name', line: 1, column: 4, endColumn: 12, offset: 3, length: 8 },
      { name: 'question', root: 'question', line: 2, column: 6, endColumn: 20, offset: 18, length: 14 },
      { name: 'user.city', root: 'user', line: 2, column: 25, endColumn: 40, offset: 37, length: 15 },
      { name: 'name', root: 'name', line: 3, column: 1, endColumn: 9, offset: 53, length: 8 },
    ]);
    expect(templateVariableNames(text)).toEqual(['name', 'question', 'user']);
  });

  it('ignores brace forms that are not variables', () => {
    expect(listTemplateVariables('{{#if x}} {{/if}} {{> p}} {% set a %} { x } {{ 1bad }}')).toEqual([]);
  });

  it('gives file lines for a prompt body after front matter', () => {
    const file = parsePromptFile('w.prompt.md', '---\na: 1\n---\nSolve:\n{{question}}\n');
    const t = templateOf(file);
    expect(t.firstLine).toBe(4);
    expect(t.variables.map((v) => [v.name, v.line, v.column])).toEqual([['question', 5, 1]]);
  });

  it('renders values: strings verbatim, numbers, JSON for structures, once (no recursion)', () => {
    const out = renderTemplate('{{a}}|{{ b }}|{{c}}|{{d.e}}|{{f}}', { a: 'x {{b}}', b: 3, c: [1, 2], d: { e: true }, f: null });
    expect(out).toBe('x {{b}}|3|[1,2]|true|');
  });

  it('names the missing variable, its line and the item', () => {
    expect(() => renderTemplate('line 1\nQ: {{question}}', { other: 1 }, { file: 'w.prompt.md', firstLine: 4, itemId: 'q7' })).toThrow('w.prompt.md:5:4: template variable "question" has no value in item q7');
  });

  it('reports missing variables for a set of vars', () => {
    const t = templateOf(parsePromptFile('p.md', '{{a}} {{b}} {{a}}'));
    expect(missingVariables(t, { a: '' }).map((v) => v.name)).toEqual(['b']);
    expect(renderPrompt(t, { a: 1, b: 2 }, 'x')).toBe('1 2 1');
  });

  it("fills VS Code's input variables in a Copilot file like {{name}}, placeholder or not, and only there", () => {
    const file = parsePromptFile('.github/prompts/ask.prompt.md', '---\ndescription: Ask\n---\nAnswer ${input:question:Type your question}.\nIn ${input:lang}; keep ${selection} as is.\n');
    const t = templateOf(file);
    expect(t.syntax).toBe('copilot');
    expect(t.variables.map((v) => [v.name, v.line, v.column])).toEqual([
      ['question', 4, 8],
      ['lang', 5, 4],
    ]);
    expect(renderPrompt(t, { question: 'What is 2 + 2?', lang: 'French' }, 'q1')).toBe('Answer What is 2 + 2?.\nIn French; keep ${selection} as is.\n');
    expect(() => renderPrompt(t, { question: 'x' }, 'q2')).toThrow('.github/prompts/ask.prompt.md:5:4: template variable "lang" has no value in item q2');
    // A plain prompt's ${input:x} is text: Ratchet does not half-read another tool's syntax.
    const plain = templateOf(parsePromptFile('notes.md', 'Answer ${input:question}.'));
    expect([plain.syntax, plain.variables]).toEqual(['mustache', []]);
  });
});
