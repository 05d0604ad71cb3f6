/**
 * The shipped examples/math folder, copied as it is into a session's workspace, and the fake
 * OpenAI-compatible server playing one model — `llama3.1` — for every role, as a user's single
 * local model does when only `ratchet.endpoint.baseUrl` and `ratchet.models.default` are set.
 * The scenario knows the example's problems (so the simulated agent answers them), and its
 * proposer's first edit is a clear gain (the gate commits it), the rest change nothing.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import type { ScriptedEdit } from '../../fixtures/fakeOpenAI/scenario';
import { examplesDir } from './paths';

const EXAMPLE = join(examplesDir, 'math');

export interface MathExampleFixture {
  readonly fake: FakeServer;
  /** The model the user configured: the one id the fake serves for every role. */
  readonly model: string;
  readonly promptRelative: string;
  /** Only the endpoint and the default model, as a new user sets them after the README. */
  readonly userSettings: Record<string, unknown>;
  populate(folder: string): Promise<void>;
  close(): Promise<void>;
}

export async function startMathExampleFixture(): Promise<MathExampleFixture> {
  const model = 'llama3.1';
  const lines = (await readFile(join(EXAMPLE, 'data', 'problems.jsonl'), 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const items = lines.map((l) => JSON.parse(l) as { id: string; question: string; answer: number });
  const edits: ScriptedEdit[] = Array.from({ length: 25 }, (_, i) => ({
    id: String(i + 1),
    text: `Hint ${i + 1}: write each quantity down before adding.`,
    effect: i === 0 ? { kind: 'gain', delta: 0.35 } : { kind: 'neutral', churn: 0 },
  }));
  const fake = await startFakeServer({
    scenario: { seed: 0, items, generalists: [model], agent: { baseAccuracy: 0.55, noise: 0 }, proposer: { edits } },
    latencyMs: 0,
  });
  return {
    fake,
    model,
    promptRelative: 'math/word-problems.prompt.md',
    userSettings: { 'ratchet.endpoint.baseUrl': fake.url, 'ratchet.models.default': model },
    async populate(folder) {
      await cp(EXAMPLE, join(folder, 'math'), { recursive: true, filter: (src) => !src.includes('.ratchet/') && !src.endsWith('.ratchet') });
    },
    async close() {
      await fake.close();
    },
  };
}
