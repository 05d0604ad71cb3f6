// `ratchet runs show`, `list` and `export` on a long journal through the built CLI (#14): 250k
// events used to overflow the call stack (their widths were spread into Math.max); the journal is
// now streamed, so each works in bounded memory however long the run. The 1M-event figures are
// measured by hand.
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './evolveCli';
import { SCRATCH } from './evolveWorkspace';

const EVENTS = 250_000;
const RUN_ID = '20261201-000000-b16b16';
const T0 = Date.UTC(2026, 11, 1);
let ws: string;

/** A valid journal: run/started, then item/evaluated events, numbered, at 10 ms apart. */
function writeJournal(root: string, n: number): void {
  const dir = join(root, '.ratchet', 'runs', RUN_ID);
  mkdirSync(dir, { recursive: true });
  const record = { format: 1, runId: RUN_ID, kind: 'evolve', target: 'big.prompt.md', createdAt: new Date(T0).toISOString(), seed: 1, version: '0.1.0', spec: {} };
  writeFileSync(join(dir, 'run.json'), JSON.stringify(record));
  const events = join(dir, 'events.jsonl');
  const info = { kind: 'evolve', target: 'big.prompt.md', gate: 'pace+', alpha: 0.05, mode: 'suggest', seed: 1 };
  let batch = `${JSON.stringify({ runId: RUN_ID, at: T0, type: 'run/started', info, seq: 1 })}\n`;
  for (let seq = 2; seq <= n; seq++) {
    const e = { runId: RUN_ID, at: T0 + seq * 10, type: 'item/evaluated', candidateId: `c${seq >> 8}`, itemId: `item-${seq % 1000}`, score: seq % 2, cached: false, seq };
    batch += `${JSON.stringify(e)}\n`;
    if (batch.length > 1 << 20) {
      appendFileSync(events, batch);
      batch = '';
    }
  }
  appendFileSync(events, batch);
}

function ratchet(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  ws = mkdtempSync(join(SCRATCH, 'ratchet-big-'));
  writeJournal(ws, EVENTS);
}, 180_000);
afterAll(() => rmSync(ws, { recursive: true, force: true }));

// Generous limits: the machine may be busy, and nothing here is about speed.
describe(`runs show on a journal of ${EVENTS} events`, { timeout: 180_000 }, () => {
  it('prints the header and one row per event', () => {
    const { code, stdout, stderr } = ratchet('runs', 'show', RUN_ID, '-w', ws);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3 + EVENTS);
    expect(lines[0]).toMatch(new RegExp(`^Run ${RUN_ID} · evolve · big\\.prompt\\.md · `));
    expect(lines[3]).toBe('    +0.0s  run/started     evolve big.prompt.md · gate pace+ α 0.05 · suggest · seed 1');
    expect(lines.at(-1)).toBe(`  +41m40s  item/evaluated  c976 on item-0: score 0`);
  });

  it('--json passes the lines on verbatim, and --after the tail', () => {
    const json = ratchet('runs', 'show', RUN_ID, '-w', ws, '--json', '--after', String(EVENTS - 2));
    expect(json.code).toBe(0);
    expect(
      json.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { seq: number }).seq),
    ).toEqual([EVENTS - 1, EVENTS]);
  });
});

describe(`runs list and export on a journal of ${EVENTS} events`, { timeout: 180_000 }, () => {
  it('list sums the run up', () => {
    const { code, stdout, stderr } = ratchet('runs', 'list', ws, '--json');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ runId: RUN_ID, status: 'interrupted', events: EVENTS, tornTail: false });
  });

  it('export --out writes the run line and every event, the same as the journal', () => {
    const out = join(ws, 'export.jsonl');
    const { code, stderr } = ratchet('runs', 'export', RUN_ID, '-w', ws, '--out', out);
    expect({ code, stderr }).toEqual({ code: 0, stderr: `Exported run ${RUN_ID} (${EVENTS} events) to ${out}.\n` });
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + EVENTS);
    expect(lines.slice(1).join('\n')).toBe(readFileSync(join(ws, '.ratchet', 'runs', RUN_ID, 'events.jsonl'), 'utf8').trimEnd());
  });
});
