/**
 * `nodePorts()`: the engine's ports for Node faces (the CLI and the language server). Assembled in
 * one place so both faces get the same durability, redaction and process-group behaviour.
 */
import type { Entropy, LlmClient, Ports } from '../core/ports';
import { SeededRandom } from '../core/random';
import { SystemClock } from './clock';
import { CryptoEntropy } from './entropy';
import { NodeFiles } from './files';
import { NodeLog } from './log';
import type { NodeLogOptions } from './log';
import { NodeProcessRunner } from './process';
import type { NodeProcessRunnerOptions } from './process';

export interface NodePortsOptions {
  /**
   * The LLM client the engine calls. The face builds it (`createLlmClient` over its transport, with
   * the run's budget and cache: evolveRun.ts), since only the face knows the endpoints and keys.
   */
  llm: LlmClient;
  /** The run's seed: every random draw of the engine derives from it. */
  seed: number;
  log?: NodeLogOptions;
  proc?: NodeProcessRunnerOptions;
}

export interface NodePorts extends Ports {
  /** Unseeded bits for run ids (the journal's), kept apart from the engine's seeded draws. */
  entropy: Entropy;
  /** Flushes and closes what the ports hold open (the log file). */
  close(): Promise<void>;
}

export function nodePorts(options: NodePortsOptions): NodePorts {
  const log = new NodeLog(options.log);
  return {
    llm: options.llm,
    files: new NodeFiles(),
    clock: new SystemClock(),
    random: new SeededRandom(options.seed),
    entropy: new CryptoEntropy(),
    log,
    proc: new NodeProcessRunner(options.proc),
    close: () => log.close(),
  };
}
