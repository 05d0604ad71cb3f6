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
  const lines = splitLines(text);
  const lastContent = lines.findLastIndex((l) => l.text.trim() !== '');
  const events: JournaledEvent[] = [];
  for (let i = 0; i <= lastContent; i++) {
    const line = lines[i]!;
    if (line.text.trim() === '') continue;
    const parsed = tryParse(line.text);
    if (i === lastContent && (!line.terminated || !parsed.ok)) {
      // The write that was in flight when the process died: never acknowledged, so never a step.
      return { events, tornTail: true, validLength: line.start };
    }
    if (!parsed.ok) {
      throw corrupt(file, i + 1, `is not valid JSON: ${parsed.error}`);
    }
    const problem = eventShapeProblem(parsed.value);
    if (problem !== undefined) throw corrupt(file, i + 1, `is not an engine event (${problem})`);
    const event = parsed.value as EngineEvent;
    const seq = events.length + 1;
    // The writer numbers lines as it appends them; any other number means lines were lost or copied.
    if (event.seq !== undefined && event.seq !== seq) throw corrupt(file, i + 1, `has seq ${event.seq} where ${seq} was expected`);
    events.push(event.seq === undefined ? { ...event, seq } : (event as JournaledEvent));
  }
  return { events, tornTail: false, validLength: text.length };
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
  start: number;
  /** Whether a newline followed: the writer's append completed. */
  terminated: boolean;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  // A byte-order mark from an editor is not part of the first event.
  let pos = text.startsWith('\uFEFF') ? 1 : 0;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    lines.push({ text: text.slice(pos, end), start: pos, terminated: nl !== -1 });
    pos = end + 1;
  }
  return lines;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function corrupt(file: string, line: number, what: string): RatchetError {
  return new RatchetError('journalCorrupt', `${file} line ${line} ${what}; the run cannot be replayed past it.`, { file, line });
}
