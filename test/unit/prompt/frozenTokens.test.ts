// A Copilot file's frozen tokens: what they are, and when a candidate keeps them.
import { describe, expect, it } from 'vitest';
import { describeFrozenChange, frozenChange, frozenTokens } from '../../../src/core/prompt/frozenTokens';

const BODY = [
  'Review ${selection} in ${file} for ${input:focus:What should I look for?}.',
  'Fetch the guide with #tool:web/fetch. Then read [the style guide](../docs/style.md "Style") and ![diagram](./flow.png).',
  'Background: <https://example.com/review>, see [the checklist][cl].',
  '',
  '[cl]: ./checklist.md',
  'A plain sentence with no token; `code` and {{question}} are not frozen either.',
].join('\n');

describe('frozen tokens', () => {
  it('finds VS Code variables, tool references, links, images, autolinks and reference definitions, in order', () => {
    expect(frozenTokens(BODY)).toEqual([
      '${selection}',
      '${file}',
      '${input:focus:What should I look for?}',
      '#tool:web/fetch',
      '[the style guide](../docs/style.md "Style")',
      '![diagram](./flow.png)',
      '<https://example.com/review>',
      '[cl]: ./checklist.md',
    ]);
  });

  it('leaves a sentence’s final period out of a tool or file reference', () => {
    expect(frozenTokens('Use #tool:search/codebase. Read #file:../a.md.')).toEqual(['#tool:search/codebase', '#file:../a.md']);
  });

  it('accepts a rewrite that keeps every token, in any order', () => {
    const moved = ['Start by fetching with #tool:web/fetch.', BODY.replace('Fetch the guide with #tool:web/fetch. ', '')].join('\n');
    expect(frozenChange(frozenTokens(BODY), moved)).toEqual({ dropped: [], added: [] });
    expect(describeFrozenChange(frozenChange(frozenTokens(BODY), moved))).toBeUndefined();
  });

  it('refuses a candidate that drops, alters, duplicates or invents one, and says which', () => {
    const start = frozenTokens(BODY);
    expect(frozenChange(start, BODY.replace('${selection}', 'the selection'))).toEqual({ dropped: ['${selection}'], added: [] });
    expect(frozenChange(start, BODY.replace('../docs/style.md', '../docs/STYLE.md'))).toEqual({
      dropped: ['[the style guide](../docs/style.md "Style")'],
      added: ['[the style guide](../docs/STYLE.md "Style")'],
    });
    expect(frozenChange(start, `${BODY}\nAgain: \${file}`)).toEqual({ dropped: [], added: ['${file}'] });
    const invented = frozenChange(start, `${BODY}\nAlso use #tool:terminal.`);
    expect(invented).toEqual({ dropped: [], added: ['#tool:terminal'] });
    expect(describeFrozenChange(invented)).toBe('it adds `#tool:terminal`, which must stay exactly as written (VS Code variables, tool references and links are frozen)');
    expect(describeFrozenChange(frozenChange(start, 'All new.'))).toMatch(/^it drops or alters `\$\{selection\}`, `\$\{file\}`, `\$\{input:focus:What should I look for\?\}` and 5 more, which/);
  });
});
