// What of a file an edit rewrites: the body, and a skill's description; everything else comes back byte for byte.
import { describe, expect, it } from 'vitest';
import { evolvableRefusal, evolvableText, fileTextWith, skillDescription, skillName } from '../../../src/core/prompt/evolvable';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';

const SKILL = [
  '---',
  'name: ticket-triage',
  '# VS Code reads this unquoted colon; strict YAML does not.',
  'description: Route a support ticket to a queue. Use when: a ticket',
  '  arrives without a category.',
  'argument-hint: [ticket text]',
  '---',
  '# Ticket triage',
  'Pick one queue.',
  '',
].join('\r\n');

describe('the evolvable text of a file', () => {
  it('is the body of a prompt file; its front matter comes back byte for byte', () => {
    const text = "---\r\ndescription: Fix it\r\ntools: ['codebase']   # keep\r\nratchet:\r\n  seed: 3\r\n---\r\nFix ${selection}.\r\n";
    const file = parsePromptFile('.github/prompts/fix.prompt.md', text);
    expect(evolvableText(file)).toBe('Fix ${selection}.\n');
    expect(fileTextWith(file, 'Fix ${selection} carefully.\n')).toBe("---\r\ndescription: Fix it\r\ntools: ['codebase']   # keep\r\nratchet:\r\n  seed: 3\r\n---\r\nFix ${selection} carefully.\r\n");
    expect(evolvableRefusal(file, 'anything')).toBeUndefined();
  });

  it('is a skill’s description lines above its body, and goes back unchanged when unchanged', () => {
    const file = parsePromptFile('.github/skills/ticket-triage/SKILL.md', SKILL);
    expect(file.frontMatter).toBeUndefined();
    expect(skillDescription(file)?.value).toBe('Route a support ticket to a queue. Use when: a ticket arrives without a category.');
    expect(skillName(file)).toBe('ticket-triage');
    const text = evolvableText(file);
    expect(text).toBe('---\ndescription: Route a support ticket to a queue. Use when: a ticket\n  arrives without a category.\n---\n# Ticket triage\nPick one queue.\n');
    expect(fileTextWith(file, text)).toBe(SKILL);
  });

  it('writes a new description where the old one stood, in the file’s line endings, name and hint untouched', () => {
    const file = parsePromptFile('.github/skills/ticket-triage/SKILL.md', SKILL);
    const next = '---\ndescription: "Sort support tickets into billing, bug, account or how-to. Use for any incoming ticket."\n---\n# Ticket triage\nPick exactly one queue.\n';
    expect(fileTextWith(file, next)).toBe(
      [
        '---',
        'name: ticket-triage',
        '# VS Code reads this unquoted colon; strict YAML does not.',
        'description: "Sort support tickets into billing, bug, account or how-to. Use for any incoming ticket."',
        'argument-hint: [ticket text]',
        '---',
        '# Ticket triage',
        'Pick exactly one queue.',
        '',
      ].join('\r\n'),
    );
  });

  it('refuses a skill version that lost its description or changed another field, and says why', () => {
    const file = parsePromptFile('s/SKILL.md', SKILL);
    expect(evolvableRefusal(file, '# Ticket triage\nPick one queue.\n')).toMatch(/drops the skill's front matter/);
    expect(evolvableRefusal(file, '---\nname: other\n---\nbody\n')).toMatch(/has no description/);
    expect(evolvableRefusal(file, '---\ndescription: ok\nname: other\n---\nbody\n')).toBe('its front matter holds more than the description ("name: other"): only a skill\'s description and body are edited');
    expect(evolvableRefusal(file, `---\ndescription: ${'x'.repeat(1100)}\n---\nbody\n`)).toBe('its description is 1100 characters, over the 1024 VS Code reads');
    expect(evolvableRefusal(file, '---\ndescription: Fine. # a comment stays a comment\n---\nbody\n')).toBeUndefined();
  });

  it('names a skill by its folder when its front matter has no name', () => {
    expect(skillName(parsePromptFile('w/.github/skills/pdf-tools/SKILL.md', '---\ndescription: x\n---\nb\n'))).toBe('pdf-tools');
  });
});
