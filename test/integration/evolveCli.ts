// Runs the built CLI's `evolve` against a fake server and reads back what it journaled.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineEvent } from '../../src/core/journal/events';

export const CLI = resolve(__dirname, '../../out/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `cwd`: the folder the CLI runs in, as a user's shell would be (default: this process's). */
export function startCli(args: string[], env: Record<string, string> = {}, cwd?: string): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, OPENAI_API_KEY: 'test-key', ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((res) => child.on('close', (code) => res({ code, stdout, stderr })));
  return { child, done };
}

export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  return startCli(args, env, cwd).done;
}

export function runIds(workspace: string): string[] {
  try {
    return readdirSync(join(workspace, '.ratchet', 'runs')).sort();
  } catch {
    return [];
  }
}

export function journal(workspace: string, runId: string): EngineEvent[] {
  const text = readFileSync(join(workspace, '.ratchet', 'runs', runId, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as EngineEvent);
}

/** The journal so far, or [] while it cannot be read yet (not created, or mid-write). */
export function journalSoFar(workspace: string, runId: string): EngineEvent[] {
  try {
    return journal(workspace, runId);
  } catch {
    return [];
  }
}

/**
 * Starts `ratchet <args>` (an evolve run in `workspace`) and kills it without warning once its
 * journal holds `decided` decisions. Resolves when the process is gone, with the run's id and the
 * time of the kill; rejects if the run finished first.
 */
export async function evolveThenKill(args: string[], workspace: string, decided = 2): Promise<{ runId: string; killAt: number }> {
  const { child, done } = startCli(args);
  let killAt = 0;
  await new Promise<void>((res, rej) => {
    const timer = setInterval(() => {
      const [id] = runIds(workspace);
      if (id && decisions(journalSoFar(workspace, id)).length >= decided) {
        killAt = Date.now();
        child.kill('SIGKILL');
        clearInterval(timer);
        res();
      }
    }, 20);
    void done.then(() => {
      clearInterval(timer);
      if (!killAt) rej(new Error('the run finished before it could be killed'));
    });
  });
  await done;
  return { runId: runIds(workspace)[0]!, killAt };
}

export function decisions(events: readonly EngineEvent[]) {
  return events.flatMap((e) => (e.type === 'decision' ? [{ candidate: e.record.candidateId, decision: e.record.decision, reason: e.record.reason }] : []));
}

/** Runs `jobs` with at most `width` at a time (the machine has two cores). */
export async function inBatches<T>(jobs: (() => Promise<T>)[], width = 4): Promise<T[]> {
  // A pool, not batches: the next job starts as soon as any one ends, so one slow job holds up no others.
  const out: T[] = new Array<T>(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return out;
}
