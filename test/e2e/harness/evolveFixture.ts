/**
 * What a spec that evolves needs besides VS Code: the fake OpenAI-compatible server (started in
 * the spec's own process on 127.0.0.1 — code-server's extension host and Ratchet's language server
 * reach it there), and the integration tests' arithmetic workspace (a prompt, its sidecar run spec
 * naming the sim-* models, a dataset the simulated agent answers) copied into the session's folder.
 * The scenario is the controlled one: one scripted edit is a real gain, the others only churn.
 */
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScenarioInput } from '../../fixtures/fakeOpenAI/scenario';
import { startFakeServer, type FakeServer } from '../../fixtures/fakeOpenAI/server';
import { makeWorkspace, scenarioFor, type WorkspaceOptions } from '../../integration/evolveWorkspace';

export interface EvolveFixtureOptions extends Pick<WorkspaceOptions, 'mode' | 'candidates' | 'seed' | 'items' | 'gate' | 'gateLines' | 'labels'> {
  /** The folder under the workspace root that receives the files (default `arith`). */
  subdir?: string;
  /** Which scripted edit (1-based) is the real gain; 1 makes the gate commit on the first candidate. */
  gainAt?: number;
  /** Delay before every answer of the fake server, for specs that act while a run is in flight. */
  latencyMs?: number;
  /** A line of the prompt the gain edit rewrites (its marker and hint in that line's place) instead of appending. */
  gainReplaces?: string;
  /** Changes to the controlled scenario (a judge that does not answer, realistic answers…). */
  scenario?: (base: ScenarioInput) => ScenarioInput;
}

export interface EvolveFixture {
  readonly fake: FakeServer;
  /** The folder's name under the workspace root. */
  readonly subdir: string;
  /** The prompt file, relative to the workspace root (what Quick Open is given). */
  readonly promptRelative: string;
  /** The run spec, relative to the workspace root. */
  readonly specRelative: string;
  /** Only the first line the proposer's edit `n` adds: `Hint n: read the question twice.` */
  hint(n: number): string;
  /**
   * The user setting that points Ratchet's endpoint at the fake server (`openSession({ userSettings })`).
   * It must stay window-scoped: code-server windows are remote windows, which ignore a `machine` or
   * `machine-overridable` setting from the user's settings file.
   */
  readonly userSettings: Record<string, unknown>;
  /** Copies the workspace into a session's folder (pass as `openSession({ populate })`). */
  populate(folder: string): Promise<void>;
  close(): Promise<void>;
}

export async function startEvolveFixture(opts: EvolveFixtureOptions = {}): Promise<EvolveFixture> {
  const seed = opts.seed ?? 3;
  const subdir = opts.subdir ?? 'arith';
  const workspace = makeWorkspace({
    seed,
    mode: opts.mode ?? 'suggest',
    candidates: opts.candidates ?? 3,
    items: opts.items,
    ...(opts.gate !== undefined ? { gate: opts.gate } : {}),
    ...(opts.gateLines !== undefined ? { gateLines: opts.gateLines } : {}),
    ...(opts.labels !== undefined ? { labels: opts.labels } : {}),
  });
  const base = scenarioFor(workspace, { seed, gainAt: opts.gainAt ?? 1, ...(opts.gainReplaces !== undefined ? { gainReplaces: opts.gainReplaces } : {}) });
  const fake = await startFakeServer({ scenario: opts.scenario ? opts.scenario(base) : base, latencyMs: opts.latencyMs ?? 0 });
  return {
    fake,
    subdir,
    promptRelative: `${subdir}/task.prompt.md`,
    specRelative: `${subdir}/task.ratchet.yaml`,
    hint: (n) => `Hint ${n}: read the question twice.`,
    // Not a workspace setting: in an untrusted workspace Ratchet ignores those (they could redirect the API key).
    userSettings: { 'ratchet.endpoint.baseUrl': fake.url },
    async populate(folder) {
      await cp(workspace.dir, join(folder, subdir), { recursive: true });
    },
    async close() {
      await fake.close();
      await rm(workspace.dir, { recursive: true, force: true });
    },
  };
}
