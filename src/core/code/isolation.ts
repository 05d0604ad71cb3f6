/**
 * How far an evaluation is isolated from the machine it runs on, in words a user reads in the
 * pre-flight line, `runs show`, the CLI line and the Programs view. The trust model behind it
 * (docs/sandbox.md): the evaluator and its support files are the user's and trusted; the program
 * is untrusted. A program may not read anything but its sandbox and what the evaluator hands it,
 * see Ratchet's or any other process, reach the network (unless `network: on`), write outside its
 * sandbox, outlive its evaluation, or change a result after the evaluator has ended.
 *
 * How much of that a machine can enforce depends on what it offers; each tier says which parts
 * hold. The Node sandbox (src/node/sandbox/jail.ts) picks the tier; this table is the one place
 * that says what each tier means.
 */
import { ISOLATION_TIERS } from '../journal/payloadTypes';
import type { EvaluationIsolation, IsolationTier } from '../journal/payloadTypes';

export { ISOLATION_TIERS };
export type { EvaluationIsolation, IsolationTier };

/** `evaluator.isolation`: what the user asks for. */
export const ISOLATION_SETTINGS = ['required', 'best', 'off'] as const;
export type IsolationSetting = (typeof ISOLATION_SETTINGS)[number];
export const DEFAULT_ISOLATION: IsolationSetting = 'best';

/*
 * What an evaluation got (the tiers' list lives with the journal, which records it):
 * - `jail`: bubblewrap — new user, pid, mount, ipc, uts (and, unless `network: on`, net)
 *   namespaces; only the sandbox folder, the support files and the toolchain are visible;
 * - `namespaces`: no bubblewrap, but `unshare` gave it its own process tree (pid namespace) and,
 *   unless `network: on`, no network — the file system is the user's;
 * - `none`: the machine offers no namespace (no bubblewrap, no user namespaces): a process group,
 *   limits and a clean environment only;
 * - `off`: `evaluator.isolation: off` — the user chose no isolation.
 */

interface TierFacts {
  /** The file system outside the sandbox is hidden (home, workspace, .ratchet, /run/user). */
  filesHidden: boolean;
  /** The evaluation has its own process tree: it cannot see Ratchet's or any other process, and dies with its evaluator. */
  ownProcesses: boolean;
  /** `network: off` is enforced. */
  networkOff: boolean;
}

const TIERS: Record<IsolationTier, TierFacts> = {
  jail: { filesHidden: true, ownProcesses: true, networkOff: true },
  namespaces: { filesHidden: false, ownProcesses: true, networkOff: true },
  none: { filesHidden: false, ownProcesses: false, networkOff: false },
  off: { filesHidden: false, ownProcesses: false, networkOff: false },
};

export function tierFacts(tier: IsolationTier): TierFacts {
  return TIERS[tier];
}

/**
 * The tier in words, for `network` as the spec asks: "isolated: no network, no home, own process
 * tree" when everything holds; "partly isolated: …; the program can read your files" with a
 * process tree of its own; "not isolated: the program can …" otherwise.
 */
export function isolationWords(tier: IsolationTier, network: 'off' | 'on'): string {
  const t = TIERS[tier];
  const net = network === 'on' ? 'network on' : 'no network';
  if (t.filesHidden) return `isolated: ${net}, no home, own process tree`;
  if (t.ownProcesses) return `partly isolated: own process tree, ${net}; the program can read your files`;
  const can = ['read your files', 'see your processes', ...(network === 'off' ? ['reach the network'] : [])];
  return `not isolated${tier === 'off' ? ' (evaluator.isolation: off)' : ''}: the program can ${can.slice(0, -1).join(', ')} and ${can.at(-1)!}`;
}

/** An evaluation's isolation in words. */
export function describeIsolation(i: EvaluationIsolation): string {
  return isolationWords(i.tier, i.network);
}

/** The sandbox's pre-flight in words, one line: the tier's words, what it rests on, the limits, a sweep, the caveats. */
export function sandboxPreflightText(e: { isolation: EvaluationIsolation; setting: string; jail: string; limits: string; swept?: string; caveats: readonly string[] }): string {
  return [`${describeIsolation(e.isolation)} (evaluator.isolation: ${e.setting}; jail: ${e.jail})`, `limits: ${e.limits}`, ...(e.swept ? [e.swept] : []), ...e.caveats].join(' · ');
}
