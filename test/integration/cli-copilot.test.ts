// Copilot's customization files through the built CLI against the fake endpoint (#31): a prompt
// file with Copilot's front matter and `${input:question}` evolves, and every version it commits
// keeps the front matter and the frozen tokens byte for byte (a candidate that drops one is refused
// before any evaluation, and the proposer is told); a SKILL.md, an *.instructions.md and an
// AGENTS.md each evolve and evaluate; a command harness runs once per item in the sandbox.
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { frozenTokens } from '../../src/core/prompt/frozenTokens';
import type { EngineEvent } from '../../src/core/journal/events';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, decisions, journal, runCli, runIds } from './evolveCli';
import { AGENTS_TEXT, INSTRUCTIONS_TEXT, PROMPT_BODY, PROMPT_FRONT, SKILL_TEXT, copilotScenario, makeCopilotWorkspace } from './copilotWorkspace';
import type { CopilotWorkspace } from './copilotWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const sorted = (xs: readonly string[]) => [...xs].sort();
const proposed = (events: readonly EngineEvent[]) => events.flatMap((e) => (e.type === 'candidate/proposed' ? [e] : []));
const committedIds = (events: readonly EngineEvent[]) =>
  decisions(events)
    .filter((d) => d.decision === 'commit')
    .map((d) => d.candidate);

async function evolve(ws: CopilotWorkspace, scenario = copilotScenario(ws), extra: string[] = []) {
  const server = await startFakeServer({ scenario });
  const before = new Set(runIds(ws.dir));
  try {
    const r = await runCli(['evolve', ws.file, '--base-url', server.url, '-w', ws.dir, '--apply', ...extra]);
    const events = journal(
      ws.dir,
      runIds(ws.dir).find((id) => !before.has(id))!,
    );
    return { r, events, calls: server.calls };
  } finally {
    await server.close();
  }
}

describe('a Copilot prompt file', () => {
  it('evolves with ${input:question} filled from the dataset; each committed version keeps the front matter and frozen tokens byte for byte', async () => {
    const ws = makeCopilotWorkspace({ path: '.github/prompts/ask.prompt.md', text: PROMPT_FRONT + PROMPT_BODY, candidates: 3 });
    // Edit 2 rewrites the line holding ${selection} and ${file}: refused before it costs an evaluation.
    const scenario = copilotScenario(ws, [
      {
        id: '2',
        text: 'Look at the selected text when there is one.',
        effect: { kind: 'gain', delta: 0.3 },
        replaces: 'You solve arithmetic problems. Look at ${selection} in ${file} when there is one.',
        reasoning: 'Say selection plainly.',
      },
      { id: '3', text: 'Write the sum as digits before you answer.', effect: { kind: 'neutral', churn: 0.2 }, reasoning: 'Digits first.' },
    ]);
    const { r, events, calls } = await evolve(ws, scenario);
    expect(events.at(-1)?.type, r.stderr).toBe('run/finished');

    // The agent got the question where ${input:question:…} stood, and every other token as written.
    const agentPrompts = calls.filter((c) => c.role === 'agent').map((c) => JSON.stringify(c.body));
    expect(agentPrompts.length).toBeGreaterThan(0);
    expect(agentPrompts.every((b) => /Question: What is \d+ plus \d+\?/.test(b) && b.includes('${selection}') && !b.includes('${input:'))).toBe(true);

    // The candidate that dropped ${selection} and ${file} was refused with the reason, never evaluated.
    const dropped = proposed(events).find((p) => p.text.includes('edit:2'))!;
    expect(dropped).toBeDefined();
    const refusal = events.find((e) => e.type === 'log' && e.message.startsWith(`${dropped.candidateId} was not tested:`));
    expect(refusal?.type === 'log' && refusal.message).toMatch(/drops or alters `\$\{selection\}`, `\$\{file\}`/);
    expect(decisions(events).map((d) => d.candidate)).not.toContain(dropped.candidateId);
    expect(calls.filter((c) => c.role === 'agent' && JSON.stringify(c.body).includes('edit:2'))).toEqual([]);
    // …and the proposer was told, in its memory of the parent, on its next call.
    const proposerCalls = calls.filter((c) => c.role === 'proposer').map((c) => JSON.stringify(c.body));
    expect(proposerCalls.at(-1)).toContain('refused unevaluated');
    expect(proposerCalls[0]).toContain('Keep each of these exactly as written');

    // What was committed is in the file, under the same front matter, with the same frozen tokens.
    const commits = committedIds(events);
    expect(commits.length).toBeGreaterThan(0);
    for (const id of commits) expect(sorted(frozenTokens(proposed(events).find((p) => p.candidateId === id)!.text)), id).toEqual(sorted(frozenTokens(PROMPT_BODY)));
    const final = readFileSync(ws.file, 'utf8');
    expect(final.startsWith(PROMPT_FRONT)).toBe(true);
    expect(final).toContain('<!-- edit:1 -->');
    expect(sorted(frozenTokens(final.slice(PROMPT_FRONT.length)))).toEqual(sorted(frozenTokens(PROMPT_BODY)));
  }, 120_000);
});

