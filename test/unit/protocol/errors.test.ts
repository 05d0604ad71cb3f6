// One error shape across both wires: a RatchetError thrown in the daemon reaches the editor with
// its code, message and details unchanged, through the language server; anything else arrives as
// `internal`; only message, code and details cross (never a cause); a connection that goes away
// under a waiting request reads as a loss. Real vscode-jsonrpc connections over in-memory streams
// stand for the socket and the LSP pipe, and the editor's end is a second copy of vscode-jsonrpc,
// as in the extension, whose lazily loaded client bundles its own.
import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, RequestType, ResponseError } from 'vscode-jsonrpc';
import * as jsonrpc from 'vscode-jsonrpc/node';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { diagnostic, lineLocation } from '../../../src/core/data/diagnostics';
import { RatchetError } from '../../../src/core/errors';
import { fromWireError, guarded, isConnectionLoss, toWireError } from '../../../src/protocol/errors';
import type { RatchetErrorData } from '../../../src/protocol/errors';

type Jsonrpc = typeof jsonrpc;
const Ask = new RequestType<{ q: string }, { a: string }, RatchetErrorData>('test/ask');

/** vscode-jsonrpc loaded a second time, its classes distinct from the ones imported above. */
function secondCopy(): Jsonrpc {
  const require = createRequire(import.meta.url);
  const ours = (k: string) => k.includes(`${sep}vscode-jsonrpc${sep}`);
  const saved = Object.entries(require.cache).filter(([k]) => ours(k));
  for (const [k] of saved) delete require.cache[k];
  const copy = require('vscode-jsonrpc/node') as Jsonrpc;
  // Everyone else keeps the first copy.
  for (const k of Object.keys(require.cache).filter(ours)) delete require.cache[k];
  for (const [k, m] of saved) require.cache[k] = m;
  return copy;
}

/** Two ends of one duplex channel, each from its own library copy. */
function channel(callerLib: Jsonrpc = jsonrpc): { caller: MessageConnection; callee: MessageConnection; cut: () => void } {
  const up = new PassThrough();
  const down = new PassThrough();
  const caller = callerLib.createMessageConnection(new callerLib.StreamMessageReader(down), new callerLib.StreamMessageWriter(up));
  const callee = jsonrpc.createMessageConnection(new jsonrpc.StreamMessageReader(up), new jsonrpc.StreamMessageWriter(down));
  caller.listen();
  return { caller, callee, cut: () => (up.end(), down.end()) };
}

/**
 * daemon ← server ← editor: the daemon's handler runs `daemon`; the server forwards each request
 * to it as runDaemonLink does (its failure read back with fromWireError) behind the same guard.
 */
function threeHops(daemon: (q: string) => Promise<string>, editorLib: Jsonrpc = jsonrpc) {
  const socket = channel();
  socket.callee.onRequest(
    Ask,
    guarded(async (p) => ({ a: await daemon(p.q) })),
  );
  socket.callee.listen();
  const lsp = channel(editorLib);
  lsp.callee.onRequest(
    Ask,
    guarded(async (p) => {
      try {
        return await socket.caller.sendRequest(Ask, p);
      } catch (err) {
        throw fromWireError(err);
      }
    }),
  );
  lsp.callee.listen();
  // By method name: the type object belongs to the first copy (as in the extension, serverHost.ts).
  return (q: string) =>
    lsp.caller.sendRequest<{ a: string }>(Ask.method, { q }).then(
      () => {
        throw new Error('expected the request to fail');
      },
      (err: unknown) => err,
    );
}

const where = lineLocation('/ws/task.ratchet.yaml', 3, 12);
const badInput = () =>
  new RatchetError('badInput', '/ws/task.ratchet.yaml:3:1: dataset data/missing.jsonl does not exist', {
    file: '/ws/task.ratchet.yaml',
    line: 3,
    column: 1,
    field: 'dataset',
    diagnostics: [diagnostic(where, 'dataset data/missing.jsonl does not exist', { field: 'dataset' })],
  });

