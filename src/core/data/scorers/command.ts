/**
 * The command scorer: runs a program per output through the ProcessRunner port (no shell).
 *
 * Contract: the output arrives on stdin; the item as JSON `{ id, vars, expected }` in the
 * RATCHET_ITEM environment variable (its id also in RATCHET_ITEM_ID); the working directory is the
 * spec file's. Exit 0 and print a number in [0, 1] — or JSON `{ "score": n, "reason": "…" }` — on
 * stdout. Any other exit, a timeout or unreadable stdout is a per-item failure (score 0).
 * It runs the workspace's code, so it is marked `requiresTrust`; it does not get Ratchet's whole
 * environment (the provider keys live there), only what ProcessRunner passes and `passEnv` names.
 */
import { RatchetError } from '../../errors';
import type { ProcessRunner } from '../../ports';
import { isPlainObject } from '../item';
import { checkScore, itemScoreError, scorerConfigError } from './types';
import type { Scorer, ScorerDeps, ScorerSpecOf, ScoreResult } from './types';

/** Splits `python3 "my scorer.py" --strict` into words, honouring single and double quotes. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) {
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  }
  return words;
}

export function commandScorer(spec: ScorerSpecOf<'command'>, deps: ScorerDeps): Scorer {
  const proc: ProcessRunner | undefined = deps.proc;
  if (!proc) throw new RatchetError('internal', 'the command scorer needs a ProcessRunner port');
  // With no `args`, the command line is split like a shell would (without running one).
  const words = spec.args.length > 0 ? [spec.command, ...spec.args] : splitCommandLine(spec.command);
  const [program, ...args] = words;
  if (!program) throw scorerConfigError(deps, 'command', 'the command is empty');
  return {
    type: 'command',
    needsExpected: false,
    requiresTrust: true,
    score: async (output, item, ctx = {}): Promise<ScoreResult> => {
      const env: Record<string, string> = {
        ...spec.env,
        RATCHET_ITEM: JSON.stringify({ id: item.id, vars: item.vars, expected: item.expected }),
        RATCHET_ITEM_ID: item.id,
      };
      const opts: Parameters<ProcessRunner['run']>[2] = { cwd: deps.baseDir, env, passEnv: spec.passEnv, stdin: output, timeoutMs: spec.timeoutSeconds * 1000 };
      if (ctx.signal) opts.signal = ctx.signal;
      const res = await proc.run(program, args, opts);
      if (res.timedOut) throw itemScoreError('command', item, `${program} did not finish within ${spec.timeoutSeconds} s`);
      if (res.exitCode !== 0) {
        const tail = res.stderr.trim().split('\n').slice(-3).join(' | ');
        const how = res.exitCode === null ? `was killed by ${res.signal ?? 'a signal'}` : `exited with code ${res.exitCode}`;
        throw itemScoreError('command', item, `${program} ${how}${tail ? `: ${tail}` : ''}`);
      }
      return parseCommandScore(res.stdout, item, program);
    },
  };
}

function parseCommandScore(stdout: string, item: Parameters<Scorer['score']>[1], program: string): ScoreResult {
  const text = stdout.trim();
  const lastLine = text.split('\n').pop()?.trim() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(lastLine);
  } catch {
    throw itemScoreError('command', item, `${program} printed ${JSON.stringify(lastLine.slice(0, 80))}; print a number in [0, 1] or {"score": n}`);
  }
  if (typeof value === 'number') return { score: checkScore(value, 'command', item) };
  if (isPlainObject(value)) {
    const score = checkScore(value.score, 'command', item);
    return typeof value.reason === 'string' ? { score, reason: value.reason } : { score };
  }
  throw itemScoreError('command', item, `${program} printed ${JSON.stringify(lastLine.slice(0, 80))}; print a number in [0, 1] or {"score": n}`);
}
