/**
 * One evaluation as the search asks for it and as the sandbox runs it, written once for both
 * backends: the local one (searchRun.ts calls the sandbox in this process) and Slurm's (each array
 * task calls the same sandbox on a node, slurm/taskMain.ts, from the setup the submitting process
 * wrote down). The setup is plain data, so it can travel in a file: the same sandbox rules apply
 * wherever the evaluation runs.
 */
import { basename } from 'node:path';
import type { EvaluationRequest, EvaluationRun, SandboxLimits } from '../../core/code/evaluatorPort';
import { commandUsesInstances } from '../../core/code/evaluation';
import type { EvaluationIsolation, IsolationSetting } from '../../core/code/isolation';
import type { ProgramEvaluation } from '../../core/code/search';
import type { EvaluatorSpec } from '../../core/code/spec';
import { redactKnown } from '../../core/redact';

/** An evaluation as the sandbox made it: the search's fields, and how it was confined (the journal and the Programs view say it). */
export type SandboxedEvaluation = ProgramEvaluation & {
  isolation?: EvaluationIsolation;
  incidents?: string[];
};

/** The least address space a process of an evaluation gets, whatever memoryMb says. */
const MIN_ADDRESS_SPACE_MB = 4096;

/** Everything a sandboxed evaluation needs but the program and its instances. */
export interface EvaluatorSetup {
  programName: string;
  supportFiles: { from: string; to: string }[];
  timeoutMs: number;
  limits: Partial<SandboxLimits>;
  env: string[];
  network: 'off' | 'on';
  /** Absent in a batch file written by a Ratchet from before it: 'best'. */
  isolation?: IsolationSetting;
  command?: string;
  /** ShinkaEvolve's form: the task folder holding evaluate.py. */
  shinkaDir?: string;
}

export function evaluatorSetup(e: EvaluatorSpec, programPath: string, shinkaDir: string | undefined): EvaluatorSetup {
  return {
    programName: basename(programPath),
    supportFiles: e.supportFiles.map((from) => ({ from, to: basename(from) })),
    timeoutMs: e.timeoutSeconds * 1000,
    limits: {
      // The whole evaluation's memory is the cap; each process's address space only a backstop, never
      // below what a runtime reserves to start (V8 reserves gigabytes it never touches).
      addressSpaceBytes: Math.max(e.limits.memoryMb, MIN_ADDRESS_SPACE_MB) * 1024 ** 2,
      memoryBytes: e.limits.memoryMb * 1024 ** 2,
      // A spec stored before diskMb existed (a resumed run) keeps the default.
      ...(e.limits.diskMb === undefined ? {} : { diskBytes: e.limits.diskMb * 1024 ** 2 }),
      ...(e.limits.cpuSeconds === undefined ? {} : { cpuSeconds: e.limits.cpuSeconds }),
      fileSizeBytes: e.limits.fileSizeMb * 1024 ** 2,
      openFiles: e.limits.openFiles,
      processes: e.limits.processes,
    },
    env: e.env,
    network: e.network,
    isolation: e.isolation ?? 'best',
    ...(shinkaDir === undefined ? { command: e.command! } : { shinkaDir }),
  };
}

/** The sandbox request for one evaluation of `text` on `ids` (undefined: every instance). */
export function evaluationRequest(setup: EvaluatorSetup, text: string, ids: readonly string[] | undefined, signal: AbortSignal | undefined, secrets: string[]): EvaluationRequest {
  return {
    programText: text,
    programName: setup.programName,
    supportFiles: setup.supportFiles,
    // A command reading {instances} gets a file either way; an empty one means every instance.
    ...(ids ? { instances: [...ids] } : setup.shinkaDir === undefined && commandUsesInstances(setup.command!) ? { instances: [] } : {}),
    timeoutMs: setup.timeoutMs,
    limits: setup.limits,
    env: setup.env,
    network: setup.network,
    isolation: setup.isolation ?? 'best',
    ...(signal ? { signal } : {}),
    secrets,
    ...(setup.shinkaDir === undefined ? { command: setup.command! } : { shinka: { taskDir: setup.shinkaDir } }),
  };
}

/**
 * What the search reads of a sandbox run, with every secret Ratchet knows blanked from what the
 * program could have written into it: this is what is journaled, cached, printed and shown to the
 * proposer (fix mode shows a broken program's output).
 */
export function programEvaluation(run: EvaluationRun, secrets: readonly string[]): SandboxedEvaluation {
  const r = run.result;
  const output = r.correct ? undefined : outputTail(run.stderr, run.stdout);
  return redactEvaluation(
    {
      correct: r.correct,
      ...(r.score === undefined ? {} : { score: r.score }),
      ...(r.instances === undefined ? {} : { instances: r.instances }),
      ...(r.public === undefined ? {} : { publicMetrics: r.public as Record<string, string | number | boolean | null> }),
      ...(r.feedback === undefined ? {} : { feedback: r.feedback }),
      ...(r.error === undefined ? {} : { error: r.error }),
      ...(output === undefined ? {} : { output }),
      // The network the spec asked for: 'on', or off (enforced, or not where the report says why).
      isolation: { tier: run.sandbox.isolation, network: run.sandbox.network === 'on' ? 'on' : 'off' },
      ...(run.sandbox.incidents.length > 0 ? { incidents: run.sandbox.incidents } : {}),
    },
    secrets,
  );
}

/** An evaluation's texts with every known secret blanked (a Slurm task's, read back by the process that knows the keys, too). */
export function redactEvaluation<E extends ProgramEvaluation>(e: E, secrets: readonly string[]): E {
  const clean = (text: string): string => redactKnown(text, secrets);
  return {
    ...e,
    ...(e.publicMetrics === undefined ? {} : { publicMetrics: cleanMetrics(e.publicMetrics, clean) }),
    ...(e.feedback === undefined ? {} : { feedback: clean(e.feedback) }),
    ...(e.error === undefined ? {} : { error: clean(e.error) }),
    ...(e.output === undefined ? {} : { output: clean(e.output) }),
  };
}

/** Public metrics with every string in them cleaned, at any depth (a metric could carry a key the program found). */
function cleanMetrics(metrics: Record<string, unknown>, clean: (text: string) => string): Record<string, string | number | boolean | null> {
  const deep = (v: unknown): unknown => {
    if (typeof v === 'string') return clean(v);
    if (Array.isArray(v)) return v.map(deep);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [clean(k), deep(x)]));
    return v;
  };
  return deep(metrics) as Record<string, string | number | boolean | null>;
}

/** What fix mode shows of a broken program's output: the last lines of stderr, then of stdout, within a few KiB. */
const FIX_OUTPUT_CHARS = 4000;
export function outputTail(stderr: string, stdout: string): string | undefined {
  const parts = [stderr.trim() && `stderr:\n${stderr.trim()}`, stdout.trim() && `stdout:\n${stdout.trim()}`].filter((x) => x);
  if (parts.length === 0) return undefined;
  const tail = (text: string, n: number) => (text.length <= n ? text : `…${text.slice(text.length - n)}`);
  return parts.map((p) => tail(p, FIX_OUTPUT_CHARS / parts.length)).join('\n');
}
