import { readFile, readdir, writeFile, appendFile } from 'node:fs/promises';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { Files } from '../../../src/core/ports';
import type { EngineEvent } from '../../../src/core/journal/events';
import { createJournal, readRunRecord, resumeJournal, runPaths } from '../../../src/core/journal/journal';
import { readJournal } from '../../../src/core/journal/replay';
import { replayingEmitter } from '../../../src/core/journal/resume';
import { isRunId } from '../../../src/core/journal/runId';
import { CryptoEntropy } from '../../../src/node/entropy';
import { NodeFiles } from '../../../src/node/files';
import { ManualClock, NEW_RUN, numbered, sampleEvents, tempWorkspace } from './journalHelpers';

const files = new NodeFiles();
let root: string;
let dispose: () => Promise<void>;
let clock: ManualClock;

beforeEach(async () => {
  ({ root, dispose } = await tempWorkspace());
  clock = new ManualClock();
});
afterEach(async () => dispose());

function ports() {
  return { files, clock, entropy: new CryptoEntropy() };
}

/** An id source that repeats itself: `draws` in order, then the last one forever. */
function scripted(...draws: number[]) {
  let i = 0;
  return { int: () => draws[Math.min(i++, draws.length - 1)]! };
}

describe('journal round trip through the real file system', () => {
  it('reads back exactly the events written, with run.json holding the spec and metadata', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    const events = sampleEvents(writer.runId, clock.now());
    const appended = [];
    for (const e of events) appended.push(await writer.append(e));

    expect(appended).toEqual(numbered(events));
    expect(isRunId(writer.runId)).toBe(true);
    expect(writer.runId.startsWith('20261129-223412-')).toBe(true);
    const paths = runPaths(files, root, writer.runId);
    expect(paths.dir).toBe(path.join(root, '.ratchet', 'runs', writer.runId));
    expect(await readJournal(files, paths.events)).toEqual({ events: numbered(events), tornTail: false, validLength: expect.any(Number) });
    expect(JSON.parse(await readFile(paths.runJson, 'utf8'))).toEqual({
      format: 1,
      runId: writer.runId,
      kind: 'evolve',
      target: 'math/word-problems.prompt.md',
      createdAt: '2026-11-29T22:34:12.000Z',
      seed: 7,
      version: '0.1.0-test',
      spec: NEW_RUN.spec,
    });
    expect(await readRunRecord(files, paths.runJson)).toEqual(writer.record);
    expect(writer.eventCount).toBe(events.length);
  });

  it('writes one line per event, in call order, even when appends are not awaited one by one', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    const events = Array.from({ length: 60 }, (_, i): EngineEvent => ({ runId: writer.runId, at: i, type: 'log', level: 'info', message: `step ${i}` }));
    const appended = await Promise.all(events.map((e) => writer.append(e)));
    const text = await readFile(writer.paths.events, 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message: string; seq: number });
    expect(lines.map((l) => [l.seq, l.message])).toEqual(events.map((_, i) => [i + 1, `step ${i}`]));
    expect(appended.map((e) => e.seq)).toEqual(lines.map((l) => l.seq));
  });

  it('resolves an append only after the durable write has completed', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let entered: () => void = () => undefined;
    const writing = new Promise<void>((r) => (entered = r));
    const slow: Files = Object.assign(Object.create(files) as Files, {
      appendDurable: async (p: string, t: string) => {
        if (t !== '') {
          entered();
          await gate;
        }
        await files.appendDurable(p, t);
      },
    });
    const writer = await createJournal({ ...ports(), files: slow }, root, NEW_RUN);
    let resolved = false;
    const pending = writer.append({ runId: writer.runId, at: 1, type: 'run/cancelled' }).then(() => (resolved = true));
    // The write has started and is held; a turn of the event loop lets anything that could settle the append run.
    await writing;
    await new Promise<void>((r) => setImmediate(r));
    expect(resolved).toBe(false);
    release();
    await pending;
    expect(await readFile(writer.paths.events, 'utf8')).toBe(`{"runId":"${writer.runId}","at":1,"type":"run/cancelled","seq":1}\n`);
  });

  it('gives two runs started in the same millisecond different ids and folders', async () => {
    const a = await createJournal(ports(), root, NEW_RUN);
    const b = await createJournal(ports(), root, NEW_RUN);
    expect(a.runId).not.toBe(b.runId);
    expect((await readdir(path.join(root, '.ratchet', 'runs'))).sort()).toEqual([a.runId, b.runId].sort());
    expect((await readRunRecord(files, a.paths.runJson)).runId).toBe(a.runId);
    expect((await readRunRecord(files, b.paths.runJson)).runId).toBe(b.runId);
  });

  it('never shares a folder, even when both runs draw the same id (as one seed once made them do)', async () => {
    const a = await createJournal({ ...ports(), entropy: scripted(0xabc) }, root, NEW_RUN);
    const b = await createJournal({ ...ports(), entropy: scripted(0xabc, 0xdef) }, root, NEW_RUN);
    expect([a.runId, b.runId]).toEqual(['20261129-223412-000abc', '20261129-223412-000def']);
    await a.append({ runId: a.runId, at: 1, type: 'log', level: 'info', message: 'a' });
    await b.append({ runId: b.runId, at: 1, type: 'log', level: 'info', message: 'b' });
    expect((await readJournal(files, a.paths.events)).events.map((e) => e.type === 'log' && e.message)).toEqual(['a']);
    expect((await readJournal(files, b.paths.events)).events.map((e) => e.type === 'log' && e.message)).toEqual(['b']);
  });

  it('leaves a folder another process made between choosing the id and creating it, and takes the next id', async () => {
    // The other process wins the race for 000abc: its folder appears just before our mkdir.
    let raced = false;
    const racing: Files = Object.assign(Object.create(files) as Files, {
      mkdirExclusive: async (dir: string) => {
        if (!raced) {
          raced = true;
          await files.mkdirExclusive(dir);
          await writeFile(path.join(dir, 'run.json'), 'the other run\n');
        }
        return files.mkdirExclusive(dir);
      },
    });
    const writer = await createJournal({ files: racing, clock, entropy: scripted(0xabc, 0xdef) }, root, NEW_RUN);
    expect(writer.runId).toBe('20261129-223412-000def');
    expect(await readFile(path.join(root, '.ratchet', 'runs', '20261129-223412-000abc', 'run.json'), 'utf8')).toBe('the other run\n');
    expect(await readdir(path.join(root, '.ratchet', 'runs', '20261129-223412-000abc'))).toEqual(['run.json']);
    expect((await readRunRecord(files, writer.paths.runJson)).runId).toBe(writer.runId);
  });

  it('gives up with an error after 32 taken ids rather than share a folder', async () => {
    const first = await createJournal({ ...ports(), entropy: scripted(1) }, root, NEW_RUN);
    const err = await createJournal({ ...ports(), entropy: scripted(1) }, root, NEW_RUN).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'internal')).toBe(true);
    expect((err as Error).message).toBe(`Could not find a free run id under ${path.join(root, '.ratchet', 'runs')} after 32 tries.`);
    expect(await readdir(path.join(root, '.ratchet', 'runs'))).toEqual([first.runId]);
  });

  it('names runs so that string order is start-time order', async () => {
    const ids: string[] = [];
    for (const t of [Date.UTC(2026, 0, 2, 3, 4, 5), Date.UTC(2026, 0, 2, 3, 4, 6), Date.UTC(2026, 9, 1), Date.UTC(2027, 0, 1)]) {
      clock.t = t;
      ids.push((await createJournal(ports(), root, NEW_RUN)).runId);
    }
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]!.slice(0, 15)).toBe('20260102-030405');
  });
});

