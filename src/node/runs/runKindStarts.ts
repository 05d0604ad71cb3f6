/**
 * Each run kind's start and resume (src/core/setup/runKinds.ts), registered once: the daemon
 * routes every `daemon/startRun` and `daemon/resumeRun` through here, whatever the kind, with the
 * hooks it gives every run. A kind the table calls resumable must have a resume; the type says so.
 */
import { RatchetError } from '../../core/errors';
import type { JournaledEvent } from '../../core/journal/events';
import type { RunKind } from '../../core/journal/payloadTypes';
import type { EvaluatorLoad } from '../../core/journal/runStatus';
import type { RunControl } from '../../core/journal/control';
import type { LlmTransport } from '../../core/ports';
import type { EndpointDefaults } from '../../core/run/endpointDefaults';
import type { RUN_KINDS, RunKindOverrides, StartRunKind } from '../../core/setup/runKinds';
import { resumeEvolveRun, startEvolveRun } from './evolveRun';
import { resumeSearchRun, startSearchRun } from './searchRun';
import { resumeGenData, runGenData } from './genDataRun';

/** What the daemon gives every run, whatever its kind; a kind takes the hooks it has a use for. */
export interface RunHooks {
  /** The editor's part: the user's Accept or Reject, and the edits it writes. */
  control: RunControl;
  /** Each event once it is durable in the journal. */
  onEvent: (e: JournaledEvent) => void;
  signal: AbortSignal;
  /** Where roles without an endpoint of their own go, and the keys (secret: never journaled). */
  endpointDefaults: EndpointDefaults;
  version: string;
  /** Refuse workspace code (an untrusted workspace). */
  untrusted: boolean;
  /** Where LLM calls go instead of the OpenAI-compatible endpoints (the editor's language models). */
  transport?: LlmTransport;
  /** Each time an evaluation starts or ends: the evaluator slots' load. */
  onEvaluatorLoad: (load: EvaluatorLoad) => void;
  /** The run is done and its best waits for the user's answer. */
  onWaitingForYou: (candidateId: string) => void;
}

type Started = Promise<{ runId: string }>;

type KindStarts = {
  [K in StartRunKind]: {
    start: (file: string, workspace: string, overrides: RunKindOverrides[K], hooks: RunHooks) => Started;
  } & ((typeof RUN_KINDS)[K]['resumable'] extends true ? { resume: (runId: string, workspace: string, hooks: RunHooks) => Started } : unknown);
};

/** What every kind takes of the hooks. */
function commonHooks(h: RunHooks) {
  return { onEvent: h.onEvent, signal: h.signal, endpointDefaults: h.endpointDefaults, version: h.version };
}

/** What a prompt run takes of the hooks. */
function promptRunHooks(h: RunHooks) {
  return { ...commonHooks(h), control: h.control, untrusted: h.untrusted, ...(h.transport ? { transport: h.transport } : {}) };
}

/** What a code search takes of the hooks: it calls its endpoint itself (no editor language models). */
function searchHooks(h: RunHooks) {
  return { ...commonHooks(h), control: h.control, untrusted: h.untrusted, onEvaluatorLoad: h.onEvaluatorLoad, onWaitingForYou: h.onWaitingForYou };
}

/** What a dev-set generation takes: it asks the user nothing and writes its two files itself, at its end. */
function genDataHooks(h: RunHooks) {
  return { ...commonHooks(h), ...(h.transport ? { transport: h.transport } : {}) };
}

const KIND_STARTS: KindStarts = {
  evolve: {
    start: (promptPath, workspace, overrides, hooks) => startEvolveRun({ ...promptRunHooks(hooks), promptPath, workspace, overrides }),
    resume: (runId, workspace, hooks) => resumeEvolveRun(runId, workspace, promptRunHooks(hooks)),
  },
  evaluate: {
    // A run allowed no candidates only scores the starting prompt on the held-out test split (its report/test event).
    start: (promptPath, workspace, overrides, hooks) => startEvolveRun({ ...promptRunHooks(hooks), promptPath, workspace, overrides: { ...overrides, candidates: 0 } }),
  },
  search: {
    start: (programPath, workspace, overrides, hooks) => startSearchRun({ ...searchHooks(hooks), programPath, workspace, overrides }),
    resume: (runId, workspace, hooks) => resumeSearchRun(runId, { ...searchHooks(hooks), workspace }),
  },
  'gen-data': {
    start: (promptPath, workspace, { replace, ...overrides }, hooks) => runGenData({ ...genDataHooks(hooks), promptPath, workspace, force: replace === true, overrides }),
    resume: (runId, workspace, hooks) => resumeGenData(runId, { ...genDataHooks(hooks), workspace }),
  },
};

/** Starts a run of the kind on its file. */
export function startRunOfKind<K extends StartRunKind>(kind: K, file: string, workspace: string, overrides: RunKindOverrides[K], hooks: RunHooks): Started {
  // Indexed by a generic key, the table's entry is the union of every kind's; its own kind's overrides are the ones given.
  const start = KIND_STARTS[kind].start as (file: string, workspace: string, overrides: RunKindOverrides[K], hooks: RunHooks) => Started;
  return start(file, workspace, overrides, hooks);
}

/** Resumes run `runId` as the kind its run.json names; a kind the editor does not start, or one that cannot resume, is refused. */
export function resumeRunOfKind(kind: RunKind, runId: string, workspace: string, hooks: RunHooks): Started {
  const starts = kind in KIND_STARTS ? (KIND_STARTS[kind as StartRunKind] as { resume?: (runId: string, workspace: string, hooks: RunHooks) => Started }) : undefined;
  if (!starts?.resume) throw new RatchetError('badInput', `Run ${runId} is a ${kind} run, which cannot be resumed here.`, { runId });
  return starts.resume(runId, workspace, hooks);
}
