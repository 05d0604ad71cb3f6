// Copilot's files in the built language server (#31): lenses on a SKILL.md and on a prompt file in
// .github/prompts, no Ratchet problem on a plain Copilot prompt file (even one whose front matter
// strict YAML refuses), and the quick fix that moves a front matter's ratchet: block to a sidecar.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { SCRATCH } from './evolveWorkspace';
import { SERVER, TestClient } from './serverHarness';

beforeAll(() => {
  if (!existsSync(SERVER)) execSync('npm run build', { stdio: 'inherit' });
});

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(SCRATCH, 'ratchet-copilot-server-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

async function client(folder: string) {
  const c = await TestClient.start({ folders: [folder], settings: { provider: 'openai', trusted: true } });
  cleanups.push(() => c.stop());
  return c;
}

const PLAIN = [
  '---',
  'description: Review the selection',
  'agent: agent',
  'applyTo: **/*.py', // VS Code reads this; strict YAML sees an alias
  "tools: ['search/codebase']",
  '---',
  'Review ${selection} in ${file} with #tool:search/codebase for ${input:focus:What to look for}.',
  '',
].join('\n');

const WITH_BLOCK = ['---', 'description: Route a ticket', '# the run spec', 'ratchet:', '  dataset: data/t.jsonl', '  scorer: { type: exact, ignoreCase: true }', '  budget:', '    candidates: 5', '---', 'Classify: {{ticket}}', ''].join(
  '\n',
);

describe('Copilot files in the language server', () => {
  it('puts the lens on a SKILL.md and on a prompt file in .github/prompts, and reports nothing of Ratchet’s on a plain Copilot prompt', async () => {
    const dir = workspace({
      '.github/prompts/review.prompt.md': PLAIN,
      '.github/skills/triage/SKILL.md': '---\nname: triage\ndescription: Route tickets. Use when: a ticket arrives.\n---\nPick a queue.\n',
    });
    const c = await client(dir);
    const prompt = await c.open(join(dir, '.github/prompts/review.prompt.md'));
    const skill = await c.open(join(dir, '.github/skills/triage/SKILL.md'));
    // Generated tasks fill a prompt's variables: a skill's items are its requests, so it is offered Configure only.
    expect((await c.codeLenses(prompt))?.map((l) => l.command?.title)).toEqual(['$(gear) Configure Ratchet', '$(wand) Generate Dev Set']);
    expect((await c.codeLenses(skill))?.map((l) => l.command?.title)).toEqual(['$(gear) Configure Ratchet']);
    // The server publishes each opened file's problems: none for these.
    await c.waitFor(() => c.diagnostics.has(prompt) && c.diagnostics.has(skill), 'diagnostics to be published');
    expect(c.diagnostics.get(prompt)).toEqual([]);
    expect(c.diagnostics.get(skill)).toEqual([]);
    // No quick fix where there is no ratchet: block.
    expect(await c.codeActions(prompt, 1)).toEqual([]);
  });

  it('moves the ratchet: block to a new sidecar in one workspace edit, attached to the editor’s own problem on the key', async () => {
    const dir = workspace({ 'support/triage.prompt.md': WITH_BLOCK });
    const c = await client(dir);
    const uri = await c.open(join(dir, 'support/triage.prompt.md'));
    const vscodeProblem = { range: { start: { line: 3, character: 0 }, end: { line: 3, character: 7 } }, message: "Attribute 'ratchet' is not supported in prompt files.", source: 'prompts', severity: 4 as const };
    const actions = (await c.codeActions(uri, 1, [vscodeProblem])) as CodeAction[];
    expect(actions.map((a) => [a.title, a.kind, a.diagnostics])).toEqual([['Move Ratchet settings to a sidecar', 'quickfix', [vscodeProblem]]]);
    expect(await c.codeActions(uri, 9)).toEqual([]); // not offered in the body
    expect(await c.applyCodeAction(actions[0]!)).toEqual({ applied: true });
    expect(c.text(uri)).toBe('---\ndescription: Route a ticket\n# the run spec\n---\nClassify: {{ticket}}\n');
    const sidecar = c.uriOf(join(dir, 'support/triage.ratchet.yaml'));
    expect(c.text(sidecar)).toBe('# Run spec for triage.prompt.md, moved from its front matter.\ndataset: data/t.jsonl\nscorer: { type: exact, ignoreCase: true }\nbudget:\n  candidates: 5\n');
    // The edit was one: the sidecar's creation, its text and the block's removal together (one undo in the editor).
    expect(c.edits.at(-1)!.edit.documentChanges!.map((d) => ('kind' in d ? d.kind : 'edit'))).toEqual(['create', 'edit', 'edit']);
  });
});