describe('seq', () => {
  it('numbers a run 1…N without gaps across a resume that replays it, its waits and its resume marker included', async () => {
    const first = await createJournal(ports(), root, NEW_RUN);
    const runId = first.runId;
    const proposed = (id: string, at: number): EngineEvent => ({ runId, at, type: 'candidate/proposed', candidateId: id, parentId: undefined, contentHash: id, text: id });
    const waiting = (at: number): EngineEvent => ({ runId, at, type: 'llm/waiting', role: 'agent', model: 'm', why: 'rate-limited', waitMs: 1000, message: '429' });
    const before = [proposed('v0', 1), waiting(2), proposed('c1', 3), { runId, at: 4, type: 'run/failed', error: { code: 'llmNetwork', message: 'down' } } as EngineEvent];
    for (const e of before) await first.append(e);

    // The second process: its engine runs from the start; what the journal holds is checked, not written.
    const { writer, replay } = await resumeJournal(files, root, runId);
    const written: number[] = [];
    const write = async (e: EngineEvent) => void written.push((await writer.append(e)).seq);
    await write({ runId, at: 10, type: 'run/resumed', elapsedMs: 3 });
    const { emit } = replayingEmitter(runId, replay.events, write);
    const after = [proposed('v0', 11), proposed('c1', 12), waiting(13), proposed('c2', 14), { runId, at: 15, type: 'run/cancelled' } as EngineEvent];
    for (const e of after) await emit(e);

    expect(written).toEqual([5, 6, 7, 8]);
    const text = await readFile(writer.paths.events, 'utf8');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { seq: number; type: string });
    expect(lines.map((l) => [l.seq, l.type])).toEqual([
      [1, 'candidate/proposed'],
      [2, 'llm/waiting'],
      [3, 'candidate/proposed'],
      [4, 'run/failed'],
      [5, 'run/resumed'],
      [6, 'llm/waiting'],
      [7, 'candidate/proposed'],
      [8, 'run/cancelled'],
    ]);
    expect((await readJournal(files, writer.paths.events)).events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('writer refusals', () => {
  it('refuses an event after a terminal one, an event of another run, and a malformed event, writing nothing', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    await expect(writer.append({ runId: 'other', at: 1, type: 'run/cancelled' })).rejects.toThrow(/run other was sent to the journal of run/);
    await expect(writer.append({ runId: writer.runId, at: 1, type: 'item/evaluated', candidateId: 'c1', itemId: 'x', score: NaN, cached: false })).rejects.toThrow(
      'Refusing to journal a malformed event: item/evaluated field "score" should be a number, got null.',
    );
    await writer.append({ runId: writer.runId, at: 2, type: 'run/finished', commits: 0, candidates: 0, incumbentId: undefined });
    await expect(writer.append({ runId: writer.runId, at: 3, type: 'run/cancelled' })).rejects.toThrow(/already ended with run\/finished/);
    // A refused event takes no seq: the one written is the first.
    expect((await readJournal(files, writer.paths.events)).events.map((e) => [e.seq, e.type])).toEqual([[1, 'run/finished']]);
  });

  it('fails every later append once a write failed, so the journal never has a hole', async () => {
    let failNext = false;
    const flaky: Files = Object.assign(Object.create(files) as Files, {
      appendDurable: async (p: string, t: string) => {
        if (failNext) {
          failNext = false;
          throw new Error('ENOSPC: no space left on device');
        }
        await files.appendDurable(p, t);
      },
    });
    const writer = await createJournal({ ...ports(), files: flaky }, root, NEW_RUN);
    const log = (i: number): EngineEvent => ({ runId: writer.runId, at: i, type: 'log', level: 'info', message: `m${i}` });
    await writer.append(log(1));
    failNext = true;
    await expect(writer.append(log(2))).rejects.toThrow('ENOSPC');
    const err = await writer.append(log(3)).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'internal')).toBe(true);
    expect((err as Error).message).toContain('stopped accepting events after a failed write');
    expect((await readJournal(files, writer.paths.events)).events).toEqual(numbered([log(1)]));
  });
});

describe('torn last line', () => {
  it('is ignored by the reader, cut off by a resuming writer, and the journal reads clean afterwards', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    const events = sampleEvents(writer.runId, clock.now()).slice(0, 5);
    for (const e of events) await writer.append(e);
    const intact = await readFile(writer.paths.events, 'utf8');
    // The process died half-way through writing the sixth line.
    await appendFile(writer.paths.events, `{"runId":"${writer.runId}","at":99,"type":"wealth/st`);

    const replay = await readJournal(files, writer.paths.events);
    expect(replay).toEqual({ events: numbered(events), tornTail: true, validLength: intact.length });

    const resumed = await resumeJournal(files, root, writer.runId);
    expect(resumed.replay.events).toEqual(numbered(events));
    expect(resumed.writer.eventCount).toBe(5);
    expect(await readFile(writer.paths.events, 'utf8')).toBe(intact);

    // The resumed writer numbers on from the last whole line; the torn one never had a number.
    const next: EngineEvent = { runId: writer.runId, at: 100, type: 'log', level: 'info', message: 'resumed after a crash' };
    expect(await resumed.writer.append(next)).toEqual({ ...next, seq: 6 });
    expect(await readJournal(files, writer.paths.events)).toEqual({ events: numbered([...events, next]), tornTail: false, validLength: expect.any(Number) });
    expect(await readFile(writer.paths.events, 'utf8')).toBe(`${intact}${JSON.stringify({ ...next, seq: 6 })}\n`);
  });

  it('counts an unparsable last line as torn even when a newline follows it', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    const [first] = sampleEvents(writer.runId, 0);
    await writer.append(first!);
    // What a power cut can leave on some file systems: the size grew, the bytes are zeros.
    await appendFile(writer.paths.events, '\u0000\u0000\u0000\u0000\n');
    expect(await readJournal(files, writer.paths.events)).toMatchObject({ events: [first], tornTail: true });
  });

  it('refuses to resume a run that already ended', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    await writer.append({ runId: writer.runId, at: 1, type: 'run/cancelled' });
    await expect(resumeJournal(files, root, writer.runId)).rejects.toThrow(`Run ${writer.runId} already ended with run/cancelled; start a new run instead of resuming it.`);
  });
});

