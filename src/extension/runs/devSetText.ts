/**
 * What Generate Dev Set says: the question before it replaces a dev set, and how its run ended —
 * written, nothing written, cancelled. A failure is said as any run's (runNotices.ts: an error with
 * Open Log). Pure wording, no VS Code import, so it is unit-tested; genDataCommands.ts shows it.
 */
import { fileName } from '../../core/fileName';
import { generatedLine } from '../../core/journal/runStatus';
import type { LiveRunStatus } from '../../core/journal/runStatus';
import type { DevSetPaths } from '../../protocol/lsp';

export const REPLACE = 'Replace';
export const OPEN_EXISTING = 'Open Existing';
export const OPEN_TEST_SPLIT = 'Open Test Split';

const nameOf = (uri: string) => decodeURIComponent(fileName(uri));

/** The modal before anything is paid for, when the dev or the test file is there already (the CLI refuses without --force). */
export function replaceQuestion(paths: DevSetPaths): { message: string; detail: string } {
  const names = paths.existing.map(nameOf);
  const them = names.length === 1 ? `${names[0]} already exists` : `${names.join(' and ')} already exist`;
  return {
    message: `${them}. Replace ${names.length === 1 ? 'it' : 'them'} with a new dev set?`,
    detail: `Generate Dev Set writes ${nameOf(paths.dev)} and its held-out split ${nameOf(paths.test)} when it ends. Replacing loses what you edited in ${names.length === 1 ? 'it' : 'them'}; Open Existing shows the dev set you have.`,
  };
}

export interface DevSetEnd {
  level: 'info' | 'warning';
  message: string;
  /** Open the dev set for review: it was written. */
  openDev: boolean;
  /** Buttons on the message. */
  actions: string[];
}

/**
 * How the generation ended, or undefined for an end said elsewhere (a failure: runNotices.ts; a
 * status that went away with its server: the Runs view lists how the run ended). `warning` is the
 * run's last warning (why a budget stopped it).
 */
export function devSetEnd(status: LiveRunStatus | undefined, paths: DevSetPaths, warning: string | undefined): DevSetEnd | undefined {
  const dev = nameOf(paths.dev);
  const test = nameOf(paths.test);
  const g = status?.generated;
  switch (status?.state) {
    case 'finished':
      if (g === undefined || g.rounds === 0) {
        return { level: 'warning', message: `Ratchet: no dev set was written — ${warning ?? generatedLine(g)}`.replace(/\.?$/, '.'), openDev: false, actions: [] };
      }
      if (g.dev === 0) {
        return {
          level: 'warning',
          message: `Ratchet: no dev set was written — no generated task passed the filters in ${g.rounds === 1 ? 'its round' : `its ${g.rounds} rounds`}, so ${dev} is as it was: the Zero-data tab says why each was dropped. Check that the challenger model writes the tasks it is asked for.`,
          openDev: false,
          actions: [],
        };
      }
      return {
        level: 'info',
        message: `Ratchet: wrote ${dev} (${generatedLine(g)}). Review and prune it, then name it as the run spec's dataset. The held-out tasks are in ${test}, kept apart to check a gain on tasks the dev set did not choose.`,
        openDev: true,
        actions: [OPEN_TEST_SPLIT],
      };
    case 'cancelled':
      return {
        level: 'info',
        message: `Ratchet: Generate Dev Set was cancelled; nothing was written. Run it again to go on: every call it made is answered from the response cache.`,
        openDev: false,
        actions: [],
      };
    case 'interrupted':
      return {
        level: 'warning',
        message: `Ratchet: Generate Dev Set stopped before it ended; nothing was written. Run it again: every call it made is answered from the response cache.`,
        openDev: false,
        actions: [],
      };
    default:
      return undefined;
  }
}
