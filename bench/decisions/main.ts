// bench/decisions: the decision sequence of seeded runs against the fake server's controlled
// scenario, through the built CLI — a record that a refactor left behaviour unchanged. Every run kind
// that decides: evolve (one run per gate and seed), code search (its gate's decisions on a real
// evaluator, one proposal at a time so the order is the seed's alone), and gen-data (the tasks each
// zero-data round kept and held out). Record before a change, compare after:
//   npm run build && node scripts/run-ts.mjs bench/decisions/main.ts --out /tmp/before.json
//   (change)  npm run build && node scripts/run-ts.mjs bench/decisions/main.ts --compare /tmp/before.json
// `--kinds evolve,search,gen-data` picks run kinds (all by default); a snapshot recorded before a
// kind was added compares only the runs it has, and says which runs it lacks.
// The evolve runs use only what the CLI and the fake server offered before sequence numbers and the
// sign gate, so the same files (this one and bench/evolve/gates.ts) run on an older checkout.
// `--schedule NAME` writes `gate.schedule: NAME` into every evolve run's spec: `--schedule per-candidate`
// replays the decisions of checkouts from before the run-level default (issue #28).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeServer } from '../../test/fixtures/fakeOpenAI/server';
import type { ScenarioInput } from '../../test/fixtures/fakeOpenAI/scenario';
import { makeWorkspace, scenarioFor } from '../../test/integration/evolveWorkspace';
import { searchWorkspace } from '../../test/integration/searchWorkspace';
import { BENCH_GATES } from '../evolve/gates';

const CLI = resolve('out/cli.js');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seeds = Number(flag('--seeds') ?? 3) || 3;
const schedule = flag('--schedule');
const KINDS = ['evolve', 'search', 'gen-data'] as const;
const kinds = (flag('--kinds')?.split(',') ?? KINDS).filter((k): k is (typeof KINDS)[number] => (KINDS as readonly string[]).includes(k));

/** `v3 commit (k=12)`: the candidate, what the gate decided, and after how many items. */
type Sequence = string[];

interface Journaled {
  type: string;
  record?: { candidateId: string; decision: string; candidateCalls: number; itemsConsumed?: number };
  round?: number;
  kept?: { text: string }[];
  heldOut?: { text: string }[];
}

/** Runs the CLI to its end against a fake server with `scenario`; the events of the one run it journaled in `dir`. */
async function journaled(dir: string, cli: string[], scenario: ScenarioInput): Promise<Journaled[]> {
  const server = await startFakeServer({ scenario });
  const child = spawn(process.execPath, [CLI, ...cli, '--base-url', server.url, '-w', dir], { env: { ...process.env, OPENAI_API_KEY: 'bench' }, stdio: 'ignore' });
  await new Promise((r) => child.on('close', r));
  await server.close();
  const [id] = readdirSync(join(dir, '.ratchet', 'runs'));
  return readFileSync(join(dir, '.ratchet', 'runs', id!, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Journaled);
}

/** `v3 commit (calls=12)`; a search's evaluations are whole, so its decisions say how many instances they read (`items=`). */
const decisions = (events: Journaled[], count: 'calls' | 'items' = 'calls'): Sequence =>
  events.flatMap((e) => (e.type === 'decision' && e.record ? [`${e.record.candidateId} ${e.record.decision} (${count}=${count === 'calls' ? e.record.candidateCalls : e.record.itemsConsumed})`] : []));

async function evolveOnce(gate: string, labels: boolean, seed: number): Promise<Sequence> {
  const ws = makeWorkspace({ gate, seed, labels, ...(schedule ? { gateLines: [`schedule: ${schedule}`] } : {}) });
  return decisions(await journaled(ws.dir, ['evolve', ws.promptPath], scenarioFor(ws, { seed, gainAt: 1 + (seed % 10) })));
}

async function searchOnce(seed: number): Promise<Sequence> {
  const ws = searchWorkspace();
  return decisions(await journaled(ws.dir, ['search', ws.program, '--proposals', '8', '--concurrency', '1', '--seed', String(seed)], { seed }), 'items');
}

/** `round 1 kept: …; held out: …`: the task texts each round kept, in order. */
async function genDataOnce(seed: number): Promise<Sequence> {
  const dir = mkdtempSync(join(tmpdir(), 'ratchet-bench-gendata-'));
  const prompt = join(dir, 'sums.prompt.md');
  writeFileSync(prompt, '---\ndescription: arithmetic word problems\n---\nYou solve arithmetic problems.\n\nQuestion: {{question}}\n\nEnd with "The answer is N".\n');
  writeFileSync(join(dir, 'sums.ratchet.yaml'), ['models:', '  agent: { model: sim-agent }', '  validator: { model: sim-validator }', '  challenger: { model: sim-challenger }', `seed: ${seed}`, 'concurrency: 1', ''].join('\n'));
  const scenario: ScenarioInput = { seed, agent: { baseAccuracy: 0.5, noise: 1 }, validator: { accuracy: 0.85, positionBias: 0, tieRate: 1 } };
  const events = await journaled(dir, ['gen-data', prompt, '--tasks', '8', '--keep', '3', '--samples', '4', '--rounds', '2'], scenario);
  return events.flatMap((e) => (e.type === 'zero/round' ? [`round ${e.round} kept: ${(e.kept ?? []).map((t) => t.text).join(' | ')}; held out: ${(e.heldOut ?? []).map((t) => t.text).join(' | ')}`] : []));
}

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error('out/cli.js is missing: run `npm run build` first.');
  const record: Record<string, Sequence> = {};
  if (kinds.includes('evolve')) {
    for (const { gate, labels } of BENCH_GATES) {
      for (let s = 1; s <= seeds; s++) record[`${gate} seed ${s}`] = await evolveOnce(gate, labels, s);
      process.stderr.write(`${gate} done\n`);
    }
  }
  if (kinds.includes('search')) {
    for (let s = 1; s <= seeds; s++) record[`search seed ${s}`] = await searchOnce(s);
    process.stderr.write('search done\n');
  }
  if (kinds.includes('gen-data')) {
    for (let s = 1; s <= seeds; s++) record[`gen-data seed ${s}`] = await genDataOnce(s);
    process.stderr.write('gen-data done\n');
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
    if (before[run] === undefined) {
      console.log(`| ${run} | ${seq.length} | not in ${against} (recorded before this run kind was) |`);
      continue;
    }
    const same = JSON.stringify(seq) === JSON.stringify(before[run]);
    if (!same) differing++;
    console.log(`| ${run} | ${seq.length} | ${same ? 'yes' : `NO — before: ${before[run].join(', ')}; now: ${seq.join(', ')}`} |`);
  }
  console.log(`\n${differing === 0 ? 'every decision sequence is unchanged' : `${differing} run(s) decided differently`}`);
  process.exitCode = differing === 0 ? 0 : 1;
}

void main();
