// Secrets outside the Authorization header, through the built CLI against the fake endpoint: a key
// written into the base URL (Azure's `?api-key=`) is sent, and found nowhere a run writes (its
// journal, run.json, the response cache, stdout, stderr), whether the run succeeds, waits out rate
// limits or fails; a `user:pw@` URL is refused before any call with the password blanked; a
// rejected key's advice names the variable it came from; a command scorer never sees the key.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../fixtures/fakeOpenAI/server';
import { CLI, journal, runCli, runIds } from './evolveCli';
import { makeWorkspace, scenarioFor } from './evolveWorkspace';

beforeAll(() => {
  if (!existsSync(CLI)) execSync('npm run build', { stdio: 'inherit' });
});

const SEED = 3;
const SECRET = 'URLKEY-7f3a9c2e5b1d';
const small = () => makeWorkspace({ seed: SEED, items: 50, candidates: 2, split: { feedback: 10, dev: 30, test: 10 } });

/** Every file under `dir` with its text, recursively. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((rel) => join(dir, rel))
    .filter((p) => statSync(p).isFile())
    .map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}

describe('a key in the base URL', () => {
  it('is sent, and nothing the runs write holds it: journal, run.json, cache, stdout and stderr, through waits, a failure and a refused resume', async () => {
    const w = small();
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED, gainAt: 1 }) });
    try {
      const url = `${server.url}?api-version=2024-10-21&api-key=${SECRET}`;
      // A run that waits out rate limits (each wait's message names the endpoint), printing every event with --json.
      server.inject({ kind: 'status', status: 429, retryAfterMs: 1, rate: 0.2, times: Infinity, seed: SEED });
      const ok = await runCli(['evolve', w.promptPath, '--base-url', url, '-w', w.dir, '--json']);
      const [runId] = runIds(w.dir);
      expect(journal(w.dir, runId!).at(-1)?.type, ok.stderr).toBe('run/finished');
      expect(ok.stdout).toMatch(/answered 429/);
      expect(server.calls.filter((c) => c.status === 200).length).toBeGreaterThan(10);

      // A run the endpoint fails (another seed: the first run's answers are cached): its error names the endpoint.
      server.clearFaults();
      server.inject({ kind: 'status', status: 400, times: Infinity, message: 'bad parameter' });
      const failed = await runCli(['evolve', w.promptPath, '--base-url', url, '-w', w.dir, '--seed', '99']);
      expect(failed.code).toBe(2);
      expect(failed.stderr).toContain(`The endpoint ${server.url}?api-version=2024-10-21&api-key=[redacted] answered 400`);

      // run.json keeps the URL with the key blanked, so a resume asks for it instead of sending "[redacted]".
      const calls = server.calls.length;
      const resumed = await runCli(['runs', 'resume', runId!, '-w', w.dir]);
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toContain('had credentials that Ratchet does not write down: pass the full URL again with --base-url.');
      expect(server.calls.length).toBe(calls);

      const written = filesUnder(join(w.dir, '.ratchet'));
      expect(written.filter((f) => f.path.includes(`${join('cache', 'llm')}`)).length).toBeGreaterThan(10);
      expect(written.find((f) => f.path.endsWith(join(runId!, 'run.json')))?.text).toContain('api-key=[redacted]');
      const leaks = [
        ...written,
        ...[ok, failed, resumed].flatMap((r, i) => [
          { path: `stdout ${i}`, text: r.stdout },
          { path: `stderr ${i}`, text: r.stderr },
        ]),
      ]
        .filter((f) => f.text.includes(SECRET))
        .map((f) => f.path);
      expect(leaks).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a user name and password in the base URL', () => {
  it('is refused before any call or run folder, naming the flag, the password blanked', async () => {
    const w = small();
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED }) });
    try {
      const url = server.url.replace('http://', `http://bob:${SECRET}@`);
      const r = await runCli(['evolve', w.promptPath, '--base-url', url, '-w', w.dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `ratchet: The base URL from --base-url, "${server.url.replace('http://', 'http://[redacted]@')}", has a user name or password in it, which the OpenAI client cannot send (fetch refuses such URLs): remove it from the URL and give the key as the API key instead (OPENAI_API_KEY or models.agent.apiKeyEnv).\n`,
      );
      expect(server.calls).toEqual([]);
      expect(runIds(w.dir)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a rejected key', () => {
  it('is explained by the variable the role’s apiKeyEnv names, not OPENAI_API_KEY', async () => {
    const w = makeWorkspace({ seed: SEED, items: 50, candidates: 2, split: { feedback: 10, dev: 30, test: 10 }, modelExtra: 'apiKeyEnv: RATCHET_TEST_KEY' });
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED }), apiKey: 'the-right-key' });
    try {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir], { RATCHET_TEST_KEY: 'a-wrong-key-0123456789' });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/answered 401 Unauthorized: check the API key, which came from RATCHET_TEST_KEY \(models\.\w+\.apiKeyEnv\)\.\n/);
      expect(r.stderr).not.toContain('a-wrong-key');

      // No key at all: where to set one.
      const keyless = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir], { RATCHET_TEST_KEY: '', OPENAI_API_KEY: '' });
      expect(keyless.stderr).toMatch(/answered 401 Unauthorized: no API key was sent; set one in RATCHET_TEST_KEY \(models\.\w+\.apiKeyEnv\)\.\n/);
    } finally {
      await server.close();
    }
  });
});

describe('a command scorer', () => {
  it('runs without OPENAI_API_KEY or the rest of the CLI’s environment, with the variables its passEnv names', async () => {
    const w = small();
    const seenFile = join(w.dir, 'seen.jsonl');
    writeFileSync(join(w.dir, 'score.cjs'), `require('node:fs').appendFileSync(${JSON.stringify(seenFile)}, JSON.stringify(Object.keys(process.env)) + '\\n'); console.log(1);\n`);
    const spec = join(w.dir, 'task.ratchet.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('scorer:\n  type: numeric', `scorer: { type: command, command: '"${process.execPath}" score.cjs', passEnv: [SCORER_SETTING] }`));
    const server = await startFakeServer({ scenario: scenarioFor(w, { seed: SEED }) });
    try {
      const r = await runCli(['evolve', w.promptPath, '--base-url', server.url, '-w', w.dir, '--budget-calls', '40'], { OPENAI_API_KEY: SECRET, SCORER_SETTING: 'on', UNRELATED_SETTING: 'x' });
      const seen = readFileSync(seenFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[]);
      expect(seen.length, r.stderr).toBeGreaterThan(5);
      for (const names of seen) {
        expect(names).toContain('SCORER_SETTING');
        expect(names).toContain('RATCHET_ITEM');
        expect(names).not.toContain('OPENAI_API_KEY');
        expect(names).not.toContain('UNRELATED_SETTING');
      }
    } finally {
      await server.close();
    }
  });
});