describe('Copilot customizations evolve and evaluate', () => {
  it.each([
    ['a SKILL.md (its description the trigger: a third of the items say it should not load)', '.github/skills/arithmetic/SKILL.md', SKILL_TEXT, true],
    ['an *.instructions.md (the system message)', '.github/instructions/numbers.instructions.md', INSTRUCTIONS_TEXT, false],
    ['an AGENTS.md (the system message)', 'AGENTS.md', AGENTS_TEXT, false],
  ])(
    '%s',
    async (_what, path, text, triggers) => {
      const ws = makeCopilotWorkspace({ path, text, triggers, candidates: 2 });
      const { r, events, calls } = await evolve(ws);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      expect(r.code).toBe(0);
      const final = readFileSync(ws.file, 'utf8');
      expect(final).toContain('<!-- edit:1 -->');
      // Everything above the body is as it was (a skill's description would change only if the proposer rewrote it).
      const head = (t: string) => (t.startsWith('---\n') ? t.slice(0, t.indexOf('\n---\n', 3) + 5) : '');
      expect(head(final)).toBe(head(text));
      const agent = calls.filter((c) => c.role === 'agent').map((c) => c.body as { messages: { role: string; content: string }[] });
      // The file is the system message; the item's question the user message.
      const answers = agent.filter((b) => !b.messages[0]!.content.startsWith('You are an agent with skills'));
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((b) => b.messages[0]!.role === 'system' && /^What is \d+ plus \d+\?$/.test(b.messages[1]!.content))).toBe(true);
      if (triggers) {
        // The chooser saw the description, and an item that should not load the skill was never answered with it.
        const choosers = agent.filter((b) => b.messages[0]!.content.startsWith('You are an agent with skills'));
        expect(choosers.length).toBeGreaterThan(0);
        expect(choosers[0]!.messages[0]!.content).toContain('- arithmetic: Solve arithmetic questions about sums. Use when: the user asks what a sum is.');
        const offTopic = new Set(ws.items.filter((i) => i.trigger === false).map((i) => i.question));
        expect(answers.some((b) => offTopic.has(b.messages[1]!.content))).toBe(false);
      }

      // Evaluate: no candidates, the held-out report for the file as it now is.
      const evaluated = await evolve(ws, copilotScenario(ws), ['--candidates', '0']);
      const report = evaluated.events.find((e) => e.type === 'report/test');
      expect(report?.type === 'report/test' && report.n, evaluated.r.stderr).toBe(10);
      expect(evaluated.events.find((e) => e.type === 'run/started')).toMatchObject({ info: { kind: 'evaluate' } });
    },
    120_000,
  );
});

