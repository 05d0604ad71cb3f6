// How close the LLM layer gets to the ideal throughput of its concurrency limit: N calls through
// the whole stack (core layer → OpenAiTransport → openai SDK → HTTP) against the fake server at a
// fixed latency. Ideal = calls × latency / concurrency; the target is measured/ideal ≤ 1.10.
//   node scripts/run-ts.mjs bench/llm-throughput.ts [--calls 400] [--concurrency 8] [--latency 200]
import { parseArgs } from 'node:util';
import { createLlmClient } from '../src/core/llm/client';
import { DEFAULT_RETRY } from '../src/core/llm/retry';
import type { RoleConfig } from '../src/core/llm/roles';
import { ROLES } from '../src/core/llm/types';
import { SeededRandom } from '../src/core/random';
import { OpenAiTransport } from '../src/node/openaiTransport';
import { startFakeServer } from '../test/fixtures/fakeOpenAI/server';
import { SystemClock } from '../src/node/clock';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    latency: { type: 'string', default: '200' },
  },
});
const calls = Number(values.calls);
const concurrency = Number(values.concurrency);
const latencyMs = Number(values.latency);
const TARGET = 1.1;

const items = Array.from({ length: calls }, (_, i) => ({ id: `b${i}`, question: `Bench question ${i}?`, answer: i }));
const server = await startFakeServer({ latencyMs, scenario: { items, agent: { baseAccuracy: 0.7 } } });
const roles: RoleConfig = { default: { baseURL: server.url, model: 'sim-agent', apiKey: 'bench' } };
for (const role of ROLES) if (role !== 'agent') roles[role] = { model: `sim-${role}` };
const llm = createLlmClient({
  transport: new OpenAiTransport({ roles }),
  roles,
  concurrency,
  timeoutMs: 30_000,
  retry: { ...DEFAULT_RETRY, maxFailures: 3, baseDelayMs: 100, maxDelayMs: 1000 },
  clock: new SystemClock(),
  random: new SeededRandom(1),
});

// Warm-up: opens the keep-alive connections and JIT-compiles the path, as a real run would have.
await Promise.all(Array.from({ length: concurrency }, (_, i) => llm.chat({ role: 'agent', messages: [{ role: 'user', content: `warm-up ${i}` }] })));
server.resetStats();

const started = performance.now();
await Promise.all(
  items.map((it, i) =>
    llm.chat({
      role: ROLES[i % ROLES.length]!,
      messages: [
        { role: 'system', content: 'Answer.' },
        { role: 'user', content: it.question },
      ],
    }),
  ),
);
const measured = (performance.now() - started) / 1000;
const ideal = (calls * latencyMs) / 1000 / concurrency;
const ratio = measured / ideal;
const maxInFlight = server.maxInFlight;
const served = server.calls.length;
await server.close();

const rows: [string, string][] = [
  ['calls', String(calls)],
  ['concurrency', String(concurrency)],
  ['server latency', `${latencyMs} ms`],
  ['measured', `${measured.toFixed(2)} s`],
  ['ideal (calls × latency / concurrency)', `${ideal.toFixed(2)} s`],
  ['measured / ideal', `${ratio.toFixed(3)} (target ≤ ${TARGET.toFixed(2)})`],
  ['requests served / max in flight', `${served} / ${maxInFlight}`],
  ['paid calls counted by the layer', String(llm.totalCalls() - concurrency)],
];
const width = Math.max(...rows.map(([k]) => k.length));
console.log('LLM layer throughput: core layer → OpenAiTransport → openai SDK → HTTP → fake server');
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
console.log(ratio <= TARGET ? 'PASS' : 'FAIL');
process.exitCode = ratio <= TARGET ? 0 : 1;
