// `ratchet runs …` through the built CLI (out/cli.js), as a user runs it: real processes, real
// exit codes, stdout and stderr kept apart.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineEvent } from '../../src/core/journal/eventShape';
import { FIXTURE_RUNS, fixtureWorkspace, tempWorkspace } from '../unit/journal/journalHelpers';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const cli = path.join(repo, 'out', 'cli.js');

function ratchet(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: repo, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let ws: string;
let empty: string;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // `npm test` builds first; this covers running the file on its own.
  if (!existsSync(cli)) {
    const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
  }
  const fixture = await fixtureWorkspace();
  const bare = await tempWorkspace();
  cleanup.push(fixture.dispose, bare.dispose);
  ws = fixture.root;
  empty = bare.root;
});
afterAll(async () => {
  for (const c of cleanup) await c();
});

const runsDir = () => path.join(ws, '.ratchet', 'runs');
const eventsOf = (id: string) => path.join(runsDir(), id, 'events.jsonl');

describe('ratchet runs list', () => {
  it('prints a table of the runs, newest first, and says which one could not be read', () => {
    const { code, stdout, stderr } = ratchet('runs', 'list', ws);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^run\s+kind\s+status\s+target\s+started \(UTC\)\s+candidates\s+commits\s+cost$/);
    expect(lines.slice(1, 5).map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      [FIXTURE_RUNS.failed, 'evolve', 'failed'],
      [FIXTURE_RUNS.corrupt, 'evolve', 'corrupt'],
      [FIXTURE_RUNS.torn, 'evolve', 'interrupted*'],
      [FIXTURE_RUNS.finished, 'evolve', 'finished'],
    ]);
    expect(lines[4]).toMatch(/math\/word-problems\.prompt\.md\s+2026-11-01 09:00:00\s+2\s+1\s+\$0\.0221$/);
    expect(stdout).toContain("* the journal's last line was torn by a crash mid-write");
    expect(stdout).toContain(`1 run could not be read:\n  ${FIXTURE_RUNS.corrupt}: ${eventsOf(FIXTURE_RUNS.corrupt)} line 5 is not valid JSON`);
  });

  it('--json prints one JSON object per run per line', () => {
    const { code, stdout } = ratchet('runs', 'list', ws, '--json');
    expect(code).toBe(0);
    const rows = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { runId: string; status: string; commits: number });
    expect(rows.map((r) => [r.runId, r.status])).toEqual([
      [FIXTURE_RUNS.failed, 'failed'],
      [FIXTURE_RUNS.corrupt, 'corrupt'],
      [FIXTURE_RUNS.torn, 'interrupted'],
      [FIXTURE_RUNS.finished, 'finished'],
    ]);
    expect(rows[3]!.commits).toBe(1);
  });

  it('takes the workspace as -w too, as runs show and export do, and refuses two different ones', () => {
    expect(ratchet('runs', 'list', '-w', ws, '--json')).toEqual(ratchet('runs', 'list', ws, '--json'));
    const both = ratchet('runs', 'list', ws, '-w', empty);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe(`ratchet: Name the workspace once: ${ws} or --workspace ${empty}.\n`);
  });

  it('exits 1 with a note on stderr when the workspace has no runs', async () => {
    await mkdir(path.join(empty, '.ratchet'), { recursive: true });
    expect(ratchet('runs', 'list', empty)).toEqual({ code: 1, stdout: '', stderr: `No runs in ${path.join(empty, '.ratchet', 'runs')}.\n` });
    expect(ratchet('runs', 'list', empty, '--json')).toEqual({ code: 1, stdout: '', stderr: `No runs in ${path.join(empty, '.ratchet', 'runs')}.\n` });
  });

  it('exits 2 naming a workspace folder that does not exist', () => {
    const missing = path.join(empty, 'no-such-folder');
    expect(ratchet('runs', 'list', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `ratchet: No folder ${missing}; pass the workspace folder that holds .ratchet/runs.\n`,
    });
  });

  it("lists the shipped sample run (the README's command)", () => {
    const { code, stdout } = ratchet('runs', 'list', 'docs/sample-run');
    expect(code).toBe(0);
    expect(stdout.split('\n')[1]).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}\s+evolve\s+finished\s+math\/word-problems\.prompt\.md\s+.*\s+3\s+1\s+\$0\.\d{4}$/);
  });
});

