/**
 * Issue #31 in the real VS Code: Copilot's customization files are Ratchet's. The lens is on a
 * skill's SKILL.md (the shipped examples/skills) and on a prompt file in .github/prompts; a plain
 * Copilot prompt file — its front matter one that strict YAML refuses — gets no Problems entry of
 * Ratchet's; the quick fix moves a front matter's ratchet: block to a sidecar, and one Ctrl+Z puts
 * it back (the sidecar gone again); Convert to Skill writes the skill and its run spec where Copilot
 * looks, and offers to evaluate both.
 */
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSession } from '../harness/specSession';
import { waitUntil, waitVisible } from '../pages/waits';

const PLAIN = '.github/prompts/review.prompt.md';
const BROKEN = '.github/instructions/broken.instructions.md';
const ROUTING = 'support/routing.prompt.md';
const ROUTING_SIDECAR = 'support/routing.ratchet.yaml';

const FILES: Record<string, string> = {
  // VS Code reads `applyTo: **/*.py` and `Use when: …`; strict YAML refuses both. Not Ratchet's business.
  [PLAIN]: [
    '---',
    'description: Review the selection. Use when: a change is ready',
    'agent: agent',
    'applyTo: **/*.py',
    "tools: ['search/codebase']",
    '---',
    'Review ${selection} in ${file} with #tool:search/codebase.',
    'Focus on ${input:focus:What to look for}.',
    '',
  ].join('\n'),
  // A positive control: a problem Ratchet does report, so the panel is known to hold Ratchet's problems.
  [BROKEN]: ['---', "applyTo: '**'", 'ratchet:', '  gate: { alpha: 2 }', '---', 'Answer briefly.', ''].join('\n'),
  [ROUTING]: ['---', 'description: Route a ticket to a queue', 'ratchet:', '  dataset: data/tickets.csv', '  scorer: { type: exact, ignoreCase: true }', '  budget:', '    candidates: 5', '---', 'Route this ticket: {{ticket}}', ''].join(
    '\n',
  ),
};

describe('Copilot customizations in the editor', () => {
  const session = useSession(async () => ({
    options: {
      name: 'copilot',
      populate: async (folder) => {
        for (const [path, text] of Object.entries(FILES)) {
          await mkdir(dirname(join(folder, path)), { recursive: true });
          await writeFile(join(folder, path), text);
        }
      },
    },
  }));

  it('puts the lens on a SKILL.md and on a .github/prompts prompt file, and reports nothing of its own on a plain Copilot prompt file', async () => {
    const s = session();
    const { editor, problems } = s.workbench;
    await editor.openFile('skills/unit-conversion/SKILL.md');
    await editor.waitForCodeLens(/Evolve/, 90_000);
    expect(await editor.codeLensTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Evolve/), 'Evaluate']));
    await s.screenshot('skill-lens');

    await editor.openFile(PLAIN);
    await editor.waitForCodeLens(/Configure Ratchet/, 60_000);
    expect(await editor.codeLensTexts()).toEqual(expect.arrayContaining([expect.stringMatching(/Configure Ratchet/), expect.stringMatching(/Generate Dev Set/)]));
    // The server published the plain file's problems when it opened (before its lens); the broken
    // file's come after, and once they show, the plain file's would have too.
    await editor.openFile(BROKEN);
    await problems.open();
    await problems.waitForProblem(/gate\.alpha must be < 1/, 60_000);
    const rows = await problems.rowLabels();
    expect(rows.some((l) => l.includes('broken.instructions.md'))).toBe(true);
    expect(rows.filter((l) => l.includes('review.prompt.md'))).toEqual([]);
    await s.screenshot('problems');
  });

  it('moves the ratchet: block to a sidecar with the quick fix, and one Ctrl+Z restores it', async () => {
    const s = session();
    const { editor } = s.workbench;
    const sidecar = join(s.folder, ROUTING_SIDECAR);
    const exists = () =>
      access(sidecar).then(
        () => true,
        () => false,
      );
    await editor.openFile(ROUTING);
    await editor.waitForCodeLens(/Evolve/, 60_000);
    expect(await exists()).toBe(false);

    // Ctrl+. on the ratchet: line, as a keyboard user asks for quick fixes.
    await editor.goToLine(3);
    const fix = await editor.quickFix('Move Ratchet settings to a sidecar');
    await s.screenshot('quick-fix-menu');
    await fix.click();
    await editor.waitForNoText('ratchet:');
    await editor.waitForText('description: Route a ticket to a queue');
    await waitUntil(async () => ((await exists()) ? true : undefined), `${ROUTING_SIDECAR} created`);
    // The sidecar holds the block, de-indented (open beside the prompt, unsaved, as any refactoring leaves it).
    expect((await editor.text()).split('\n').slice(0, 4)).toEqual(['---', 'description: Route a ticket to a queue', '---', 'Route this ticket: {{ticket}}']);
    await s.screenshot('moved');

    await editor.undo();
    await editor.waitForText('ratchet:');
    await editor.waitForText('  dataset: data/tickets.csv');
    await waitUntil(async () => ((await exists()) ? undefined : true), `${ROUTING_SIDECAR} gone after one Ctrl+Z`);
    await waitUntil(async () => ((await editor.text()).startsWith(FILES[ROUTING]!.trimEnd()) ? true : undefined), 'the prompt back as it was');
  });

  it('converts the support example to a skill in .github/skills, with its run spec rebased, and offers Evaluate Both', async () => {
    const s = session();
    const { editor, palette, notifications } = s.workbench;
    await editor.openFile('support/triage.prompt.md');
    await editor.waitForCodeLens(/Evolve/, 60_000);
    await palette.run('Ratchet: Convert to Skill');
    const message = await notifications.waitFor(/wrote skill triage/, 30_000);
    expect(message).toMatch(/Evaluate both/);
    await waitVisible(s.page.locator('.notification-toast').getByRole('button', { name: 'Evaluate Both' }), 'the Evaluate Both button');
    await waitVisible(editor.activeTab().filter({ hasText: 'SKILL.md' }), 'the new SKILL.md in the editor');
    await editor.waitForText('name: triage');
    expect((await editor.text()).split('\n').slice(0, 4)).toEqual(['---', 'name: triage', 'description: Route a customer support ticket to the right queue.', '---']);
    const spec = await waitUntil(() => readFile(join(s.folder, '.github/skills/triage/SKILL.ratchet.yaml'), 'utf8').catch(() => undefined), 'the skill’s run spec on disk');
    expect(spec).toContain('dataset: ../../../support/data/tickets.csv');
    await s.screenshot('convert-to-skill');
  });
});
