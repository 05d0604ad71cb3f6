// bench/decisions: the decision sequence of seeded runs against the fake server's controlled
// scenario, one run per gate and seed through the built CLI — a record that a refactor left
// behaviour unchanged. Record before a change, compare after:
//   npm run build && node scripts/run-ts.mjs bench/decisions/main.ts --out /tmp/before.json
//   (change)  npm run build && node scripts/run-ts.mjs bench/decisions/main.ts --compare /tmp/before.json
// Uses only what the CLI and the fake server offered before sequence numbers and the sign gate,
// so the same files (this one and bench/evolve/gates.ts) run on an older checkout.
// `--schedule NAME` writes `gate.schedule: NAME` into every run's spec: `--schedule per-candidate`
// replays the decisions of checkouts from before the run-level default (issue #28).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFakeServer } from '../../test/fixtures/fakeOpenAI/server';
import { makeWorkspace, scenarioFor } from '../../test/integration/evolveWorkspace';
import { BENCH_GATES } from '../evolve/gates';

const CLI = resolve('out/cli.js');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seeds = Number(flag('--seeds') ?? 3) || 3;
const schedule = flag('--schedule');

/** `v3 commit (k=12)`: the candidate, what the gate decided, and after how many items. */
type Sequence = string[];

async function once(gate: string, labels: boolean, seed: number): Promise<Sequence> {
  const ws = makeWorkspace({ gate, seed, labels, ...(schedule ? { gateLines: [`schedule: ${schedule}`] } : {}) });
  const server = await startFakeServer({ scenario: scenarioFor(ws, { seed, gainAt: 1 + (seed % 10) }) });
  const child = spawn(process.execPath, [CLI, 'evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir], {
    env: { ...process.env, OPENAI_API_KEY: 'bench' },
    stdio: 'ignore',
  });
  await new Promise((r) => child.on('close', r));
  await server.close();
  const [id] = readdirSync(join(ws.dir, '.ratchet', 'runs'));
  const events = readFileSync(join(ws.dir, '.ratchet', 'runs', id!, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; record?: { candidateId: string; decision: string; candidateCalls: number } });
  return events.flatMap((e) => (e.type === 'decision' && e.record ? [`${e.record.candidateId} ${e.record.decision} (calls=${e.record.candidateCalls})`] : []));
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('out/cli.js is missing: run `npm run build` first.');
  const record: Record<string, Sequence> = {};
  for (const { gate, labels } of BENCH_GATES) {
    for (let s = 1; s <= seeds; s++) record[`${gate} seed ${s}`] = await once(gate, labels, s);
    process.stderr.write(`${gate} done\n`);
  }
  const out = flag('--out');
  if (out) writeFileSync(out, `${JSON.stringify(record, null, 1)}\n`);
  const against = flag('--compare');
  if (!against) {
    for (const [run, seq] of Object.entries(record)) console.log(`${run}: ${seq.join(', ')}`);
    return;
  }
  const before = JSON.parse(readFileSync(against, 'utf8')) as Record<string, Sequence>;
  console.log(`\nbench/decisions — ${Object.keys(record).length} seeded runs compared with ${against}\n`);
  console.log('| run | decisions | same as before |');
  console.log('|---|---|---|');
  let differing = 0;
  for (const [run, seq] of Object.entries(record)) {
    const same = JSON.stringify(seq) === JSON.stringify(before[run]);
    if (!same) differing++;
    console.log(`| ${run} | ${seq.length} | ${same ? 'yes' : `NO — before: ${(before[run] ?? []).join(', ')}; now: ${seq.join(', ')}`} |`);
  }
  console.log(`\n${differing === 0 ? 'every decision sequence is unchanged' : `${differing} run(s) decided differently`}`);
  process.exitCode = differing === 0 ? 0 : 1;
}

void main();
