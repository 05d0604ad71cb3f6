/**
 * The evaluator's environment: an allow-list, never a copy of Ratchet's. ShinkaEvolve passes
 * `os.environ.copy()` and OpenEvolve loads the evaluator in-process, so evaluated code there can
 * read the provider key (OpenEvolve#481); code written by an LLM must not. What passes: PATH,
 * LANG/LANGUAGE/LC_*, TZ, the names the spec allows, and the sandbox's own variables (a temporary
 * HOME and TMPDIR, the program's path, the isolation it runs under). Never the results folder:
 * every process of the evaluation inherits the environment, and the results path goes to the
 * evaluator alone, as its {results} argument. A secret's name (isSecretName) or a
 * value equal to a secret Ratchet holds is refused with an error, not dropped in silence, so the
 * user learns that the spec asked for something it cannot have.
 */
import { RatchetError } from '../../core/errors';
import { isSecretName } from '../../core/code/evaluatorPort';
import type { IsolationTier } from '../../core/code/isolation';

/** The system's basics every child process Ratchet starts gets: the search path, the locale, the time zone. */
const PASSED = /^(PATH|LANG|LANGUAGE|TZ|LC_[A-Z_]+)$/;
/**
 * What a program the user wrote (a command scorer) gets on top of the basics: it runs in the
 * user's folders, not a sandbox, so it keeps their home and temporary folder, and on Windows what
 * programs need to start. Compared case-insensitively: Windows spells PATH `Path`.
 */
const USER_PROGRAM = new Set(['HOME', 'USER', 'LOGNAME', 'TMPDIR', 'TMP', 'TEMP', 'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA']);
/** Set by the sandbox; a spec cannot override them. */
const OWN = new Set(['PWD', 'HOME', 'TMPDIR', 'TMP', 'TEMP', 'RATCHET_PROGRAM', 'RATCHET_RESULTS', 'RATCHET_INSTANCES', 'RATCHET_ISOLATION', 'RATCHET_EVALUATION', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'PYTHONIOENCODING']);
/** Shorter values are too likely to occur by chance to be matched as secrets. */
const MIN_SECRET_LENGTH = 8;

/**
 * The environment of a program the user wrote: the basics and USER_PROGRAM from `base`, the
 * variables `passEnv` names (the user asked for them, secrets included), then `set` on top.
 * Never a copy of `base`, which holds OPENAI_API_KEY and the keys roles name.
 */
export function userProgramEnv(base: Record<string, string | undefined>, passEnv: readonly string[], set: Record<string, string>): Record<string, string> {
  const named = new Set(passEnv);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && (PASSED.test(name.toUpperCase()) || USER_PROGRAM.has(name.toUpperCase()) || named.has(name))) env[name] = value;
  }
  return Object.assign(env, set);
}

/** The evaluation's own variables: its folders as the evaluator sees them, and what it runs under. */
export interface SandboxPaths {
  work: string;
  home: string;
  tmp: string;
  program: string;
  instancesFile: string | undefined;
  /**
   * RATCHET_ISOLATION: `jail` and `namespaces` mean the evaluation has its own process tree, so an
   * evaluator may end every other process in it (kill(-1)) before it writes its verdict.
   */
  isolation: IsolationTier;
  /** RATCHET_EVALUATION: a random mark every process of the evaluation inherits, by which a leftover is found without a pid namespace. */
  mark: string;
}

export function evaluatorEnv(base: Record<string, string | undefined>, allowed: readonly string[], secrets: readonly string[], dirs: SandboxPaths): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined && PASSED.test(name)) env[name] = value;
  for (const name of allowed) {
    if (isSecretName(name)) {
      throw new RatchetError('badInput', `The evaluator's environment may not include ${name}: provider keys and other secrets never reach evaluated code. Remove it from the spec's env list.`, { name });
    }
    const value = base[name];
    if (value !== undefined && !OWN.has(name)) env[name] = value;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  Object.assign(env, {
    // sh (the cgroup wrapper, or an evaluator's own) exports PWD anyway; set it to the same value.
    PWD: dirs.work,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    TMP: dirs.tmp,
    TEMP: dirs.tmp,
    RATCHET_PROGRAM: dirs.program,
    RATCHET_ISOLATION: dirs.isolation,
    RATCHET_EVALUATION: dirs.mark,
    // A Python evaluator must not leave __pycache__ in the user's task folder.
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    PYTHONIOENCODING: 'utf-8',
  });
  if (dirs.instancesFile !== undefined) env.RATCHET_INSTANCES = dirs.instancesFile;
  const known = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  for (const [name, value] of Object.entries(env)) {
    if (known.some((s) => value.includes(s))) {
      throw new RatchetError('badInput', `The evaluator's environment variable ${name} holds a secret (an API key Ratchet knows); it is not passed to evaluated code. Remove ${name} from the spec's env list.`, { name });
    }
  }
  return env;
}
