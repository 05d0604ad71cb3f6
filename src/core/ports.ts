/**
 * The engine's only ways to touch the world. `src/node/ports.ts` implements them for the server
 * and the CLI; tests pass fakes of these interfaces only.
 */
import type { InputLimits } from './files/inputLimits';
import type { ChatRequest, ChatResponse, EmbedRequest, EmbedResponse } from './llm/types';

/** One HTTP round trip to an OpenAI-compatible endpoint. No retries, no cache: the core layer adds those. */
export interface LlmTransport {
  chat(req: ChatRequest, signal: AbortSignal): Promise<ChatResponse>;
  embed(req: EmbedRequest, signal: AbortSignal): Promise<EmbedResponse>;
}

/** What the engine calls: a transport wrapped with concurrency, retries, timeout, cache and accounting. */
export interface LlmClient {
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
  embed(req: EmbedRequest, signal?: AbortSignal): Promise<EmbedResponse>;
}

export interface Files {
  /**
   * The caps this reader applies: `readText` refuses a larger file, line-per-record parsers a
   * longer line. The engine uses DEFAULT_INPUT_LIMITS when absent.
   */
  readonly limits?: InputLimits;
  /** A regular file's text (a symbolic link to one is fine); anything else is refused, naming the file. */
  readText(path: string): Promise<string>;
  /** undefined when the file does not exist. */
  tryReadText(path: string): Promise<string | undefined>;
  /**
   * A regular file's lines as they are read, so a large JSONL dataset is never held as one string;
   * undefined when the file does not exist. A line longer than the line cap is refused
   * (`badInput` with `{ file, line }`) before the rest of it is read.
   */
  tryReadLines(path: string): Promise<AsyncIterable<string> | undefined>;
  /** Write-then-rename, so a reader never sees half a file. */
  writeTextAtomic(path: string, text: string): Promise<void>;
  /** Append and flush to disk before resolving (the journal's durability point). */
  appendDurable(path: string, text: string): Promise<void>;
  exists(path: string): Promise<boolean>;
  mkdirp(path: string): Promise<void>;
  /**
   * Creates one directory (its parent must exist) and tells whether this call made it: false when
   * it was already there. Two processes racing for one name cannot both get true, which is what
   * keeps two runs out of one folder.
   */
  mkdirExclusive(path: string): Promise<boolean>;
  /** Names (not paths) of the entries of a directory; [] when it does not exist. */
  list(path: string): Promise<string[]>;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  dirname(path: string): string;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A seeded, reproducible source of randomness (never Math.random in the engine). */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** An independent stream derived from this one's seed and a label: same label, same stream. */
  fork(label: string): Random;
}

/**
 * Bits no seed reproduces, for names that must differ between runs started alike (run ids). Never
 * for a run's own draws: those come from the seeded Random, so a run can be replayed.
 */
export interface Entropy {
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';
export interface Log {
  log(level: LogLevel, message: string, data?: Record<string, unknown>): void;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}
export interface ProcessRunner {
  run(
    command: string,
    args: string[],
    opts: {
      cwd?: string;
      /** Set on top of the system's basics (PATH, HOME, the locale…), never a copy of Ratchet's environment, which holds its keys. */
      env?: Record<string, string>;
      /** Names of variables of Ratchet's own environment passed through as they are. */
      passEnv?: readonly string[];
      timeoutMs?: number;
      stdin?: string;
      signal?: AbortSignal;
    },
  ): Promise<ProcessResult>;
}

export interface Ports {
  llm: LlmClient;
  files: Files;
  clock: Clock;
  random: Random;
  log: Log;
  proc: ProcessRunner;
}