describe('ratchet runs show', () => {
  it('prints a header and one timeline line per event', async () => {
    const { code, stdout, stderr } = ratchet('runs', 'show', FIXTURE_RUNS.finished, '--workspace', ws);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const [title, facts, blank, ...timeline] = stdout.trimEnd().split('\n');
    expect(title).toBe(`Run ${FIXTURE_RUNS.finished} · evolve · math/word-problems.prompt.md · finished`);
    expect(facts).toBe('gate pace+ α 0.05 · seed 13 · started 2026-11-01 09:00:00 UTC · 2 candidates, 1 commit · cost $0.0221');
    expect(blank).toBe('');
    const journalLines = (await readFile(eventsOf(FIXTURE_RUNS.finished), 'utf8')).trimEnd().split('\n');
    expect(timeline).toHaveLength(journalLines.length);
    expect(timeline[0]).toMatch(/^\s+\+0\.0s\s+run\/started\s+evolve math\/word-problems\.prompt\.md · gate pace\+ α 0\.05 · autopilot · seed 13$/);
    expect(timeline.find((l) => l.includes(' decision ') && l.includes('COMMIT'))).toMatch(/COMMIT c\d \(evidence\) · pace\+ α 0\.05 · \d+W \d+L \d+T over \d+ items · wealth [\d.]+ of 20$/);
    expect(timeline.at(-1)).toMatch(/run\/finished\s+2 candidates, 1 commit; incumbent c\d$/);
  });

  it('--json prints the journal verbatim, minus a torn last line, as JSONL of engine events', async () => {
    const { code, stdout } = ratchet('runs', 'show', FIXTURE_RUNS.torn, '--workspace', ws, '--json');
    expect(code).toBe(0);
    const journal = await readFile(eventsOf(FIXTURE_RUNS.torn), 'utf8');
    expect(journal.endsWith('\n')).toBe(false);
    expect(stdout).toBe(journal.slice(0, journal.lastIndexOf('\n') + 1));
    const events = stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(events).toHaveLength(12);
    expect(events.every(isEngineEvent)).toBe(true);
  });

  it('--json --after S prints exactly the journal lines of the events after seq S, numbered or not', async () => {
    // The finished fixture as an older version wrote it (no seq), and as this one writes it.
    const numbered = await tempWorkspace();
    cleanup.push(numbered.dispose);
    const id = FIXTURE_RUNS.finished;
    const dir = path.join(numbered.root, '.ratchet', 'runs', id);
    await cp(path.join(runsDir(), id), dir, { recursive: true });
    const old = (await readFile(eventsOf(id), 'utf8')).trimEnd().split('\n');
    const lines = old.map((l, i) => JSON.stringify({ ...(JSON.parse(l) as object), seq: i + 1 }));
    await writeFile(path.join(dir, 'events.jsonl'), lines.map((l) => `${l}\n`).join(''));
    for (const [workspace, journal] of [
      [ws, old],
      [numbered.root, lines],
    ] as const) {
      for (const after of [0, 1, 5, journal.length - 1, journal.length, journal.length + 3]) {
        const r = ratchet('runs', 'show', id, '-w', workspace, '--json', '--after', String(after));
        expect(r).toEqual({
          code: 0,
          stdout: journal
            .slice(after)
            .map((l) => `${l}\n`)
            .join(''),
          stderr: '',
        });
      }
    }
    expect(ratchet('runs', 'show', id, '-w', ws, '--json', '--after', 'x')).toEqual({ code: 2, stdout: '', stderr: 'ratchet: --after must be a whole number, got "x".\n' });
  });

  it("--after S lists the events after seq S under the whole run's header, timed from its start", () => {
    const whole = ratchet('runs', 'show', FIXTURE_RUNS.finished, '--workspace', ws).stdout.trimEnd().split('\n');
    const tail = ratchet('runs', 'show', FIXTURE_RUNS.finished, '--workspace', ws, '--after', '4').stdout.trimEnd().split('\n');
    expect(tail).toEqual([...whole.slice(0, 3), ...whole.slice(3 + 4)]);
    expect(ratchet('runs', 'show', FIXTURE_RUNS.finished, '--workspace', ws, '--after', '1000').stdout).toMatch(/\n\n\(no events after seq 1000\)\n$/);
  });

  it('notes a torn tail in the readable timeline', () => {
    const { code, stdout } = ratchet('runs', 'show', FIXTURE_RUNS.torn, '-w', ws);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toBe(`Run ${FIXTURE_RUNS.torn} · evolve · math/word-problems.prompt.md · interrupted`);
    expect(stdout.trimEnd().endsWith("(The journal's last line was torn by a crash mid-write and is left out.)")).toBe(true);
  });

  it('accepts a unique prefix of the run id', () => {
    const { code, stdout } = ratchet('runs', 'show', '20261104', '-w', ws);
    expect(code).toBe(0);
    expect(stdout).toContain(`Run ${FIXTURE_RUNS.failed} · evolve · math/word-problems.prompt.md · failed\n`);
    expect(stdout).toContain('failed: The proposer endpoint https://api.openai.com/v1 answered 429 five times in a row');
  });

  it('exits 2 naming the run and the folder when the run does not exist', () => {
    expect(ratchet('runs', 'show', '20990101-000000-abcdef', '--workspace', ws)).toEqual({
      code: 2,
      stdout: '',
      stderr: `ratchet: No run 20990101-000000-abcdef in ${runsDir()}; \`ratchet runs list ${ws}\` shows the runs there.\n`,
    });
  });

  it('exits 2 on an ambiguous prefix', () => {
    const { code, stderr } = ratchet('runs', 'show', '202611', '--workspace', ws);
    expect(code).toBe(2);
    expect(stderr).toBe(`ratchet: Run id 202611 matches 4 runs in ${runsDir()}; give more of the id (\`ratchet runs list ${ws}\` shows them).\n`);
  });

  it('exits 2 naming the file and line of a corrupt journal', () => {
    const { code, stdout, stderr } = ratchet('runs', 'show', FIXTURE_RUNS.corrupt, '--workspace', ws, '--json');
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toMatch(new RegExp(`^ratchet: ${escape(eventsOf(FIXTURE_RUNS.corrupt))} line 5 is not valid JSON: .+; the run cannot be replayed past it\\.\\n$`));
  });
});

