/**
 * The sandbox as a code search uses it: the evaluator's files staged once per run (their hash is
 * the evaluation cache's evaluator identity), each evaluation run on those copies, a change to
 * them caught after each evaluation, the run's keys known (never passed, blanked from what a
 * program printed), the pre-flight line that says how isolated the evaluations are, and each
 * program's record told how its evaluation was confined and what the sandbox saw.
 */
import { basename, dirname } from 'node:path';
import { RatchetError } from '../../core/errors';
import type { EvaluationIsolation } from '../../core/code/isolation';
import type { EvaluationSandbox } from '../../core/code/evaluatorPort';
import type { ProgramBatchEvaluator, ProgramEvaluator } from '../../core/code/search';
import { CODE_DEFAULTS } from '../../core/code/spec';
import type { CodeRunSpec } from '../../core/code/spec';
import { textHash } from '../../core/code/novelty';
import { ROLES } from '../../core/llm/types';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import type { EngineEvent } from '../../core/journal/events';
import type { EventPayload } from '../../core/journal/control';
import { nodeEvaluationSandbox } from '../sandbox/sandbox';
import { EvaluatorStage } from '../sandbox/staging';
import type { StageChange } from '../sandbox/staging';
import { evaluationRequest, evaluatorSetup, programEvaluation } from '../sandbox/sandboxEvaluation';
import type { EvaluatorSetup, SandboxedEvaluation } from '../sandbox/sandboxEvaluation';
import { runSecrets } from '../environSecrets';

/** Stages the evaluator's files of `spec` for a run (support files; a ShinkaEvolve task folder). */
export function stageEvaluator(spec: CodeRunSpec, programPath: string, shinkaDir: string | undefined, named: string[] = []): Promise<EvaluatorStage> {
  const e = spec.evaluator;
  return EvaluatorStage.create({
    supportFiles: e.supportFiles.map((from) => ({ from, to: basename(from) })),
    named,
    ...(shinkaDir === undefined ? {} : { shinkaTask: { dir: shinkaDir, program: programPath } }),
    // What changes an evaluation's outcome besides the files; absolute paths never (a moved workspace keeps its cache).
    settings: { command: e.command ?? null, program: basename(programPath), timeoutSeconds: e.timeoutSeconds, limits: e.limits, env: e.env, network: e.network, isolation: e.isolation },
  });
}

/** The sandbox setup of `spec`, on the staged copies. */
export function stagedSetup(spec: CodeRunSpec, programPath: string, stage: EvaluatorStage): EvaluatorSetup {
  const setup = evaluatorSetup(spec.evaluator, programPath, spec.evaluator.command === undefined ? stage.taskDir : undefined);
  return { ...setup, supportFiles: setup.supportFiles.map((f) => ({ from: stage.supportPath(f.to), to: f.to })) };
}

/** The engine's evaluator port over the sandbox, on a run's staged files. */
export function stagedEvaluator(spec: CodeRunSpec, programPath: string, stage: EvaluatorStage, secrets: string[], sandbox: EvaluationSandbox = nodeEvaluationSandbox, hidden: string[] = []): ProgramEvaluator {
  const setup = stagedSetup(spec, programPath, stage);
  return async (text, ids, signal) => {
    const run = await sandbox.run({ ...evaluationRequest(setup, text, ids, signal, secrets), ...(hidden.length > 0 ? { hidden } : {}) });
    signal.throwIfAborted();
    return programEvaluation(run, secrets);
  };
}

/**
 * The engine's evaluator port over the sandbox for one-off use (Test Evaluator, benches): each
 * call stages the evaluator's files, evaluates, and removes the stage. Another `EvaluationSandbox`
 * (one that times each run) can stand in.
 */
export function sandboxEvaluator(spec: CodeRunSpec, programPath: string, shinkaDir: string | undefined, endpoint: EndpointDefaults, sandbox: EvaluationSandbox = nodeEvaluationSandbox): ProgramEvaluator {
  const secrets = runSecrets(spec, endpoint);
  return async (text, ids, signal, repeat) => {
    const stage = await stageEvaluator(spec, programPath, shinkaDir);
    try {
      return await stagedEvaluator(spec, programPath, stage, secrets, sandbox, [dirname(programPath)])(text, ids, signal, repeat);
    } finally {
      await stage.dispose();
    }
  };
}

/**
 * `inner`, with the stage checked after each evaluation: a changed copy stops the run (its results
 * would mix two evaluators); a changed workspace original is told to `onWorkspaceChange` once.
 */
export function checkedStage(stage: EvaluatorStage, inner: ProgramEvaluator, onWorkspaceChange: (names: string[]) => void): ProgramEvaluator {
  return async (...args) => {
    const result = await inner(...args);
    report(await stage.check(), onWorkspaceChange);
    return result;
  };
}

