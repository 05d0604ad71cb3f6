/**
 * What a process's stub bundle does: requires the shared Node bundle next to it and starts its
 * role (src/entries/nodeProcesses.ts). A failure to load is an unhandled rejection: Node prints it
 * and exits non-zero, as a throwing entry script would.
 */
import type { ProcessRole, processes } from './nodeProcesses';

export function start(role: ProcessRole): void {
  // A runtime require of a sibling bundle in out/, not an import: esbuild must not inline it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const shared = require('./nodeProcesses.js') as { processes: typeof processes };
  void shared.processes[role]();
}
