// The daemon's link to its client: a call made while no editor is attached waits for one; a call
// whose client went away unanswered is asked again of the next client; a client's real error is
// the call's error; a run that stops ends its waiting calls. Real vscode-jsonrpc connections over
// in-memory streams stand for the sockets.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RequestType, ResponseError } from 'vscode-jsonrpc';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { RatchetError } from '../../../src/core/errors';
import { ClientLink } from '../../../src/daemon/clientLink';

const Ask = new RequestType<{ q: string }, { a: string }, void>('test/ask');

/** Two ends of one duplex channel: `daemonEnd` is what the daemon holds, `clientEnd` the editor's server. */
function channel(): { daemonEnd: MessageConnection; clientEnd: MessageConnection; cut: () => void } {
  const toClient = new PassThrough();
  const toDaemon = new PassThrough();
  const daemonEnd = createMessageConnection(new StreamMessageReader(toDaemon), new StreamMessageWriter(toClient));
  const clientEnd = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toDaemon));
  daemonEnd.listen();
  return { daemonEnd, clientEnd, cut: () => (toDaemon.end(), toClient.end()) };
}

/** Lets every pending I/O callback and promise run once: enough for anything already possible to happen. */
const turn = () => new Promise<void>((r) => setImmediate(r));

/** Resolves the first time `test` holds for a value `watch` is given. */
function when<T>(test: (v: T) => boolean): { watch: (v: T) => void; seen: Promise<void> } {
  let seen!: () => void;
  const p = new Promise<void>((r) => (seen = r));
  return { watch: (v) => test(v) && seen(), seen: p };
}

function linkWith(changes: boolean[] = [], onChange: (attached: boolean) => void = () => undefined) {
  const link = new ClientLink((attached) => {
    changes.push(attached);
    onChange(attached);
  });
  const attach = (answer: (q: string) => Promise<string> | string) => {
    const c = channel();
    c.clientEnd.onRequest(Ask, async (p) => ({ a: await answer(p.q) }));
    c.clientEnd.listen();
    c.daemonEnd.onClose(() => link.closed(c.daemonEnd));
    link.attach(c.daemonEnd);
    return c;
  };
  return { link, attach };
}

describe('ClientLink', () => {
  it('a call made with no client attached waits, and the first client to attach answers it', async () => {
    const { link, attach } = linkWith();
    const answer = link.call(Ask, { q: 'accept c1?' }, new AbortController().signal);
    let settled = false;
    void answer.then(() => (settled = true));
    // Nobody is attached, so nothing can answer it: a turn of the event loop would show otherwise.
    await turn();
    expect(settled).toBe(false);
    attach((q) => `yes to ${q}`);
    await expect(answer).resolves.toEqual({ a: 'yes to accept c1?' });
  });

  it('a client that goes away before answering: the same question goes to the next client', async () => {
    const changes: boolean[] = [];
    const detached = when<boolean>((attached) => !attached);
    const { link, attach } = linkWith(changes, detached.watch);
    const asked: string[] = [];
    const firstAsked = when<string>(() => true);
    const first = attach((q) => {
      asked.push(`first: ${q}`);
      firstAsked.watch(q);
      return new Promise<string>(() => undefined); // the window reloads before the user answers
    });
    const answer = link.call(Ask, { q: 'accept c2?' }, new AbortController().signal);
    await firstAsked.seen;
    first.cut();
    await detached.seen;
    expect(link.attached).toBe(false);
    attach((q) => {
      asked.push(`second: ${q}`);
      return 'accept';
    });
    await expect(answer).resolves.toEqual({ a: 'accept' });
    expect(asked).toEqual(['first: accept c2?', 'second: accept c2?']);
    expect(changes).toEqual([true, false, true]);
  });

  it('a newer client takes over from one still attached, and gets the questions left unanswered', async () => {
    const { link, attach } = linkWith();
    const firstAsked = when<string>(() => true);
    attach((q) => {
      firstAsked.watch(q);
      return new Promise<string>(() => undefined);
    });
    const answer = link.call(Ask, { q: 'q' }, new AbortController().signal);
    await firstAsked.seen;
    attach(() => 'from the new window');
    await expect(answer).resolves.toEqual({ a: 'from the new window' });
  });

  it("the client's own error is the call's error, not a reason to ask again", async () => {
    const { link, attach } = linkWith();
    attach(() => {
      throw new ResponseError(1, 'no model installed');
    });
    await expect(link.call(Ask, { q: 'chat' }, new AbortController().signal)).rejects.toThrow('no model installed');
  });

  it('a run that stops ends its waiting calls with its reason', async () => {
    const { link } = linkWith();
    const controller = new AbortController();
    const answer = link.call(Ask, { q: 'accept c3?' }, controller.signal);
    controller.abort(new RatchetError('cancelled', 'Cancelled by the user.'));
    await expect(answer).rejects.toMatchObject({ code: 'cancelled', message: 'Cancelled by the user.' });
  });
});
