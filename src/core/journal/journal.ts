/**
 * The run journal: `.ratchet/runs/<runId>/` holds `run.json` (the spec and who/when/what, written
 * once, atomically) and `events.jsonl` (append-only, one EngineEvent per line, numbered by `seq`
 * 1, 2, … in the order appended, a resumed run going on from its last). An append resolves
 * only once the line is on disk, and the engine awaits it before its next step, so after a crash
 * the journal holds every step the engine took and at most one torn line (see replay.ts).
 * Everything written passes through `redact` first: a secret that reached an event stops here.
 */
import { RatchetError } from '../errors';
import type { Clock, Entropy, Files } from '../ports';
import { eventShapeProblem } from './eventShape';
import { isResumableFailure, isTerminal } from './eventClasses';
import type { EngineEvent, JournaledEvent } from './events';
import type { RunKind } from './payloadTypes';
import { redact } from '../redact';
import { parseJournal } from './replay';
import type { Replay } from './replay';
import { newRunId } from './runId';

/**
 * The format of a run's journal, run.json and events.jsonl together, written into run.json's
 * `format`. Bumped when either changes in a way an older reader would misread; every reader checks
 * it (`checkJournalFormat`) before it reads a line, and refuses a newer one rather than misread it.
 * Older formats are read: a run.json without `format` predates the field (format 1, and its events
 * may lack `seq`, which the reader numbers in memory: replay.ts).
 */
export const JOURNAL_FORMAT = 1;

export interface RunRecord {
  /** The journal's format (JOURNAL_FORMAT when written); one from before the field reads as 1. */
  format: number;
  runId: string;
  kind: RunKind;
  /** The file under evolution, as the face that started the run named it. */
  target: string;
  /** ISO-8601, UTC. */
  createdAt: string;
  seed: number;
  /** The Ratchet version that started the run. */
  version: string;
  /** The run spec as resolved at start (owned by the evolve work; journaled verbatim, redacted). */
  spec: unknown;
}

export type NewRun = Omit<RunRecord, 'format' | 'runId' | 'createdAt'>;

/**
 * Which process holds a run open. Written to `lock.json` so `listRuns` can tell a live run from one
 * whose process died (`interrupted`); the core cannot ask the OS, the face passes `isOwnerAlive`.
 */
export interface RunOwner {
  pid: number;
  host: string;
  since: string;
}

export interface RunPaths {
  dir: string;
  runJson: string;
  events: string;
  lock: string;
}

export function runsDir(files: Files, root: string): string {
  return files.join(root, '.ratchet', 'runs');
}

export function runPaths(files: Files, root: string, runId: string): RunPaths {
  const dir = files.join(runsDir(files, root), runId);
  return { dir, runJson: files.join(dir, 'run.json'), events: files.join(dir, 'events.jsonl'), lock: files.join(dir, 'lock.json') };
}

/** Appends events to one run's journal, in call order, each durable before its promise resolves. */
export class JournalWriter {
  private tail: Promise<void> = Promise.resolve();
  private failure: unknown;
  private endedWith: string | undefined;
  private written: number;
  /** The seq the last event handed to `append` got (written or still on its way to disk). */
  private lastSeq: number;

  constructor(
    private readonly files: Files,
    readonly record: RunRecord,
    readonly paths: RunPaths,
    /** Events already in the journal (a resumed run). */
    existingEvents = 0,
  ) {
    this.written = existingEvents;
    this.lastSeq = existingEvents;
  }

  get runId(): string {
    return this.record.runId;
  }

  /** Events durably in the journal, including those a resume found there. */
  get eventCount(): number {
    return this.written;
  }