describe('corruption before the last line', () => {
  it('is a journalCorrupt error naming the file and line', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    const events = sampleEvents(writer.runId, 0);
    const lines = events.map((e) => JSON.stringify(e));
    lines[2] = lines[2]!.slice(0, 40);
    await writeFile(writer.paths.events, `${lines.join('\n')}\n`);
    const err = await readJournal(files, writer.paths.events).catch((e: unknown) => e);
    expect(RatchetError.is(err, 'journalCorrupt')).toBe(true);
    expect((err as RatchetError).message).toMatch(new RegExp(`^${escape(writer.paths.events)} line 3 is not valid JSON: .+; the run cannot be replayed past it\\.$`));
    expect((err as RatchetError).details).toEqual({ file: writer.paths.events, line: 3 });
    // A resume must not paper over it either.
    await expect(resumeJournal(files, root, writer.runId)).rejects.toThrow(/line 3 is not valid JSON/);
  });
});

describe('run.json', () => {
  it('is written atomically: no temp files are left beside it and a rewrite replaces it whole', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    expect((await readdir(writer.paths.dir)).sort()).toEqual(['events.jsonl', 'run.json']);
    const big = `${JSON.stringify({ ...writer.record, spec: { blob: 'x'.repeat(2_000_000) } })}\n`;
    const small = `${JSON.stringify(writer.record)}\n`;
    await files.writeTextAtomic(writer.paths.runJson, small);
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        const text = await readFile(writer.paths.runJson, 'utf8');
        seen.add(text === big ? 'big' : text === small ? 'small' : 'torn');
      }
    })();
    for (let i = 0; i < 6; i++) await files.writeTextAtomic(writer.paths.runJson, i % 2 === 0 ? big : small);
    stop = true;
    await reader;
    expect(seen.has('torn')).toBe(false);
    expect((await readdir(writer.paths.dir)).sort()).toEqual(['events.jsonl', 'run.json']);
  });

  it('reports a damaged run.json with its path', async () => {
    const writer = await createJournal(ports(), root, NEW_RUN);
    await writeFile(writer.paths.runJson, '{"runId": 3}');
    await expect(readRunRecord(files, writer.paths.runJson)).rejects.toThrow(`${writer.paths.runJson} has no string field "runId"; fix or remove that run folder.`);
  });
});

