/**
 * Ratchet for agents in the real VS Code (issue #30): the extension offers `ratchet mcp` to the
 * editor's MCP client, so it is listed among VS Code's MCP servers without any setup; a tool call
 * through that client — what Copilot's agent mode does, made here by a test fixture extension
 * (test/e2e/fixtures/toolCaller) since no chat model is installed — judges an edit of a prompt,
 * and the judged edit lands in the Runs view and the Ratchet panel like any run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEvolveFixture, type EvolveFixture } from '../harness/evolveFixture';
import { e2eRoot, repoRoot } from '../harness/paths';
import { useSession } from '../harness/specSession';
import { RunsView } from '../pages/RunsView';
import { attemptTimeoutMs, waitHidden, waitUntil, waitVisible } from '../pages/waits';

const toolCallerVsix = join(e2eRoot, 'artifacts', 'ratchet-e2e-tool-caller.vsix');

/** The fixture extension packaged offline with vsce (what a user's second extension would be). */
function packToolCaller(): string {
  mkdirSync(dirname(toolCallerVsix), { recursive: true });
  execFileSync(process.execPath, [join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--skip-license', '--out', toolCallerVsix], { cwd: join(e2eRoot, 'fixtures', 'toolCaller'), stdio: 'pipe' });
  return toolCallerVsix;
}

describe('ratchet mcp in VS Code', () => {
  let fixture: EvolveFixture | undefined;
  const session = useSession(async () => {
    fixture = await startEvolveFixture({ gainAt: 1 });
    return {
      options: {
        name: 'mcp',
        extensions: [packToolCaller()],
        populate: (folder) => fixture!.populate(folder),
        userSettings: {
          ...fixture.userSettings,
          // The MCP client lives with VS Code's AI features; no chat model is needed to list servers and call tools.
          'chat.disableAIFeatures': false,
        },
      },
      cleanup: () => fixture!.close(),
    };
  });

  it("is listed among VS Code's MCP servers, offered by the Ratchet extension, and starts from there", async () => {
    const s = session();
    const { palette } = s.workbench;
    // Ratchet registers its server when it activates (here: the workspace holds a prompt file).
    await new RunsView(s.page, palette).open();
    const serverRow = s.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Ratchet' });
    await waitUntil(
      async () => {
        const row = await palette.show('MCP: List Servers', { timeoutMs: 90_000 });
        await row.click();
        const listed = await serverRow
          .first()
          .waitFor({ state: 'visible', timeout: attemptTimeoutMs })
          .then(() => true)
          .catch(() => false);
        if (!listed) await s.page.keyboard.press('Escape');
        return listed ? true : undefined;
      },
      () => 'Ratchet in the list of MCP servers',
      90_000,
    );
    await s.screenshot('servers-list');
    await serverRow.first().click();
    const start = s.page.locator('.quick-input-list .monaco-list-row', { hasText: /Start Server/ });
    await waitVisible(start, 'the Start Server action of the Ratchet MCP server', 30_000);
    await s.screenshot('server-actions');
    await start.first().click();
    // Started, the server's tools are among the editor's language model tools.
    const toolsFile = join(s.folder, '.e2e', 'tools.json');
    await mkdir(dirname(toolsFile), { recursive: true });
    const tools = await waitUntil(
      async () => {
        await palette.run('Ratchet e2e: List Language Model Tools');
        const names = existsSync(toolsFile) ? (JSON.parse(await readFile(toolsFile, 'utf8')) as string[]) : [];
        return names.some((n) => n.includes('judge_edit')) ? names : undefined;
      },
      () => 'the Ratchet MCP server’s tools among vscode.lm.tools',
      120_000,
    );
    console.log(`[e2e] Ratchet tools: ${tools.filter((n) => /judge_edit|evaluate|start_run|run_status|cancel_run|list_runs|explain_decision/.test(n)).join(', ')}`);
  });

  it('a judge_edit call through the editor’s MCP client lands in the Runs view and the panel', async () => {
    const s = session();
    const f = fixture!;
    const prompt = join(s.folder, f.promptRelative);
    const candidate = `${await readFile(prompt, 'utf8')}\n<!-- edit:1 -->\n${f.hint(1)}\n`;
    await mkdir(join(s.folder, '.e2e'), { recursive: true });
    await writeFile(join(s.folder, '.e2e', 'tool-call.json'), JSON.stringify({ tool: 'judge_edit', input: { file: f.promptRelative, candidate, rationale: 'a hint that helps' } }));
    await s.workbench.palette.run('Ratchet e2e: Call Tool From Request File', { timeoutMs: 90_000 });
    // VS Code asks before it runs an MCP tool, as it does for a chat agent's call.
    await s.workbench.dialog.waitFor('Run Judge an edit', 60_000);
    await s.screenshot('tool-confirmation');
    await s.workbench.dialog.choose('Yes');
    const resultFile = join(s.folder, '.e2e', 'tool-result.json');
    const result = await waitUntil(
      async () => (existsSync(resultFile) ? (JSON.parse(await readFile(resultFile, 'utf8')) as { tool?: string; text?: string; error?: string }) : undefined),
      () => 'the tool call to answer (.e2e/tool-result.json)',
      120_000,
    );
    console.log(`[e2e] tool call: ${JSON.stringify(result).slice(0, 600)}`);
    expect(result.error).toBeUndefined();
    expect(result.text).toMatch(/commit: the candidate is better/);
    // Nobody told the editor about this run: the Runs view finds its journal on disk.
    const runs = new RunsView(s.page, s.workbench.palette);
    await runs.open();
    await runs.waitForRunLabel('task.prompt.md', /1 committed/, 60_000);
    await runs.runRows('task.prompt.md').first().click();
    const rows = s.page.locator('.pane', { has: s.page.locator('.pane-header', { hasText: 'Runs' }) }).locator('.monaco-list-row');
    const candidateRow = rows.filter({ has: s.page.locator('.label-name', { hasText: /^c1$/ }) }).first();
    await waitVisible(candidateRow, 'the judged candidate c1 under the run', 30_000);
    await candidateRow.click();
    const decision = rows.filter({ has: s.page.locator('.label-name', { hasText: /^commit — evidence$/ }) }).first();
    await waitVisible(decision, "c1's commit decision", 30_000);
    // The hover a click on c1 left (its tooltip) would take the next click: the mouse goes where nothing hovers first.
    await s.workbench.parkMouse();
    await waitHidden(s.page.locator('.context-view .hover-contents'), 'the tooltip of the candidate row');
    await s.screenshot('judged-run-in-runs-view');
    // Its decision opens the panel on the run, like any run's.
    await decision.click();
    const panel = s.workbench.ratchetPanel;
    await panel.waitForReady('ratchet-panel-app', 60_000);
    await panel.waitForStatus('finished');
    // Opened from the decision: the Evidence tab on c1, in the panel's words.
    const evidence = panel.locator('ratchet-evidence-view');
    await waitVisible(evidence.filter({ hasText: 'Candidate c1: commit (evidence)' }), "the panel's evidence of the judged candidate", 30_000);
    expect(await evidence.textContent()).toMatch(/Gate pace\+ at α = 0\.05: evidence ×2\d(\.\d+)? \(needs ×20\)/);
    await s.workbench.parkMouse();
    await s.screenshot('judged-run-in-panel');
  });
});