describe('harness: command', () => {
  it('runs the command once per item in the sandbox, with the candidate where Copilot looks for it and no key', async () => {
    const ws = makeCopilotWorkspace({ path: '.github/skills/arithmetic/SKILL.md', text: SKILL_TEXT, candidates: 1, items: 54 });
    // A tiny agent CLI: the skill's body as the system message, the request as the user message,
    // sent to the endpoint it is given (the fake), and a line of evidence about where it ran.
    const agentScript = join(ws.dir, 'tools', 'agent.mjs');
    execSync(`mkdir -p ${join(ws.dir, 'tools')}`);
    writeFileSync(
      agentScript,
      [
        "import { readFileSync, appendFileSync, existsSync } from 'node:fs';",
        'const [file, input] = process.argv.slice(2);',
        "const text = readFileSync(file, 'utf8');",
        "const body = text.replace(/^---\\n[\\s\\S]*?\\n---\\n/, '');",
        "const message = readFileSync(input, 'utf8');",
        "appendFileSync(process.env.HARNESS_LOG, JSON.stringify({ cwd: process.cwd(), file, found: existsSync('.github/skills/arithmetic/SKILL.md'), key: process.env.OPENAI_API_KEY ?? null, item: JSON.parse(readFileSync('.ratchet-input/item.json', 'utf8')).id }) + '\\n');",
        "const res = await fetch(process.env.AGENT_URL + '/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sim-agent', messages: [{ role: 'system', content: body }, { role: 'user', content: message }] }) });",
        'const json = await res.json();',
        'process.stdout.write(json.choices[0].message.content);',
      ].join('\n'),
    );
    chmodSync(agentScript, 0o755);
    const log = join(ws.dir, 'harness.log');
    writeFileSync(
      join(ws.file, '..', 'SKILL.ratchet.yaml'),
      // Per candidate, by name: with one candidate and 4 feedback items the run-level default's screen
      // may drop the real edit (it must win one of the 4), and this test needs its commit to write.
      readFileSync(join(ws.file, '..', 'SKILL.ratchet.yaml'), 'utf8')
        .replace('split: { feedback: 10, dev: 40, test: 4 }', 'split: { feedback: 4, dev: 40, test: 10 }')
        .replace('gate: { name: pace+, alpha: 0.05 }', 'gate: { name: pace+, alpha: 0.05, schedule: per-candidate }') +
        ['harness:', '  type: command', `  command: node ${agentScript} {file} {input}`, '  env: [AGENT_URL, HARNESS_LOG]', '  timeoutSeconds: 60', ''].join('\n'),
    );
    const server = await startFakeServer({ scenario: copilotScenario(ws) });
    try {
      const r = await runCli(['evolve', ws.file, '--base-url', server.url, '-w', ws.dir, '--apply'], { AGENT_URL: server.url, HARNESS_LOG: log, OPENAI_API_KEY: 'sk-test-secret-key' });
      const events = journal(ws.dir, runIds(ws.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const runs = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { cwd: string; found: boolean; key: string | null; item: string });
      // Each run in its own temporary folder, never the workspace; the file at its place; no key.
      expect(runs.every((x) => x.cwd.includes('ratchet-eval-') && !x.cwd.startsWith(ws.dir) && x.found && x.key === null)).toBe(true);
      expect(new Set(runs.map((x) => x.cwd)).size).toBe(runs.length);
      // Once per (version, item): v0 on the feedback minibatch and the dev items, the candidate on dev, both on test.
      const perItem = new Map<string, number>();
      for (const x of runs) perItem.set(x.item, (perItem.get(x.item) ?? 0) + 1);
      expect(Math.max(...perItem.values())).toBeLessThanOrEqual(2);
      // The agent calls were the command's, not Ratchet's: none carried the run's own agent frame.
      expect(server.calls.filter((c) => c.role === 'agent').length).toBe(runs.length);
      expect(committedIds(events)).toEqual(['c1']);
      expect(readFileSync(ws.file, 'utf8')).toContain('<!-- edit:1 -->');
    } finally {
      await server.close();
    }
  }, 120_000);
});
