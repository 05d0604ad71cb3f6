/**
 * The evaluation sandbox as the engine sees it: a port, like ProcessRunner in src/core/ports.ts,
 * so code search stays pure and tests can pass a fake. src/node/sandbox/sandbox.ts implements it. Kept
 * apart from evaluation.ts, which says what an evaluator's outputs mean; this file says what one
 * run of an evaluator is asked and answers.
 */
import type { Evaluation } from './evaluation';
import type { IsolationSetting, IsolationTier } from './isolation';

export interface SandboxLimits {
  /** RLIMIT_AS of each process. Node needs about 2 GiB of address space just to start (V8 reserves its heap cage). */
  addressSpaceBytes: number;
  /** Memory of the whole evaluation: a memory cgroup's limit, else its processes' resident memory, summed and watched. */
  memoryBytes: number;
  /** What the evaluation may write in its sandbox, all files together. */
  diskBytes: number;
  /** RLIMIT_CPU: SIGXCPU at the limit, SIGKILL a second later. */
  cpuSeconds: number;
  /** RLIMIT_FSIZE: the largest file the evaluator may write (SIGXFSZ past it). */
  fileSizeBytes: number;
  /** RLIMIT_NOFILE. */
  openFiles: number;
  /** Processes and threads of the whole evaluation (a pids cgroup's pids.max, a user namespace's RLIMIT_NPROC, or the watch). */
  processes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  addressSpaceBytes: 4 * 1024 ** 3,
  memoryBytes: 4 * 1024 ** 3,
  diskBytes: 1024 ** 3,
  cpuSeconds: 600,
  fileSizeBytes: 256 * 1024 ** 2,
  openFiles: 1024,
  processes: 256,
};

export const DEFAULT_OUTPUT_CAP_BYTES = 1024 * 1024;
export const DEFAULT_GRACE_MS = 2000;

export interface SupportFile {
  /** Absolute path of a file or directory in the workspace. */
  from: string;
  /** Relative path inside the sandbox. */
  to: string;
}

interface EvaluationRequestBase {
  programText: string;
  /** The candidate's file name in the sandbox, e.g. `main.py`; a relative path without `..`. */
  programName: string;
  supportFiles?: SupportFile[];
  /** Instance ids for a sharded run: written one per line to the file `{instances}` names. */
  instances?: string[];
  timeoutMs: number;
  /** SIGTERM → SIGKILL delay. Default 2 s. */
  graceMs?: number;
  limits?: Partial<SandboxLimits>;
  /** Bytes kept of each of stdout and stderr. Default 1 MiB. */
  outputCapBytes?: number;
  /** Names of variables of Ratchet's environment the spec lets through (never a secret's: see isSecretName). */
  env?: string[];
  /** Default 'off' (when the platform allows). */
  network?: 'off' | 'on';
  /** Default 'best': the strongest isolation the machine offers; 'required' refuses (badInput) without a jail. */
  isolation?: IsolationSetting;
  /** Cancels the evaluation: the group is killed and the run says `cancelled`. */
  signal?: AbortSignal;
  /** Values that must never reach the evaluator (the API key from SecretStorage, the roles' keys). */
  secrets?: string[];
}

export type EvaluationRequest = EvaluationRequestBase &
  (
    | { /** Ratchet's form: a command line with {program} {results} {instances}. */ command: string; shinka?: undefined }
    | { /** ShinkaEvolve's form: `python3 <taskDir>/evaluate.py --program_path P --results_dir R`. */ shinka: { taskDir: string; python?: string }; command?: undefined }
  );

export interface EvaluationRun {
  /** The evaluation; `correct` is false for any failed run, with the reason in `error`. */
  result: Evaluation;
  stdout: string;
  stderr: string;
  truncated: { stdout: boolean; stderr: boolean };
  /** Bytes read and not kept, per stream. */
  droppedBytes: { stdout: number; stderr: number };
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  wallMs: number;
  sandbox: SandboxReport;
}

/** How this run was confined, in words: each guarantee the platform could not give says why. */
export interface SandboxReport {
  /** The isolation this evaluation had (src/core/code/isolation.ts says what each tier means). */
  isolation: IsolationTier;
  /** 'off', 'on', or 'on (…why)'. */
  network: string;
  /** 'prlimit' or 'none (…)'. */
  limits: string;
  /** How the process count is capped: 'cgroup pids.max=N', 'user namespace nproc=N', 'watch: …' or 'none (…)'. */
  processes: string;
  /** How the whole evaluation's memory is capped. */
  memory: string;
  /** How its disk is capped. */
  disk: string;
  /** The process cap refused a fork or stopped the evaluation. */
  processLimitHit: boolean;
  /** Processes of the evaluation still alive after every kill; 0 unless something is very wrong. */
  leftoverProcesses: number;
  /** What happened that the user should know, in words: limits hit, processes left, late writes, escapes tried. */
  incidents: string[];
}

/** What the sandbox can do on this machine, in words a pre-flight check shows. */
export interface Preflight {
  /** The tier evaluations get for the setting asked about. */
  isolation: IsolationTier;
  /** bubblewrap's version and path, or why there is none. */
  jail: string;
  limits: string;
  processes: string;
  memory: string;
  disk: string;
  network: string;
  python3: string;
  /** What a dead Ratchet process left and this start swept, in words; absent when nothing. */
  swept?: string;
  /** What the sandbox does not guarantee here. */
  caveats: string[];
}

export interface EvaluationSandbox {
  /** Rejects only for a request that can never run (badInput, and `isolation: required` without a jail); a failing program is `result.correct === false`. */
  run(req: EvaluationRequest): Promise<EvaluationRun>;
  /** Throws like `run` for `required` without a jail. */
  preflight(isolation?: IsolationSetting): Promise<Preflight>;
}

/**
 * Names that hold credentials by convention (`*_API_KEY`, `*_TOKEN`, `*_SECRET*`, `*PASSWORD`, …)
 * and every `OPENAI_*` / `AZURE_OPENAI_*` / `ANTHROPIC_*` (the provider's settings travel with its
 * key): never passed to an evaluator, even when a spec lists them. Exported so a spec validator
 * can refuse them where they are written. Other tools' settings (HF_HOME, OMP_NUM_THREADS) pass.
 */
const SECRET_NAME = /(^|_)(API_?KEY|ACCESS_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_?KEY)S?(_|$)|^(OPENAI|AZURE_OPENAI|ANTHROPIC)_/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}
