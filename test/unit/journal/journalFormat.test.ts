// The journal's format number (run.json `format`, covering events.jsonl too): a newer one is
// refused by name before anything is read, an older one is read (#14 §6).
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import { CryptoEntropy } from '../../../src/node/entropy';
import { JOURNAL_FORMAT, checkJournalFormat, createJournal, readRunRecord } from '../../../src/core/journal/journal';
import { NodeFiles } from '../../../src/node/files';
import { ManualClock, NEW_RUN, tempWorkspace } from './journalHelpers';

const files = new NodeFiles();
let root: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ root, dispose } = await tempWorkspace());
});
afterEach(async () => dispose());

async function runJsonWith(edit: (record: Record<string, unknown>) => void): Promise<string> {
  const writer = await createJournal({ files, clock: new ManualClock(), entropy: new CryptoEntropy() }, root, NEW_RUN);
  const record = JSON.parse(await readFile(writer.paths.runJson, 'utf8')) as Record<string, unknown>;
  edit(record);
  await writeFile(writer.paths.runJson, JSON.stringify(record));
  return writer.paths.runJson;
}

function thrownBy(f: () => unknown): RatchetError {
  try {
    f();
  } catch (err) {
    if (err instanceof RatchetError) return err;
    throw err;
  }
  throw new Error('nothing thrown');
}

describe('journal format', () => {
  it('is written into run.json', async () => {
    const path = await runJsonWith(() => undefined);
    expect((await readRunRecord(files, path)).format).toBe(JOURNAL_FORMAT);
  });

  it('a run.json from before the field reads as format 1', async () => {
    const path = await runJsonWith((r) => delete r.format);
    expect((await readRunRecord(files, path)).format).toBe(1);
  });

  it('a newer format is refused naming the file and both versions', async () => {
    const path = await runJsonWith((r) => {
      r.format = JOURNAL_FORMAT + 2;
      // A newer format may have renamed the fields; the message is still about the version.
      delete r.seed;
    });
    const err = await readRunRecord(files, path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RatchetError);
    expect((err as RatchetError).code).toBe('journalTooNew');
    expect((err as RatchetError).message).toBe(`${path} was written by a newer Ratchet (format ${JOURNAL_FORMAT + 2}); this one reads up to ${JOURNAL_FORMAT} — update Ratchet.`);
  });

  it('a format that is not a number is corruption', () => {
    expect(thrownBy(() => checkJournalFormat({ format: 'two' }, 'run.json')).code).toBe('journalCorrupt');
    expect(thrownBy(() => checkJournalFormat({ format: 0 }, 'run.json')).code).toBe('journalCorrupt');
  });
});
