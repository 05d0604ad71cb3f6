// The file-kind table's answers, and the sidecar ↔ prompt mapping that reads it.
import { describe, expect, it } from 'vitest';
import { byNameWhenRegex, fileKind, isClaimedByName, isPromptPath, mayHoldRunSpec, promptExtensionsText, promptKindOf } from '../../../src/core/files/fileKinds';
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
      ['a/x.prompt.md', 'a/x.prompty', 'a/x.md', 'a/x.markdown', 'a/x.txt'],
    ]);
    expect(sidecarPathFor('a/x.markdown')).toBe('a/x.ratchet.yaml');
    expect(promptCandidatesFor('a/x.ratchet.yml')[0]).toBe('a/x.prompt.md');
  });

  it('reads any other file it is pointed at as a plain-text prompt', () => {
    expect(promptKindOf('a/x.j2')).toBe('text');
    expect(isPromptPath('a/x.j2')).toBe(false);
  });

  it('claims by name only the endings that are Ratchet’s alone; front matter holds a spec only where it is the convention', () => {
    expect(['x.prompt.md', 'x.prompty', 'x.ratchet.yaml', 'x.md', 'x.txt'].map(isClaimedByName)).toEqual([true, true, true, false, false]);
    expect(['x.prompt.md', 'x.prompty', 'x.ratchet.yml', 'x.md', 'x.txt'].map(mayHoldRunSpec)).toEqual([true, true, true, false, false]);
    expect(byNameWhenRegex()).toBe('/\\.(prompt\\.md|prompty|ratchet\\.yaml|ratchet\\.yml)$/');
    expect(promptExtensionsText()).toBe('.prompt.md, .prompty, .md, .markdown or .txt');
  });
});
