// Convert to Skill's mapping, as VS Code's migration does it: name, description and argument-hint
// kept, the rest listed as not copied, the body as it was; the run spec's paths rebased.
import { describe, expect, it } from 'vitest';
import { parsePromptFile } from '../../../src/core/prompt/promptFile';
import { rebaseSpecText, skillFromPrompt, skillNameFrom } from '../../../src/core/prompt/toSkill';

describe('skillFromPrompt', () => {
  it('keeps name, description and argument-hint as written, lists what it leaves, keeps the body', () => {
    const text = "---\nname: Ticket Triage\ndescription: 'Route a ticket' # shown in /\nagent: ask\nmodel: GPT-4o\ntools: ['search/codebase']\nargument-hint: [ticket]\nratchet:\n  seed: 1\n---\nClassify ${input:ticket}.\n";
    expect(skillFromPrompt(parsePromptFile('/w/.github/prompts/triage.prompt.md', text), 'triage')).toEqual({
      name: 'ticket-triage',
      skillText: "---\nname: ticket-triage\ndescription: 'Route a ticket' # shown in /\nargument-hint: [ticket]\n---\nClassify ${input:ticket}.\n",
      omitted: ['agent', 'model', 'tools', 'ratchet'],
      descriptionFromBody: false,
    });
  });

  it('names the skill after the file when the prompt has no name, and describes it by its first line when it has no description', () => {
    const c = skillFromPrompt(parsePromptFile('/w/My Prompt_v2.prompt.md', '# Review code\n\nLook for bugs.\n'), 'My Prompt_v2');
    expect([c.name, c.skillText, c.descriptionFromBody]).toEqual(['my-prompt-v2', '---\nname: my-prompt-v2\ndescription: "Review code"\n---\n# Review code\n\nLook for bugs.\n', true]);
    expect(skillNameFrom('—')).toBe('skill');
    expect(skillNameFrom('x'.repeat(80))).toHaveLength(64);
  });
});

describe('rebaseSpecText', () => {
  it('rebases every path the spec names and nothing else, keeping comments', () => {
    const spec = '# for triage\ndataset: data/t.csv   # the tickets\nsplit: { dev: data/dev.jsonl, test: 0.2 }\nscorer: { type: module, path: score.mjs }\nharness:\n  supportFiles: [tools/a.sh, /abs/b.sh]\nseed: 1\n';
    expect(rebaseSpecText(spec, (p) => `../../${p}`)).toBe(
      '# for triage\ndataset: ../../data/t.csv # the tickets\nsplit: { dev: ../../data/dev.jsonl, test: 0.2 }\nscorer: { type: module, path: ../../score.mjs }\nharness:\n  supportFiles: [ ../../tools/a.sh, /abs/b.sh ]\nseed: 1\n',
    );
  });
});
