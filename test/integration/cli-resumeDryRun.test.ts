// A run that committed without writing (no --apply) is resumed with --apply: the file lacks its
// commits, so the resume is refused up front, in words, before it touches the file or the journal —
// it once replayed into `journalCorrupt` ("diverged at event …"). Resumed as it ran, it finishes.
// The interruption is made exactly where it matters (after a commit the run went on from) by
// cutting a finished dry run's journal there, not by a timed kill.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { FakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';
import type { Workspace } from './evolveWorkspace';

let ws: Workspace;
let server: FakeServer;

beforeAll(async () => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
  ws = makeWorkspace({ gate: 'pace+', seed: 3, candidates: 3, gateLines: ['schedule: per-candidate'] });
  server = await startFakeServer({ scenario: scenarioFor(ws, { seed: 3, gainAt: 1 }) });
});

afterAll(async () => {
  await server?.close();
  rmSync(ws.dir, { recursive: true, force: true });
});

describe('resuming a dry run with --apply', () => {
  it('is refused, naming the unwritten commit; resumed as it ran, it finishes', async () => {
    const dry = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
    expect(dry.code, dry.stderr).toBe(0);
    const [runId] = runIds(ws.dir);
    const events = journal(ws.dir, runId!);
    const commit = events.findIndex((e) => e.type === 'decision' && e.record.decision === 'commit');
    expect(commit, 'the real edit is committed').toBeGreaterThan(0);
    const committed = (events[commit] as Extract<(typeof events)[number], { type: 'decision' }>).record.candidateId;
    const next = events.findIndex((e, i) => i > commit && e.type === 'candidate/proposed');
    expect(next, 'the run went on after its commit').toBeGreaterThan(commit);
    // Interrupted right after the next candidate was proposed.
    const eventsPath = join(ws.dir, '.ratchet', 'runs', runId!, 'events.jsonl');
    writeFileSync(
      eventsPath,
      readFileSync(eventsPath, 'utf8')
        .split('\n')
        .slice(0, next + 1)
        .join('\n') + '\n',
    );
    const journalBefore = readFileSync(eventsPath, 'utf8');
    const promptBefore = readFileSync(ws.promptPath, 'utf8');
    const calls = server.calls.length;

    const refused = await runCli(['runs', 'resume', runId!, '-w', ws.dir, '--apply', '--base-url', server.url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--apply cannot change when resuming run ${runId}: it ran without writing, and its commit ${committed} was not written into the file`);
    expect(refused.stderr).not.toMatch(/diverged|journalCorrupt/);
    expect(readFileSync(ws.promptPath, 'utf8')).toBe(promptBefore);
    expect(readFileSync(eventsPath, 'utf8')).toBe(journalBefore);
    expect(server.calls.length).toBe(calls);

    const resumed = await runCli(['runs', 'resume', runId!, '-w', ws.dir, '--base-url', server.url]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(journal(ws.dir, runId!).at(-1)?.type).toBe('run/finished');
    expect(readFileSync(ws.promptPath, 'utf8')).toBe(promptBefore);
  }, 180_000);
});
