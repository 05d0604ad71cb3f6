// Dollars that count, through the built CLI against the fake OpenAI-compatible server: a run whose
// models have a price journals its dollars and `runs show` prints them; the estimate is the first
// thing `ratchet evolve` says; a dollar budget over an unpriced model fails before any request.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import type { EngineEvent, EventOf } from '../../src/core/journal/events';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

/** The workspace's spec with a dollar budget and, where given, a price for a role's sim model. */
function withDollars(specPath: string, dollars: number, prices: Partial<Record<'agent' | 'proposer', string>>): void {
  let text = readFileSync(specPath, 'utf8').replace('budget:\n', `budget:\n  dollars: ${dollars}\n`);
  if (prices.agent) text = text.replace('  agent: { model: sim-agent, temperature: 0 }', `  agent: { model: sim-agent, temperature: 0, price: ${prices.agent} }`);
  if (prices.proposer) text = text.replace('  proposer: { model: sim-proposer }', `  proposer: { model: sim-proposer, price: ${prices.proposer} }`);
  writeFileSync(specPath, text);
}

describe('budget.dollars with priced models', () => {
  it('says the models first and the estimate next, journals dollars in every cost/update, and runs show prints them', async () => {
    const ws = makeWorkspace({ candidates: 2, seed: 3 });
    const spec = join(ws.dir, 'task.ratchet.yaml');
    withDollars(spec, 5, { agent: '{ input: 1, output: 2 }', proposer: '{ input: 3, output: 4, cachedInput: 0.3 }' });
    const server = await startFakeServer({ scenario: scenarioFor(ws, { seed: 3 }) });
    try {
      const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
      expect(r.stderr.split('\n')[0]).toMatch(/^models: /);
      expect(r.stderr.split('\n')[1]).toMatch(/^estimate: ≈ \d+ calls, ≈ [\d.]+k? tok, ≈ \$\d+\.\d+ \(an upper estimate\)$/);
      const [id] = runIds(ws.dir);
      const events = journal(ws.dir, id!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');

      const started = events[0] as EventOf<'run/started'>;
      expect(started.type).toBe('run/started');
      expect(started.info.budget?.dollars).toBe(5);
      expect(started.info.estimate).toMatchObject({ calls: expect.any(Number), dollars: expect.any(Number) });
      expect(started.info.estimate!.calls).toBeGreaterThanOrEqual(server.calls.length);

      const updates = events.filter((e): e is EventOf<'cost/update'> => e.type === 'cost/update');
      expect(updates.length).toBeGreaterThan(0);
      const last = updates.at(-1)!.cost;
      expect(last.agent.calls).toBeGreaterThan(0);
      // What the meter counted is what the spec's prices say of the tokens the endpoint reported.
      expect(last.agent.dollars).toBeCloseTo((last.agent.promptTokens * 1 + last.agent.completionTokens * 2) / 1e6, 12);
      expect(last.proposer.dollars).toBeCloseTo((last.proposer.promptTokens * 3 + last.proposer.completionTokens * 4) / 1e6, 12);
      for (const u of updates) for (const role of Object.values(u.cost)) expect(role.dollars).toEqual(expect.any(Number));

      const show = await runCli(['runs', 'show', id!, '-w', ws.dir]);
      const total = last.agent.dollars! + last.proposer.dollars!;
      expect(show.stdout).toContain(`cost $${total.toFixed(4)}`);
      expect(show.stdout).toMatch(/run\/started\s+evolve .* · estimate ≈ \d+ calls, ≈ [\d.]+k? tok, ≈ \$\d+\.\d{4}/);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('budget.dollars with an unpriced model', () => {
  it('fails before any request reaches the endpoint, naming the role, the model and the fix at its spec line', async () => {
    const ws = makeWorkspace({ candidates: 2, seed: 4 });
    const spec = join(ws.dir, 'task.ratchet.yaml');
    withDollars(spec, 1, { proposer: '{ input: 3, output: 4 }' });
    const server = await startFakeServer({ scenario: scenarioFor(ws, { seed: 4 }) });
    try {
      const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
      expect(r.code).toBe(2);
      const agentLine =
        readFileSync(spec, 'utf8')
          .split('\n')
          .findIndex((l) => l.startsWith('  agent:')) + 1;
      expect(r.stderr).toContain(`${spec}:${agentLine}:10: budget.dollars is $1, but the agent role's model sim-agent has no known price`);
      expect(r.stderr).toContain('add models.agent.price: { input: …, output: … } (USD per million tokens), or models.agent.free: true');
      expect(server.calls.length).toBe(0);
      expect(runIds(ws.dir)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('runs when the model is declared free, counting it $0', async () => {
    const ws = makeWorkspace({ candidates: 1, seed: 5 });
    const spec = join(ws.dir, 'task.ratchet.yaml');
    withDollars(spec, 1, { proposer: '{ input: 3, output: 4 }' });
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('  agent: { model: sim-agent, temperature: 0 }', '  agent: { model: sim-agent, temperature: 0, free: true }'));
    const server = await startFakeServer({ scenario: scenarioFor(ws, { seed: 5 }) });
    try {
      const r = await runCli(['evolve', ws.promptPath, '--base-url', server.url, '-w', ws.dir]);
      const events: EngineEvent[] = journal(ws.dir, runIds(ws.dir)[0]!);
      expect(events.at(-1)?.type, r.stderr).toBe('run/finished');
      const last = events.filter((e): e is EventOf<'cost/update'> => e.type === 'cost/update').at(-1)!.cost;
      expect([last.agent.calls > 0, last.agent.dollars]).toEqual([true, 0]);
      expect(last.proposer.dollars).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  }, 60_000);
});