  /**
   * Numbers, redacts, checks and appends one event; resolves once it is on disk, with the event as
   * faces receive it (the caller's, unredacted, with its `seq`). Calls made without waiting still
   * land, and are numbered, in call order. After a failed write every later append fails too: a
   * journal with a hole in it would replay into a run that never happened.
   */
  append(event: EngineEvent): Promise<JournaledEvent> {
    const numbered: JournaledEvent = { ...event, seq: this.lastSeq + 1 };
    let line: string;
    try {
      // Serialized now, so a caller mutating the event after this call cannot change what is written.
      line = this.serialize(numbered);
    } catch (err) {
      return Promise.reject(err);
    }
    // Taken only by an event that will be written: a refused one leaves no hole in the numbering.
    this.lastSeq = numbered.seq;
    if (isTerminal(event)) this.endedWith = event.type;
    const done = this.tail.then(async () => {
      if (this.failure !== undefined) {
        const message = `The journal ${this.paths.events} stopped accepting events after a failed write.`;
        throw new RatchetError('internal', message, { file: this.paths.events }, this.failure);
      }
      try {
        await this.files.appendDurable(this.paths.events, line);
      } catch (err) {
        this.failure = err;
        throw err;
      }
      this.written++;
    });
    this.tail = done.catch(() => undefined);
    return done.then(() => numbered);
  }

  /** Resolves when every append made so far has settled. */
  async flush(): Promise<void> {
    await this.tail;
  }

  private serialize(event: JournaledEvent): string {
    if (this.endedWith !== undefined) {
      throw new RatchetError('internal', `Run ${this.runId} already ended with ${this.endedWith}; nothing more can be journaled.`);
    }
    if (event.runId !== this.runId) {
      throw new RatchetError('internal', `A ${event.type} event of run ${event.runId} was sent to the journal of run ${this.runId}.`);
    }
    const json = JSON.stringify(redact(event));
    // Checked as the reader will see it (after JSON turned NaN into null), so it can be replayed.
    const problem = eventShapeProblem(JSON.parse(json));
    if (problem !== undefined) {
      throw new RatchetError('internal', `Refusing to journal a malformed event: ${problem}.`, { runId: this.runId, type: event.type });
    }
    return `${json}\n`;
  }
}

export interface JournalPorts {
  files: Files;
  clock: Clock;
  /**
   * The id's suffix. Not the run's seeded Random: two runs started in the same millisecond with
   * the same seed would draw the same id from it (and naming a run must not shift its draws).
   */
  entropy: Entropy;
}

/** Creates `.ratchet/runs/<new id>/` under `root` with its run.json and an empty journal. */
export async function createJournal(ports: JournalPorts, root: string, run: NewRun, owner?: RunOwner): Promise<JournalWriter> {
  const { files, clock } = ports;
  const now = clock.now();
  await files.mkdirp(runsDir(files, root));
  // The folder is the claim: made exclusively, so a name another process took between our choice
  // and our mkdir is never shared; we draw another one instead.
  let runId: string | undefined;
  for (let attempt = 0; attempt < 32 && runId === undefined; attempt++) {
    const id = newRunId(now, ports.entropy);
    if (await files.mkdirExclusive(runPaths(files, root, id).dir)) runId = id;
  }
  if (runId === undefined) {
    throw new RatchetError('internal', `Could not find a free run id under ${runsDir(files, root)} after 32 tries.`);
  }
  const paths = runPaths(files, root, runId);
  const record: RunRecord = redact({
    format: JOURNAL_FORMAT,
    runId,
    kind: run.kind,
    target: run.target,
    createdAt: new Date(now).toISOString(),
    seed: run.seed,
    version: run.version,
    spec: run.spec,
  });
  await files.writeTextAtomic(paths.runJson, `${JSON.stringify(record, null, 2)}\n`);
  // Created now (empty) so a run that dies before its first event still reads as a run, not a stray folder.
  await files.appendDurable(paths.events, '');
  if (owner) await writeLock(files, paths, owner);
  return new JournalWriter(files, record, paths);
}

export interface ResumedJournal {
  writer: JournalWriter;
  replay: Replay;
}

/**
 * Opens an existing run for appending. A torn last line is cut off first, so the next event starts
 * on a line of its own; a run that already ended (finished, cancelled, failed for a reason of its
 * own) is refused. A run the endpoint failed (down, erroring) goes on from where it stopped.
 */
