// The RunFeed: live notifications and journal reads overlap, and the store ends up with each event
// of the run once, in seq order, whatever order they came in.
import { describe, expect, it } from 'vitest';
import type { JournaledEvent } from '../../../src/core/journal/events';
import type { Replay } from '../../../src/core/journal/replay';
import { RunStore } from '../../../src/extension/runs/runStore';
import { RunFeed } from '../../../src/extension/runs/runFeed';
import type { RunJournals } from '../../../src/extension/runs/runFeed';
import { RUN, decided, ev, proposed, started, step } from '../webview/events';

const WS = '/w';

/** Ten events numbered as the journal numbers them. */
function runEvents(): JournaledEvent[] {
  const events = [
    started(),
    proposed('c0', undefined),
    proposed('c1', 'c0'),
    step('c1', 1, 1, Math.log(1.5)),
    step('c1', 2, 1, Math.log(2.5)),
    decided('c1', 'commit'),
    proposed('c2', 'c1'),
    step('c2', 1, -1, Math.log(0.5)),
    decided('c2', 'reject'),
    ev('run/finished', { commits: 1, candidates: 3, incumbentId: 'c1' }),
  ];
  return events.map((e, i) => ({ ...e, seq: i + 1 }) as JournaledEvent);
}

/**
 * A journal the test writes to; a read sees what was written when it began and answers when the
 * test lets it (`answer`), so notifications can race it.
 */
class FakeJournals implements RunJournals {
  written: JournaledEvent[] = [];
  reads = 0;
  private pending: (() => void)[] = [];

  exists(workspace: string, runId: string): Promise<boolean> {
    return Promise.resolve(workspace === WS && runId === RUN);
  }

  read(): Promise<Replay> {
    this.reads++;
    const events = [...this.written];
    return new Promise((resolve) => this.pending.push(() => resolve({ events, tornTail: false, validLength: 0 })));
  }

  /** Answers the reads begun so far, and lets the feed go on. */
  async answer(): Promise<void> {
    const now = this.pending;
    this.pending = [];
    for (const a of now) a();
    await new Promise((r) => setTimeout(r, 0));
  }
}

function setup() {
  const store = new RunStore();
  const journals = new FakeJournals();
  const warnings: string[] = [];
  const feed = new RunFeed(store, journals, { warn: (m) => warnings.push(m) });
  const folded: number[] = [];
  store.onEvent((_runId, e) => folded.push(e.seq!));
  /** The run's event is journaled, then (unless lost) notified. */
  const emit = (e: JournaledEvent, notify = true) => {
    journals.written.push(e);
    if (notify) feed.onRunEvent({ runId: RUN, uri: 'file:///w/x.prompt.md', workspace: WS, event: e });
  };
  const whole = () => {
    const s = new RunStore();
    s.appendAll(journals.written);
    return s.snapshot(RUN);
  };
  return { store, journals, warnings, feed, folded, emit, whole };
}

describe('RunFeed', () => {
  it('folds live events as they come, reading no journal', () => {
    const { journals, folded, emit, whole, store } = setup();
    for (const e of runEvents()) emit(e);
    expect([folded, journals.reads]).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0]);
    expect(store.snapshot(RUN)).toEqual(whole());
  });

  it('fills a run first heard of mid-way from its journal, with the events that raced the read, each once and in order', async () => {
    const { journals, folded, emit, whole, store } = setup();
    const events = runEvents();
    for (const e of events.slice(0, 4)) emit(e, false); // before the window reloaded
    emit(events[4]!); // the first notification the new window hears: a gap after 0
    emit(events[5]!); // while the journal is read
    expect([folded, journals.reads]).toEqual([[], 1]);
    await journals.answer(); // the read began before event 6 was written; it holds 1…5
    expect([folded, journals.reads]).toEqual([[1, 2, 3, 4, 5, 6], 1]);
    for (const e of events.slice(6)) emit(e);
    expect(folded).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(store.snapshot(RUN)).toEqual(whole());
  });

  it('reads the journal after the last seq it holds when a notification was lost, and reads again for a gap that opened meanwhile', async () => {
    const { journals, folded, emit, whole, store } = setup();
    const events = runEvents();
    for (const e of events.slice(0, 3)) emit(e);
    emit(events[3]!, false); // lost
    emit(events[4]!); // gap after 3: the journal is read
    emit(events[5]!, false); // lost while the read is under way
    emit(events[6]!); // another gap: read again once this read is done
    await journals.answer();
    expect([folded, journals.reads]).toEqual([[1, 2, 3, 4, 5], 2]);
    await journals.answer();
    expect([folded, journals.reads]).toEqual([[1, 2, 3, 4, 5, 6, 7], 2]);
    for (const e of events.slice(7)) emit(e);
    expect(store.snapshot(RUN)).toEqual(whole());
  });

  it('shows the run past a gap its journal cannot fill, and says so', async () => {
    const { journals, folded, emit, warnings, feed } = setup();
    const events = runEvents();
    emit(events[0]!);
    feed.onRunEvent({ runId: RUN, uri: 'file:///w/x.prompt.md', workspace: WS, event: events[2]! }); // never journaled here
    await journals.answer();
    expect(folded).toEqual([1, 3]);
    expect(warnings).toEqual([`Run ${RUN}: its journal lacks events after seq 1; the run is shown without them.`]);
  });

  it('loads a run picked from a list once, from the folder that has its journal', async () => {
    const { journals, folded, emit, feed } = setup();
    for (const e of runEvents()) emit(e, false);
    const loading = feed.loadFromFolders(['/elsewhere', WS], RUN);
    await new Promise((r) => setTimeout(r, 0));
    await journals.answer();
    expect(await loading).toBe(true);
    await feed.load(WS, RUN);
    expect([folded.length, journals.reads]).toEqual([10, 1]);
    expect(await feed.loadFromFolders(['/elsewhere'], RUN)).toBe(false);
  });
});