describe('secrets', () => {
  it('never reach run.json or events.jsonl', async () => {
    const key = 'sk-proj-AbCdEf0123456789ghIJKLmnop';
    const writer = await createJournal(ports(), root, {
      ...NEW_RUN,
      spec: { roles: { agent: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: key } }, headers: { Authorization: 'Bearer abcdefghijklmnop' } },
    });
    await writer.append({ runId: writer.runId, at: 1, type: 'log', level: 'warn', message: `401 from the endpoint with key ${key}` });
    await writer.append({ runId: writer.runId, at: 2, type: 'run/failed', error: { code: 'llmHttp', message: `Incorrect API key provided: ${key}.` } });
    const written = (await readFile(writer.paths.runJson, 'utf8')) + (await readFile(writer.paths.events, 'utf8'));
    expect(written).not.toContain(key);
    expect(written).not.toContain('abcdefghijklmnop');
    const record = await readRunRecord(files, writer.paths.runJson);
    expect(record.spec).toEqual({
      roles: { agent: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: '[redacted]' } },
      headers: { Authorization: '[redacted]' },
    });
    const { events } = await readJournal(files, writer.paths.events);
    expect(events[0]).toEqual({ runId: writer.runId, at: 1, type: 'log', level: 'warn', message: '401 from the endpoint with key [redacted]', seq: 1 });
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
