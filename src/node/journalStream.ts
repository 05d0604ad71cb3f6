/**
 * A journal read as a stream: `events.jsonl` goes through the engine's own line reader
 * (JournalLineReader, src/core/run/replay.ts) a chunk at a time, so a run of a million events is
 * shown in the memory of one chunk and one line, not of the whole file and all its events.
 * The file is split here rather than with node:readline, which cannot tell whether the last line
 * ended with a newline — and an unterminated last line is how a torn write is recognised.
 */
import { RatchetError } from '../core/errors';
import { DEFAULT_INPUT_LIMITS, formatSize } from '../core/files/inputLimits';
import type { JournaledEvent } from '../core/run/events';
import { JournalLineReader } from '../core/run/replay';
import { openInputFile } from './inputFile';

export interface StreamJournalOptions {
  /** Stop once this many events were read (a second pass over a journal a live run appends to). */
  until?: number;
  /** Awaited after each chunk: where a face waits for its output to drain. */
  afterChunk?: () => Promise<void>;
  /**
   * A line longer than this is damage, not an event (the default: the whole-file cap — an event
   * can carry a long prompt, but not more than a file Ratchet would read whole).
   */
  maxLineChars?: number;
}

export interface StreamedJournal {
  events: number;
  /** True when the last line was torn by a crash mid-write and has been left out. */
  tornTail: boolean;
}

/** Streams `eventsPath` event by event; a missing file is `journalMissing`, damage `journalCorrupt` (as readJournal). */
export async function streamJournal(
  eventsPath: string,
  onEvent: (event: JournaledEvent, line: string) => void,
  options: StreamJournalOptions = {},
): Promise<StreamedJournal> {
  const { until, maxLineChars = DEFAULT_INPUT_LIMITS.maxFileBytes } = options;
  const reader = new JournalLineReader(eventsPath, (event, line) => {
    if (until === undefined || event.seq <= until) onEvent(event, line);
  });
  // Checked like every input (a regular file, not a pipe); no size cap: this read is bounded anyway.
  const input = await openInputFile(eventsPath);
  if (input === undefined) {
    throw new RatchetError('journalMissing', `No journal at ${eventsPath}; the run was never started or its folder was moved.`, { file: eventsPath });
  }
  const stream = input.handle.createReadStream({ encoding: 'utf8', highWaterMark: 1 << 20 });
  let carry = '';
  let lines = 0;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = carry + chunk;
      let pos = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', pos)) {
        reader.push(text.slice(pos, nl), true);
        lines++;
        pos = nl + 1;
      }
      carry = text.slice(pos);
      if (carry.length > maxLineChars) {
        throw new RatchetError(
          'journalCorrupt',
          `${eventsPath} line ${lines + 1} runs past ${formatSize(maxLineChars)} without ending; the journal is damaged and cannot be replayed past it.`,
          { file: eventsPath, line: lines + 1 },
        );
      }
      await options.afterChunk?.();
      if (until !== undefined && reader.events >= until) return { events: until, tornTail: false };
    }
  } finally {
    stream.destroy();
  }
  if (carry !== '') reader.push(carry, false);
  const { tornTail } = reader.end();
  return { events: reader.events, tornTail };
}