describe('ratchet runs export', () => {
  it('--format json writes run.json and the events as one document', async () => {
    const { code, stdout } = ratchet('runs', 'export', FIXTURE_RUNS.finished, '--workspace', ws, '--format', 'json');
    expect(code).toBe(0);
    const doc = JSON.parse(stdout) as { run: unknown; events: unknown[] };
    expect(doc.run).toEqual(JSON.parse(await readFile(path.join(runsDir(), FIXTURE_RUNS.finished, 'run.json'), 'utf8')));
    const journal = await readFile(eventsOf(FIXTURE_RUNS.finished), 'utf8');
    // The fixture predates seq: the reader numbers its events by their place.
    expect(doc.events).toEqual(
      journal
        .trimEnd()
        .split('\n')
        .map((l, i) => ({ ...(JSON.parse(l) as object), seq: i + 1 })),
    );
  });

  it('--out writes JSONL (run first, then events) to a file and reports it on stderr', async () => {
    const out = path.join(empty, 'export.jsonl');
    const { code, stdout, stderr } = ratchet('runs', 'export', FIXTURE_RUNS.failed, '--workspace', ws, '--out', out);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: `Exported run ${FIXTURE_RUNS.failed} (4 events) to ${out}.\n` });
    const lines = (await readFile(out, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(5);
    expect((lines[0]!.run as { runId: string }).runId).toBe(FIXTURE_RUNS.failed);
    expect(lines.slice(1).map((e) => e.type)).toEqual(['run/started', 'log', 'cost/update', 'run/failed']);
  });

  it('exits 2 on an unknown format', () => {
    expect(ratchet('runs', 'export', FIXTURE_RUNS.failed, '--workspace', ws, '--format', 'xml').code).toBe(2);
  });
});

describe('ratchet runs resume', () => {
  // Resuming a real run is covered end to end in evolve.test.ts (kill, then resume).
  it('exits 2 when the run was not started by a version that can resume it, after checking the run exists', () => {
    expect(ratchet('runs', 'resume', FIXTURE_RUNS.torn, '--workspace', ws)).toEqual({
      code: 2,
      stdout: '',
      stderr: `ratchet: Run ${FIXTURE_RUNS.torn} is not an evolve run this version can resume.\n`,
    });
    expect(ratchet('runs', 'resume', 'nope', '--workspace', ws).stderr).toMatch(/^ratchet: No run nope in /);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