export async function resumeJournal(files: Files, root: string, runId: string, owner?: RunOwner): Promise<ResumedJournal> {
  const paths = runPaths(files, root, runId);
  const record = await readRunRecord(files, paths.runJson);
  const text = (await files.tryReadText(paths.events)) ?? '';
  const replay = parseJournal(text, paths.events);
  const last = replay.events.at(-1);
  if (last !== undefined && isTerminal(last) && !isResumableFailure(last)) {
    throw new RatchetError('badInput', `Run ${runId} already ended with ${last.type}; start a new run instead of resuming it.`, { runId });
  }
  if (replay.tornTail) await files.writeTextAtomic(paths.events, text.slice(0, replay.validLength));
  if (owner) await writeLock(files, paths, owner);
  return { writer: new JournalWriter(files, record, paths, replay.events.length), replay };
}

/** Reads and checks a run.json; missing is `notFound`, unreadable is `journalCorrupt`. */
export async function readRunRecord(files: Files, runJsonPath: string): Promise<RunRecord> {
  const text = await files.tryReadText(runJsonPath);
  if (text === undefined) {
    throw new RatchetError('notFound', `No run at ${files.dirname(runJsonPath)} (it has no run.json).`, { file: runJsonPath });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new RatchetError('journalCorrupt', `${runJsonPath} is not valid JSON: ${why}; fix or remove that run folder.`, { file: runJsonPath });
  }
  // Before the fields: a newer format may have renamed them, and "update Ratchet" is the fix then.
  const format = checkJournalFormat(value, runJsonPath);
  const problem = runRecordProblem(value);
  if (problem !== undefined) {
    throw new RatchetError('journalCorrupt', `${runJsonPath} ${problem}; fix or remove that run folder.`, { file: runJsonPath });
  }
  return { ...(value as RunRecord), format };
}

/**
 * The journal format a parsed run.json declares, when this Ratchet can read it: a run.json from
 * before the field reads as format 1, a newer format is `journalTooNew`. Every reader of a run
 * calls it (through `readRunRecord`, or directly where it reads files itself, as the editor does).
 */
export function checkJournalFormat(runJson: unknown, runJsonPath: string): number {
  const format = runJson !== null && typeof runJson === 'object' ? (runJson as { format?: unknown }).format : undefined;
  if (format === undefined) return 1;
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) {
    throw new RatchetError('journalCorrupt', `${runJsonPath} has format ${JSON.stringify(format)}, not a format number; fix or remove that run folder.`, { file: runJsonPath });
  }
  if (format > JOURNAL_FORMAT) {
    throw new RatchetError('journalTooNew', `${runJsonPath} was written by a newer Ratchet (format ${format}); this one reads up to ${JOURNAL_FORMAT} — update Ratchet.`, { file: runJsonPath, format, supported: JOURNAL_FORMAT });
  }
  return format;
}

/** Reads lock.json; undefined when absent or unreadable (a lock is a hint, never a reason to fail). */
export async function readRunOwner(files: Files, lockPath: string): Promise<RunOwner | undefined> {
  const text = await files.tryReadText(lockPath);
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as Partial<RunOwner>;
    return typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.since === 'string' ? (v as RunOwner) : undefined;
  } catch {
    return undefined;
  }
}

function runRecordProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'is not a JSON object';
  const v = value as Record<string, unknown>;
  for (const [field, type] of [
    ['runId', 'string'],
    ['kind', 'string'],
    ['target', 'string'],
    ['createdAt', 'string'],
    ['seed', 'number'],
    ['version', 'string'],
  ] as const) {
    if (typeof v[field] !== type) return `has no ${type} field "${field}"`;
  }
  return undefined;
}

async function writeLock(files: Files, paths: RunPaths, owner: RunOwner): Promise<void> {
  await files.writeTextAtomic(paths.lock, `${JSON.stringify(owner)}\n`);
}
