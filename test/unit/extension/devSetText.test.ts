// What Generate Dev Set says before it replaces a dev set and when its run ends: what it wrote and
// where the held-out split is, that nothing was written when it was cancelled or no task passed,
// and a failure as an error (with the endpoint's commands when the endpoint failed).
import { describe, expect, it } from 'vitest';
import type { LiveRunStatus } from '../../../src/core/journal/runStatus';
import type { DevSetPaths } from '../../../src/protocol/lsp';
import { devSetEnd, replaceQuestion } from '../../../src/extension/runs/devSetText';
import { endNotice } from '../../../src/extension/runs/runNotices';

const paths = (existing: string[] = []): DevSetPaths => ({ dev: 'file:///w/mental%20math.dev.jsonl', test: 'file:///w/mental%20math.test.jsonl', existing });
const status = (over: Partial<LiveRunStatus>): LiveRunStatus => ({ runId: 'r1', state: 'running', tested: 0, commits: 0, kind: 'gen-data', line: 'round 1 of 2: writing and judging tasks', ...over });

describe('replaceQuestion', () => {
  it('names the files that exist and what replacing them loses', () => {
    expect(replaceQuestion(paths(['file:///w/mental%20math.dev.jsonl']))).toEqual({
      message: 'mental math.dev.jsonl already exists. Replace it with a new dev set?',
      detail: 'Generate Dev Set writes mental math.dev.jsonl and its held-out split mental math.test.jsonl when it ends. Replacing loses what you edited in it; Open Existing shows the dev set you have.',
    });
    expect(replaceQuestion(paths(['file:///w/mental%20math.dev.jsonl', 'file:///w/mental%20math.test.jsonl'])).message).toBe('mental math.dev.jsonl and mental math.test.jsonl already exist. Replace them with a new dev set?');
  });
});

describe('devSetEnd', () => {
  it('a finished generation opens its dev set and says where the held-out split is', () => {
    expect(devSetEnd(status({ state: 'finished', generated: { rounds: 2, of: 2, dev: 7, test: 4 } }), paths(), undefined)).toEqual({
      level: 'info',
      message:
        "Ratchet: wrote mental math.dev.jsonl (7 dev tasks and 4 held-out from 2 rounds). Review and prune it, then name it as the run spec's dataset. The held-out tasks are in mental math.test.jsonl, kept apart to check a gain on tasks the dev set did not choose.",
      openDev: true,
      actions: ['Open Test Split'],
    });
  });

  it('says plainly when nothing useful was written: no round finished, or no task passed', () => {
    const budget = 'Stopped in round 1: the calls budget is spent; the dev set holds the 0 rounds finished before it.';
    expect(devSetEnd(status({ state: 'finished', generated: { rounds: 0, of: 2, dev: 0, test: 0 } }), paths(), budget)).toEqual({
      level: 'warning',
      message: `Ratchet: no dev set was written — ${budget}`,
      openDev: false,
      actions: [],
    });
    expect(devSetEnd(status({ state: 'finished', generated: { rounds: 2, of: 2, dev: 0, test: 0 } }), paths(), undefined)).toMatchObject({
      level: 'warning',
      message: expect.stringMatching(/^Ratchet: no dev set was written — no generated task passed the filters in its 2 rounds, so mental math\.dev\.jsonl is as it was/),
      openDev: false,
    });
  });

  it('a cancelled or interrupted generation wrote nothing, and a rerun pays nothing twice', () => {
    expect(devSetEnd(status({ state: 'cancelled' }), paths(), undefined)?.message).toBe('Ratchet: Generate Dev Set was cancelled; nothing was written. Run it again to go on: every call it made is answered from the response cache.');
    expect(devSetEnd(status({ state: 'interrupted' }), paths(), undefined)?.level).toBe('warning');
    // A failure is the run notices' to say; a status that went away is the Runs view's.
    expect(devSetEnd(status({ state: 'failed', error: 'x' }), paths(), undefined)).toBeUndefined();
    expect(devSetEnd(undefined, paths(), undefined)).toBeUndefined();
  });

  it('a failed generation is an error that says nothing was written', () => {
    const going = status({});
    const failed = { uri: 'file:///w/mental%20math.prompt.md', workspace: '/w', status: status({ state: 'failed', error: 'No model for the challenger role.', errorCode: 'badInput' }) };
    expect(endNotice(failed, going)).toEqual({ level: 'error', message: 'Ratchet: Generate Dev Set on mental math.prompt.md (run r1) failed — No model for the challenger role; nothing was written.', show: true });
    expect(endNotice({ ...failed, status: status({ state: 'finished', line: '7 dev tasks and 4 held-out from 2 rounds' }) }, going)).toMatchObject({ show: false });
  });
});
