/**
 * Which `ratchet evolve` flags a resume takes. A resume re-executes the journaled run and checks
 * every event against the journal, so it may change where calls go and how patiently (`--base-url`,
 * `--call-timeout`, `--max-failures`; the key comes from the environment) and what reaches the prompt file (`--apply`, `--dry-run`, `--interactive`),
 * never what the run decides: a flag that would is refused, naming it.
 */
import { RatchetError } from '../../core/errors';
import type { ResumeEndpoint } from '../../node/runs/evolveRun';

/** Flags that decide what a run does, with why a resume cannot take them. */
const DECIDING = [
  ['data', '--data', 'the items'],
  ['gate', '--gate', 'the gate'],
  ['alpha', '--alpha', 'the gate'],
  ['budgetCalls', '--budget-calls', 'where the run stops'],
  ['candidates', '--candidates', 'where the run stops'],
  ['seed', '--seed', 'the splits and draws'],
  ['model', '--model', 'the answers'],
  ['concurrency', '--concurrency', 'the gate’s batches'],
] as const;

type DecidingFlags = Partial<Record<(typeof DECIDING)[number][0], unknown>>;

export function resumeEndpoint(runId: string, flags: DecidingFlags & { baseUrl?: string; callTimeout?: number; maxFailures?: number }): ResumeEndpoint {
  const given = DECIDING.filter(([key]) => flags[key] !== undefined);
  if (given.length > 0) {
    const names = given.map(([, flag]) => flag).join(', ');
    const what = [...new Set(given.map(([, , decides]) => decides))].join(', ');
    throw new RatchetError(
      'badInput',
      `${names} cannot change when resuming run ${runId}: ${given.length > 1 ? 'they change' : 'it changes'} ${what}, so the resumed run would not reproduce the journaled one. Resume without ${given.length > 1 ? 'them' : 'it'} (--base-url, --call-timeout and --max-failures may change), or start a new run.`,
      { runId, flags: given.map(([, flag]) => flag) },
    );
  }
  return {
    ...(flags.baseUrl !== undefined ? { baseURL: flags.baseUrl } : {}),
    ...(flags.callTimeout !== undefined ? { callTimeoutSeconds: flags.callTimeout } : {}),
    ...(flags.maxFailures !== undefined ? { maxFailures: flags.maxFailures } : {}),
  };
}
