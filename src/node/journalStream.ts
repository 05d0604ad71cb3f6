/**
 * A journal read as a stream: `events.jsonl` goes through the engine's own line reader
 * (JournalLineReader, src/core/journal/replay.ts) a chunk at a time, so a run of a million events is
 * shown in the memory of one chunk and one line, not of the whole file and all its events.
 * The file is split here rather than with node:readline, which cannot tell whether the last line
 * ended with a newline — and an unterminated last line is how a torn write is recognised.
 */
import { RatchetError } from '../core/errors';
import { formatSize } from '../core/files/inputLimits';
import type { JournaledEvent } from '../core/journal/events';
import { JournalLineReader } from '../core/journal/replay';
import { inputLimitsFromEnv, openInputFile } from './inputFile';

export interface StreamJournalOptions {
  /** Stop once this many events were read (a second pass over a journal a live run appends to). */
  until?: number;
  /** Awaited after each chunk: where a face waits for its output to drain. */
  afterChunk?: () => Promise<void>;
  /**
   * A line longer than this is damage, not an event (the default: the whole-file cap, from the
   * environment — an event can carry a long prompt, but not more than a file read whole).
   */
  maxLineChars?: number;
}

export interface StreamedJournal {
  events: number;
  /** True when the last line was torn by a crash mid-write and has been left out. */
  tornTail: boolean;
}

/** Streams `eventsPath` event by event; a missing file is `journalMissing`, damage `journalCorrupt` (as readJournal). */
export async function streamJournal(eventsPath: string, onEvent: (event: JournaledEvent, line: string) => void, options: StreamJournalOptions = {}): Promise<StreamedJournal> {
  const { until, maxLineChars = inputLimitsFromEnv().maxFileBytes } = options;
  const reader = new JournalLineReader(eventsPath, (event, line) => {
    if (until === undefined || event.seq <= until) onEvent(event, line);
  });
  // Checked like every input (a regular file, not a pipe); no size cap: this read is bounded anyway.
  const input = await openInputFile(eventsPath);
  if (input === undefined) {
    throw new RatchetError('journalMissing', `No journal at ${eventsPath}; the run was never started or its folder was moved.`, { file: eventsPath });
  }
  const stream = input.handle.createReadStream({ encoding: 'utf8', highWaterMark: 1 << 20 });
  // The unfinished line, kept as the chunks it came in: joined once when its newline arrives, so a
  // long line costs its length, not its length times its chunks.
  let carry: string[] = [];
  let carryLength = 0;
  let lines = 0;
  const line = (end: string, terminated: boolean) => {
    reader.push(carry.length === 0 ? end : carry.join('') + end, terminated);
    carry = [];
    carryLength = 0;
    lines++;
  };
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let pos = 0;
      for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', pos)) {
        line(chunk.slice(pos, nl), true);
        pos = nl + 1;
      }
      if (pos < chunk.length) {
        carry.push(chunk.slice(pos));
        carryLength += chunk.length - pos;
      }
      if (carryLength > maxLineChars) {
        throw new RatchetError('journalCorrupt', `${eventsPath} line ${lines + 1} runs past ${formatSize(maxLineChars)} without ending; the journal is damaged and cannot be replayed past it.`, { file: eventsPath, line: lines + 1 });
      }
      await options.afterChunk?.();
      if (until !== undefined && reader.events >= until) return { events: until, tornTail: false };
    }
  } finally {
    stream.destroy();
  }
  if (carryLength > 0) line('', false);
  const { tornTail } = reader.end();
  return { events: reader.events, tornTail };
}
