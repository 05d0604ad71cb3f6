// bench/evolve: LLM calls and wall time per gate on the fake server's controlled scenario (one
// of ten edits raises true accuracy by 0.30), through the built CLI, and the candidate
// evaluations PACE+ saves relative to greedy. Run by hand: `npm run bench:evolve [-- --seeds N]`.
// With --worlds: the evolve loop against GEPA's acceptance rule in simulated GSM8K worlds
// (worlds.ts; `npm run bench:evolve -- --worlds --runs N`); with --ablation: the run-level
// default's parts one at a time (ablation.ts).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startFakeServer } from '../../test/fixtures/fakeOpenAI/server';
import { makeWorkspace, scenarioFor } from '../../test/integration/evolveWorkspace';
import type { EngineEvent } from '../../src/core/journal/events';
import { BENCH_GATES } from './gates';
import { worldsMain } from './worlds';
import { ablationMain } from './ablation';

const CLI = resolve('out/cli.js');
const args = process.argv.slice(2);
const seeds = Number(args[args.indexOf('--seeds') + 1] ?? 10) || 10;

interface Row {
  gate: string;
  calls: number[];
  agentCalls: number[];
  wallMs: number[];
  candidateEvals: number[];
  foundReal: number;
  commits: number[];
  testGain: number[];
}

async function once(gate: string, labels: boolean, seed: number) {
  const gainAt = 1 + (seed % 10);
  const ws = makeWorkspace({ gate, seed, labels });
  const server = await startFakeServer({ scenario: scenarioFor(ws, { seed, gainAt }) });
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, 'evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir], {
    env: { ...process.env, OPENAI_API_KEY: 'bench' },
    stdio: 'ignore',
  });
  await new Promise((r) => child.on('close', r));
  const wallMs = Date.now() - started;
  const calls = server.calls.length;
  const agentCalls = server.calls.filter((c) => c.role === 'agent').length;
  await server.close();
  const [id] = readdirSync(join(ws.dir, '.ratchet', 'runs'));
  const events = readFileSync(join(ws.dir, '.ratchet', 'runs', id!, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EngineEvent);
  const texts = new Map(events.flatMap((e) => (e.type === 'candidate/proposed' ? [[e.candidateId, e.text] as const] : [])));
  const decisions = events.flatMap((e) => (e.type === 'decision' ? [e.record] : []));
  const commits = decisions.filter((d) => d.decision === 'commit');
  const foundReal = commits.some((d) => texts.get(d.candidateId)?.includes(`<!-- edit:${gainAt} -->`));
  const report = events.find((e) => e.type === 'report/test');
  return {
    calls,
    agentCalls,
    wallMs,
    candidateEvals: decisions.reduce((s, d) => s + d.candidateCalls, 0),
    foundReal,
    commits: commits.length,
    testGain: report?.type === 'report/test' ? report.difference.mean : NaN,
  };
}

async function main() {
  if (!existsSync(CLI)) throw new Error('out/cli.js is missing: run `npm run build` first.');
  const rows: Row[] = [];
  for (const { gate, labels } of BENCH_GATES) {
    const row: Row = { gate, calls: [], agentCalls: [], wallMs: [], candidateEvals: [], foundReal: 0, commits: [], testGain: [] };
    for (let s = 1; s <= seeds; s++) {
      const r = await once(gate, labels, s);
      row.calls.push(r.calls);
      row.agentCalls.push(r.agentCalls);
      row.wallMs.push(r.wallMs);
      row.candidateEvals.push(r.candidateEvals);
      row.commits.push(r.commits);
      if (!Number.isNaN(r.testGain)) row.testGain.push(r.testGain);
      if (r.foundReal) row.foundReal++;
    }
    rows.push(row);
    process.stderr.write(`${gate} done\n`);
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
  const greedy = rows.find((r) => r.gate === 'greedy')!;
  console.log(`\nbench/evolve — controlled scenario (10 candidates, one real +0.30 edit, dev 40, test 40), ${seeds} seeds, fake server at 0 ms latency\n`);
  console.log('| gate | LLM calls/run | agent calls/run | wall s/run | candidate evals/run | × greedy | commits/run | real edit found | Δ test acc (pts) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.gate} | ${mean(r.calls).toFixed(0)} | ${mean(r.agentCalls).toFixed(0)} | ${(mean(r.wallMs) / 1000).toFixed(2)} | ${mean(r.candidateEvals).toFixed(0)} | ${(mean(r.candidateEvals) / mean(greedy.candidateEvals)).toFixed(2)} | ${mean(r.commits).toFixed(2)} | ${r.foundReal}/${seeds} | ${r.testGain.length ? (100 * mean(r.testGain)).toFixed(1) : '—'} |`,
    );
  }
  const pace = rows.find((r) => r.gate === 'pace+')!;
  console.log(`\nPACE+ used ${(mean(pace.candidateEvals) / mean(greedy.candidateEvals)).toFixed(2)}× greedy's candidate evaluations and ${(mean(pace.agentCalls) / mean(greedy.agentCalls)).toFixed(2)}× its agent calls.`);
}

if (args.includes('--worlds')) void worldsMain(args);
else if (args.includes('--ablation')) ablationMain(args);
else void main();