describe('RatchetErrors across the wires', () => {
  it('a RatchetError from the daemon reaches the editor (another copy of vscode-jsonrpc) with its code, message and details unchanged', async () => {
    const editorLib = secondCopy();
    expect(editorLib.ResponseError).not.toBe(ResponseError);
    const thrown = badInput();
    const err = await threeHops(() => Promise.reject(thrown), editorLib)('start');
    expect(err).toBeInstanceOf(editorLib.ResponseError);
    expect(err).not.toBeInstanceOf(ResponseError);
    expect((err as ResponseError<unknown>).data).toEqual({ code: 'badInput', details: thrown.details });
    const back = fromWireError(err);
    expect(back).toBeInstanceOf(RatchetError);
    expect(back.toJSON()).toEqual(thrown.toJSON());
  });

  it('a cancellation answers with the LSP code for a cancelled request, and is a cancellation again on the far side', async () => {
    const err = await threeHops(() => Promise.reject(new RatchetError('cancelled', 'Cancelled the run.')))('start');
    expect((err as ResponseError<unknown>).code).toBe(-32800);
    expect(RatchetError.is(fromWireError(err), 'cancelled')).toBe(true);
  });

  it('anything but a RatchetError becomes `internal`, once: the server passes it on as it came', async () => {
    const err = await threeHops(() => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")))('start');
    expect((err as ResponseError<unknown>).code).toBe(ErrorCodes.InternalError);
    expect(fromWireError(err).toJSON()).toEqual({ code: 'internal', message: "Internal error in Ratchet: Cannot read properties of undefined (reading 'x')", details: {} });
    expect(toWireError('a string').toJson()).toEqual({ code: ErrorCodes.InternalError, message: 'Internal error in Ratchet: a string', data: { code: 'internal', details: {} } });
  });

  it('an error without Ratchet data (the library’s own) keeps its code on the way out, and reads as internal', () => {
    const notFound = new ResponseError(ErrorCodes.MethodNotFound, 'Unhandled method test/nope');
    expect(toWireError(notFound)).toBe(notFound);
    expect(fromWireError(notFound).toJSON()).toEqual({ code: 'internal', message: 'Unhandled method test/nope', details: {} });
  });

  it('only the message, the code and the details leave: never the cause', async () => {
    const cause = Object.assign(new Error('401 Incorrect API key provided: sk-secret-123'), { headers: { authorization: 'Bearer sk-secret-123' } });
    const thrown = new RatchetError('llmHttp', 'The endpoint http://127.0.0.1:9/v1 answered 401 Unauthorized: check the API key.', { status: 401 }, cause);
    expect(JSON.stringify(toWireError(thrown).toJson())).not.toContain('sk-secret');
    const err = await threeHops(() => Promise.reject(thrown))('call');
    expect(JSON.stringify({ message: (err as Error).message, data: (err as ResponseError<unknown>).data })).not.toContain('sk-secret');
    expect(fromWireError(err).toJSON()).toEqual(thrown.toJSON());
  });
});

describe('isConnectionLoss', () => {
  it('a request whose far end goes away while it waits is a loss; one sent on the disposed connection too', async () => {
    const c = channel();
    let asked!: () => void;
    const arrived = new Promise<void>((r) => (asked = r));
    c.callee.onRequest(Ask, () => {
      asked();
      return new Promise<{ a: string }>(() => undefined); // parked: never answered
    });
    c.callee.listen();
    // As runDaemonLink does: a closed connection is disposed, which rejects what still waits on it.
    c.caller.onClose(() => c.caller.dispose());
    const pending = c.caller.sendRequest(Ask, { q: 'accept?' }).catch((err: unknown) => err);
    await arrived;
    c.cut();
    const lost = await pending;
    expect(isConnectionLoss(lost)).toBe(true);
    expect(RatchetError.is(fromWireError(lost), 'internal')).toBe(true);
    const after = await Promise.resolve()
      .then(() => c.caller.sendRequest(Ask, { q: 'again?' }))
      .catch((err: unknown) => err);
    expect(isConnectionLoss(after)).toBe(true);
  });

  it('an answer, even an error, is not a loss', async () => {
    const c = channel();
    c.callee.onRequest(
      Ask,
      guarded(() => Promise.reject(badInput())),
    );
    c.callee.listen();
    const err = await c.caller.sendRequest(Ask, { q: 'x' }).catch((e: unknown) => e);
    expect(isConnectionLoss(err)).toBe(false);
    expect(isConnectionLoss(badInput())).toBe(false);
  });
});