function report(change: StageChange, onWorkspaceChange: (names: string[]) => void): void {
  if (change.changedInWorkspace.length > 0) onWorkspaceChange(change.changedInWorkspace);
  if (change.tampered.length > 0) {
    throw new RatchetError(
      'fileChanged',
      `The run's staged copy of ${change.tampered.join(', ')} changed during the run, which only a process outside Ratchet's control can do (an evaluation without a jail, or another program of yours); the run stops rather than mix results of two evaluators. Start a new run; evaluator.isolation: required keeps evaluations from reaching the stage.`,
      { files: change.tampered },
    );
  }
}

/** The variables this run's roles read their keys from (`apiKeyEnv`), whatever their names. */
export function keyVariableNames(spec: CodeRunSpec): string[] {
  return ROLES.flatMap((role) => (spec.models[role].apiKeyEnv ? [spec.models[role].apiKeyEnv!] : []));
}

/**
 * How each program's evaluations were confined, for its `program/evaluated` record: the
 * evaluations are seen as they come back (by program text), the candidates as they are proposed
 * (id → text), and a program's record gets its isolation and everything the sandbox said of any
 * of its evaluations.
 */
export class SandboxNotes {
  private readonly byText = new Map<string, { isolation?: EvaluationIsolation; incidents: string[] }>();
  private readonly textOf = new Map<string, string>();

  private note(text: string, r: SandboxedEvaluation): void {
    const key = textHash(text);
    const seen = this.byText.get(key) ?? { incidents: [] };
    if (r.isolation !== undefined) seen.isolation = r.isolation;
    for (const i of r.incidents ?? []) if (!seen.incidents.includes(i)) seen.incidents.push(i);
    this.byText.set(key, seen);
  }

  evaluator(inner: ProgramEvaluator): ProgramEvaluator {
    return async (text, ...rest) => {
      const r = await inner(text, ...rest);
      this.note(text, r);
      return r;
    };
  }

  batch(inner: ProgramBatchEvaluator): ProgramBatchEvaluator {
    return (text, shards, signal) =>
      inner(text, shards, signal).map((p) =>
        p.then((r) => {
          this.note(text, r);
          return r;
        }),
      );
  }

  /** Learns candidates' texts; adds the sandbox's notes to a program's record. */
  enrich(e: EngineEvent): EngineEvent {
    if (e.type === 'candidate/proposed') this.textOf.set(e.candidateId, textHash(e.text));
    if (e.type !== 'program/evaluated') return e;
    const key = this.textOf.get(e.candidateId);
    const seen = key === undefined ? undefined : this.byText.get(key);
    if (!seen) return e;
    return { ...e, ...(seen.isolation === undefined ? {} : { isolation: seen.isolation }), ...(seen.incidents.length === 0 ? {} : { incidents: seen.incidents }) };
  }
}

/**
 * The pre-flight's word on the sandbox, at the top of every search and of every resume: how
 * isolated the evaluations are on this machine, and what confines them. Written as it is, not
 * replayed (`sandbox/preflight` is incidental): a resume on another machine says what it gets there.
 */
export async function reportSandbox(spec: CodeRunSpec, stage: EvaluatorStage, emit: (e: EventPayload<EngineEvent>) => Promise<void>, write: (e: EventPayload<EngineEvent>) => Promise<void>): Promise<void> {
  const s = spec.evaluator.slurm;
  const isolation = spec.evaluator.isolation ?? CODE_DEFAULTS.evaluator.isolation;
  if (spec.evaluator.backend === 'slurm' && s) {
    const where = [s.partition && `partition ${s.partition}`, s.account && `account ${s.account}`, s.qos && `QoS ${s.qos}`].filter(Boolean).join(', ');
    await emit({
      type: 'log',
      level: 'info',
      message: `Evaluations run on Slurm${where ? ` (${where})` : ''}: one array job per program under test, a task per shard, each in the sandbox on its node, with the isolation that node offers (evaluator.isolation: ${isolation}; time ${s.time}, ${s.cpus} CPU, ${s.memoryMb} MB${s.gres ? `, gres ${s.gres}` : ''}).`,
    });
    return;
  }
  const pre = await nodeEvaluationSandbox.preflight(isolation);
  await write({
    type: 'sandbox/preflight',
    isolation: { tier: pre.isolation, network: spec.evaluator.network },
    setting: isolation,
    jail: pre.jail,
    limits: `processes: ${pre.processes}; memory: ${pre.memory}; disk: ${pre.disk}; per process: ${pre.limits}; the evaluator's files staged read-only for the run (identity ${stage.identity.slice(0, 12)})`,
    ...(pre.swept ? { swept: pre.swept } : {}),
    caveats: pre.caveats,
  });
}
