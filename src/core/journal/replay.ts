/**
 * Reading a journal back. The writer appends one line per event and waits for the disk before the
 * engine moves on, so a crash can damage only the line being written: an unterminated or
 * unparsable *last* line is a torn write, dropped and reported as `tornTail`. Damage anywhere else
 * means someone or something else touched the file, and replaying past it would rebuild a run
 * that never happened — that is a `journalCorrupt` error naming the line.
 *
 * Every event read back carries its `seq`, its place among the journal's events: the one the
 * writer gave it, or, in a journal written before events were numbered, the same number assigned
 * here. A line whose seq disagrees with its place is corruption too.
 */
import { RatchetError } from '../errors';
import type { Files } from '../ports';
import { eventShapeProblem } from './eventShape';
import type { EngineEvent, JournaledEvent } from './events';

export interface Replay {
  /** Numbered 1, 2, …: each keeps the `seq` it was written with; one written before seqs existed gets its place. */
  events: JournaledEvent[];
  /** True when the last line was torn by a crash mid-write and has been left out. */
  tornTail: boolean;
  /**
   * Length of the prefix of the text that holds whole events (everything before the torn line).
   * A resuming writer keeps exactly this much; `runs show --json` prints exactly this much.
   */
  validLength: number;
}

/** Parses journal text; `file` only names the journal in error messages. */
export function parseJournal(text: string, file: string): Replay {
  const events: JournaledEvent[] = [];
  const reader = new JournalLineReader(file, (e) => {
    events.push(e);
  });
  let pos = 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    reader.push(text.slice(pos, end), nl !== -1);
    pos = end + 1;
  }
  const { tornTail, validLength } = reader.end();
  return { events, tornTail, validLength };
}

/**
 * The reader itself, fed one line at a time, so a face can stream a journal of any length through
 * it (src/node/journalStream.ts) holding one line, not the file. It holds back the last non-blank
 * line it was given: only once another one follows, or the input ends, is it known whether that
 * line may be a torn write or must be a whole event.
 */
export class JournalLineReader {
  private pending: Line | undefined;
  /** Characters consumed so far, newlines and a byte-order mark included. */
  private offset = 0;
  private lineNo = 0;
  private count = 0;

  constructor(
    private readonly file: string,
    /** Each event as it is read, with its line as written (for faces that pass lines on verbatim). */
    private readonly onEvent: (event: JournaledEvent, line: string) => void,
  ) {}

  /** Events handed to `onEvent` so far. */
  get events(): number {
    return this.count;
  }

  /** One line, without its newline; `terminated` when a newline followed (the writer's append completed). */
  push(text: string, terminated: boolean): void {
    let start = this.offset;
    this.offset += text.length + (terminated ? 1 : 0);
    this.lineNo++;
    // A byte-order mark from an editor is not part of the first event.
    if (this.lineNo === 1 && text.startsWith('\uFEFF')) {
      text = text.slice(1);
      start++;
    }
    if (text.trim() === '') return;
    if (this.pending) this.accept(this.pending, tryParse(this.pending.text));
    this.pending = { text, start, terminated, lineNo: this.lineNo };
  }

  /** The input ended: the held-back line is read as the last one. */
  end(): { tornTail: boolean; validLength: number } {
    const last = this.pending;
    this.pending = undefined;
    if (last) {
      const parsed = tryParse(last.text);
      // The write that was in flight when the process died: never acknowledged, so never a step.
      if (!last.terminated || !parsed.ok) return { tornTail: true, validLength: last.start };
      this.accept(last, parsed);
    }
    return { tornTail: false, validLength: this.offset };
  }

  private accept(line: Line, parsed: Parsed): void {
    if (!parsed.ok) throw corrupt(this.file, line.lineNo, `is not valid JSON: ${parsed.error}`);
    const problem = eventShapeProblem(parsed.value);
    if (problem !== undefined) throw corrupt(this.file, line.lineNo, `is not an engine event (${problem})`);
    const event = parsed.value as EngineEvent;
    const seq = this.count + 1;
    // The writer numbers lines as it appends them; any other number means lines were lost or copied.
    if (event.seq !== undefined && event.seq !== seq) throw corrupt(this.file, line.lineNo, `has seq ${event.seq} where ${seq} was expected`);
    this.count = seq;
    this.onEvent(event.seq === undefined ? { ...event, seq } : (event as JournaledEvent), line.text);
  }
}

/** Reads and parses `<runDir>/events.jsonl`; a missing file is `journalMissing`. */
export async function readJournal(files: Files, eventsPath: string): Promise<Replay> {
  return (await readJournalText(files, eventsPath)).replay;
}

/** The journal's text with its replay, for faces that pass the lines on verbatim. */
export async function readJournalText(files: Files, eventsPath: string): Promise<{ text: string; replay: Replay }> {
  const text = await files.tryReadText(eventsPath);
  if (text === undefined) {
    throw new RatchetError('journalMissing', `No journal at ${eventsPath}; the run was never started or its folder was moved.`, {
      file: eventsPath,
    });
  }
  return { text, replay: parseJournal(text, eventsPath) };
}

interface Line {
  text: string;
  /** Where the line starts in the journal's text. */
  start: number;
  /** Whether a newline followed: the writer's append completed. */
  terminated: boolean;
  /** 1-based, blank lines counted, as an editor numbers them. */
  lineNo: number;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function tryParse(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function corrupt(file: string, line: number, what: string): RatchetError {
  return new RatchetError('journalCorrupt', `${file} line ${line} ${what}; the run cannot be replayed past it.`, { file, line });
}
