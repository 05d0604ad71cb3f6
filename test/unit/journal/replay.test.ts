import { describe, expect, it } from 'vitest';
import { RatchetError } from '../../../src/core/errors';
import type { EngineEvent } from '../../../src/core/journal/events';
import { parseJournal } from '../../../src/core/journal/replay';
import { numbered, sampleEvents } from './journalHelpers';

const FILE = '/ws/.ratchet/runs/r/events.jsonl';
const events = sampleEvents('r', 1_000);
const jsonl = (es: readonly unknown[]): string => es.map((e) => `${JSON.stringify(e)}\n`).join('');

function corruptMessage(text: string): string {
  try {
    parseJournal(text, FILE);
  } catch (err) {
    expect(RatchetError.is(err, 'journalCorrupt')).toBe(true);
    return (err as Error).message;
  }
  throw new Error('expected a journalCorrupt error');
}

describe('parseJournal', () => {
  it('reads every event of a clean journal', () => {
    const text = jsonl(numbered(events));
    expect(parseJournal(text, FILE)).toEqual({ events: numbered(events), tornTail: false, validLength: text.length });
  });

  it('numbers the events of a journal written before events carried a seq by their place, and those after on from there', () => {
    // A run journaled by an older version, then resumed by this one.
    const text = jsonl([...events.slice(0, 4), ...numbered(events.slice(4), 5)]);
    expect(parseJournal(text, FILE).events).toEqual(numbered(events));
  });

  it('names a line whose seq is not its place: lines were lost or copied', () => {
    const [a, b, c] = numbered(events);
    expect(corruptMessage(jsonl([a, c, b]))).toBe(`${FILE} line 2 has seq 3 where 2 was expected; the run cannot be replayed past it.`);
    expect(corruptMessage(jsonl([a, b, b, c]))).toBe(`${FILE} line 3 has seq 2 where 3 was expected; the run cannot be replayed past it.`);
  });

  it('reads an empty journal (a run that died before its first event) as no events', () => {
    expect(parseJournal('', FILE)).toEqual({ events: [], tornTail: false, validLength: 0 });
  });

  it('drops a last line without its newline even when it parses, because its write was never acknowledged', () => {
    const text = jsonl(events.slice(0, 3));
    expect(parseJournal(text + JSON.stringify(events[3]), FILE)).toEqual({ events: numbered(events.slice(0, 3)), tornTail: true, validLength: text.length });
  });

  it('drops a half-written last line', () => {
    const text = jsonl(events.slice(0, 2));
    expect(parseJournal(`${text}{"runId":"r","at":3,"ty`, FILE)).toEqual({ events: numbered(events.slice(0, 2)), tornTail: true, validLength: text.length });
  });

  it('tolerates blank lines and Windows line ends an editor may add', () => {
    const text = `\uFEFF${JSON.stringify(events[0])}\r\n\n${JSON.stringify(events[1])}\r\n\n`;
    expect(parseJournal(text, FILE)).toEqual({ events: numbered(events.slice(0, 2)), tornTail: false, validLength: text.length });
  });

  it('names the line of invalid JSON before the last line', () => {
    const lines = jsonl(events).split('\n');
    lines[6] = '{"runId":"r","at":7,"type":"decision",';
    expect(corruptMessage(lines.join('\n'))).toMatch(/^\/ws\/\.ratchet\/runs\/r\/events\.jsonl line 7 is not valid JSON: .*; the run cannot be replayed past it\.$/);
  });

  it.each([
    [{ runId: 'r', at: 5, type: 'wealth/grew' }, 'unknown event type "wealth/grew"'],
    [[1, 2, 3], 'not a JSON object'],
    [{ runId: 'r', type: 'log', level: 'info', message: 'm' }, 'log has no numeric "at"'],
    [{ runId: 'r', at: 5, type: 'item/evaluated', candidateId: 'c1', itemId: 'i', score: '1', cached: false }, 'item/evaluated field "score" should be a number, got "1"'],
    [{ runId: 'r', at: 5, type: 'decision' }, 'decision field "record" should be an object, got nothing'],
    [{ runId: 'r', at: 5, type: 'run/cancelled', seq: 0 }, 'run/cancelled field "seq" should be a whole number of at least 1, got 0'],
    [{ runId: 'r', at: 5, type: 'run/cancelled', seq: '2' }, 'run/cancelled field "seq" should be a whole number of at least 1, got "2"'],
  ])('names a line that is JSON but not an engine event: %j', (bad, problem) => {
    const text = jsonl([events[0], bad, events[1]]);
    expect(corruptMessage(text)).toBe(`${FILE} line 2 is not an engine event (${problem}); the run cannot be replayed past it.`);
  });

  it('treats a well-formed last line of the wrong shape as corruption, not as a torn write', () => {
    expect(corruptMessage(jsonl([events[0], { hello: 'world' }]))).toBe(`${FILE} line 2 is not an engine event (no "type" field); the run cannot be replayed past it.`);
  });

  it('keeps optional fields absent rather than inventing them', () => {
    const e: EngineEvent = { runId: 'r', at: 1, type: 'candidate/proposed', candidateId: 'c1', parentId: undefined, contentHash: 'h', text: 't' };
    const [back] = parseJournal(jsonl([e]), FILE).events;
    expect(back).toEqual({ ...e, seq: 1 });
    expect(Object.keys(back!)).not.toContain('parentId');
  });
});
