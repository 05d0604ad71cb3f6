// The file-kind table's answers, and the sidecar ↔ prompt mapping that reads it.
import { describe, expect, it } from 'vitest';
import { byNameWhenRegex, evaluatedAs, fileKind, followsCopilot, isClaimedByName, isPromptPath, kindGroup, mayHoldRunSpec, promptExtensionsText, promptKindOf } from '../../../src/core/files/fileKinds';
import { promptCandidatesFor, sidecarPathFor } from '../../../src/core/setup/specSource';

describe('fileKind', () => {
  it.each([
    ['a/x.prompt.md', 'prompt-md'],
    ['a/X.PROMPTY', 'prompty'],
    ['a/x.md', 'markdown'],
    ['a/x.markdown', 'markdown'],
    ['a/x.txt', 'text'],
    ['a/x.ratchet.yaml', 'run-spec'],
    ['a/x.ratchet.yml', 'run-spec'],
    ['a/x.py', undefined],
    // Copilot's customization files (issue #31), wherever they are.
    ['.github/prompts/fix.prompt.md', 'prompt-md'],
    ['.github/skills/triage/SKILL.md', 'skill'],
    ['w\\.agents\\skills\\t\\skill.md', 'skill'],
    ['.github/agents/planner.agent.md', 'agent-md'],
    ['old/review.chatmode.md', 'agent-md'],
    ['.github/instructions/py/style.instructions.md', 'instructions-md'],
    ['/w/.github/copilot-instructions.md', 'copilot-instructions'],
    ['/w/docs/copilot-instructions.md', 'markdown'],
    ['/w/AGENTS.md', 'agents-md'],
    ['/w/MY-AGENTS.md', 'markdown'],
    ['/w/NOTSKILL.md', 'markdown'],
  ])('%s is %s by its name', (path, kind) => {
    expect(fileKind(path)).toBe(kind);
  });

  it('knows code by its EVOLVE-BLOCK marker, and a name wins over the text', () => {
    expect(fileKind('a/x.py', '# EVOLVE-BLOCK-START\nx = 1\n# EVOLVE-BLOCK-END\n')).toBe('code');
    expect(fileKind('a/x.py', 'x = 1\n')).toBeUndefined();
    expect(fileKind('a/x.md', '<!-- EVOLVE-BLOCK-START -->')).toBe('markdown');
  });

  it('accepts .markdown wherever .md is: a prompt, parsed as markdown, a sidecar’s candidate', () => {
    expect([isPromptPath('x.markdown'), promptKindOf('x.markdown'), promptCandidatesFor('a/x.ratchet.yaml')]).toEqual([
      true,
      'markdown',
      ['a/x.prompt.md', 'a/x.prompty', 'a/x.agent.md', 'a/x.chatmode.md', 'a/x.instructions.md', 'a/x.md', 'a/x.markdown', 'a/x.txt'],
    ]);
    expect(sidecarPathFor('a/x.markdown')).toBe('a/x.ratchet.yaml');
    // Copilot's files: the kind's ending goes, and a sidecar finds its file again.
    expect(['a/review.instructions.md', 'a/.github/skills/t/SKILL.md', 'w/AGENTS.md', 'w/.github/copilot-instructions.md'].map(sidecarPathFor)).toEqual([
      'a/review.ratchet.yaml',
      'a/.github/skills/t/SKILL.ratchet.yaml',
      'w/AGENTS.ratchet.yaml',
      'w/.github/copilot-instructions.ratchet.yaml',
    ]);
    expect(promptCandidatesFor('a/.github/skills/t/SKILL.ratchet.yaml')).toContain('a/.github/skills/t/SKILL.md');
    expect(promptCandidatesFor('a/x.ratchet.yml')[0]).toBe('a/x.prompt.md');
  });

  it('reads any other file it is pointed at as a plain-text prompt', () => {
    expect(promptKindOf('a/x.j2')).toBe('text');
    expect(isPromptPath('a/x.j2')).toBe(false);
  });

  it('claims by name only the endings that are Ratchet’s alone; front matter holds a spec only where it is the convention', () => {
    expect(['x.prompt.md', 'x.prompty', 'x.ratchet.yaml', 'x.md', 'x.txt', 'SKILL.md', 'AGENTS.md'].map(isClaimedByName)).toEqual([true, true, true, false, false, true, true]);
    // AGENTS.md is plain Markdown to every agent: no front matter, so no ratchet: block.
    expect(['x.prompt.md', 'x.prompty', 'x.ratchet.yml', 'x.md', 'x.txt', 'SKILL.md', 'AGENTS.md'].map(mayHoldRunSpec)).toEqual([true, true, true, false, false, true, false]);
    expect(promptExtensionsText()).toBe('.prompt.md, .prompty, SKILL.md, .agent.md, .chatmode.md, .instructions.md, .github/copilot-instructions.md, AGENTS.md, .md, .markdown or .txt');
  });

  it('writes one when-clause regex over resourcePath that matches what fileKind claims by name, on either separator', () => {
    const source = byNameWhenRegex();
    const [, body, flags] = /^\/(.*)\/(\w*)$/.exec(source)!;
    const re = new RegExp(body!, flags);
    const paths = ['/w/x.prompt.md', '/w/X.PROMPTY', '/w/a.ratchet.yml', '/w/.github/skills/t/SKILL.md', 'C:\\w\\.github\\copilot-instructions.md', '/w/AGENTS.md', '/w/r.instructions.md', '/w/p.agent.md'];
    const not = ['/w/x.md', '/w/notes.txt', '/w/docs/copilot-instructions.md', '/w/MY-AGENTS.md', '/w/x.prompt.md.bak'];
    expect(paths.filter((p) => !re.test(p))).toEqual([]);
    expect(not.filter((p) => re.test(p))).toEqual([]);
    expect([...paths, ...not].map((p) => re.test(p))).toEqual([...paths, ...not].map(isClaimedByName));
  });

  it('says how each prompt kind is evaluated and where the views group it', () => {
    expect(['a.prompt.md', 'SKILL.md', 'a.agent.md', 'a.instructions.md', 'AGENTS.md', 'a.md'].map((p) => [evaluatedAs(promptKindOf(p)), kindGroup(p), followsCopilot(promptKindOf(p))])).toEqual([
      ['user-message', 'Prompt files', true],
      ['skill', 'Skills', true],
      ['system-message', 'Custom agents', true],
      ['system-message', 'Instructions', true],
      ['system-message', 'Instructions', true],
      ['user-message', 'Prompts', false],
    ]);
    expect(kindGroup('a.py', '# EVOLVE-BLOCK-START')).toBe('Programs');
  });
});
