// Web-standard APIs the engine may use: present in Node >= 22, browsers and workers alike.
// Declared by hand because src/core compiles with "types": [] and no DOM library (see tsconfig).

interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare var AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
  timeout(ms: number): AbortSignal;
};
interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
declare var AbortController: { prototype: AbortController; new (): AbortController };

declare function setTimeout(handler: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };

interface Console {
  error(...data: unknown[]): void;
}
declare var console: Console;

interface URLSearchParams {
  keys(): IterableIterator<string>;
}
interface URL {
  readonly username: string;
  readonly password: string;
  readonly searchParams: URLSearchParams;
}
declare var URL: { prototype: URL; new (url: string, base?: string): URL };
