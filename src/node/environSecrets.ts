/**
 * Keeps provider keys out of this process's /proc/<pid>/environ. Where an evaluated program can
 * see Ratchet's processes (no pid namespace on this machine), `tr '\0' '\n' < /proc/$PPID/environ`
 * would print the OPENAI_API_KEY the user exported: that file shows the environment block the
 * process started with, whatever the process later sets or unsets. So each secret is first moved
 * off the block (set again, which makes the C library keep a copy of its own, where
 * `process.env` keeps reading it), and then its value in the block is overwritten with zero bytes
 * through /proc/self/mem, as setproctitle() rewrites argv in place. The key stays in the
 * process's memory, which another process of the same user can read only where ptrace is allowed
 * (docs/sandbox.md says when). Linux only; elsewhere it reports that nothing was hidden.
 */
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { isSecretName } from '../core/code/evaluatorPort';
import { ROLES } from '../core/llm/types';
import type { Role } from '../core/llm/types';
import type { EndpointDefaults } from '../core/run/endpointDefaults';

export interface Hidden {
  /** The variables whose value is no longer in the environment block. */
  hidden: string[];
  /** Why nothing could be hidden, when so. */
  failed?: string;
}

/** Names of this process's variables that hold credentials by their name (`*_API_KEY`, `*_TOKEN`, …). */
export function secretVariableNames(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return Object.keys(env).filter((name) => isSecretName(name) && (env[name] ?? '') !== '');
}

/**
 * The keys a run holds, which no command it starts (an evaluator, a command harness) may see and
 * which are blanked from whatever one printed: the default key, those its roles name
 * (`apiKeyEnv`), and every variable of ours named like a credential.
 */
export function runSecrets(spec: { models: Readonly<Record<Role, { apiKeyEnv?: string | undefined }>> }, endpoint: EndpointDefaults): string[] {
  const named = ROLES.flatMap((role) => (spec.models[role].apiKeyEnv ? [endpoint.apiKeys?.[spec.models[role].apiKeyEnv!]] : []));
  const env = secretVariableNames().map((n) => process.env[n]);
  return [...new Set([endpoint.apiKey, ...named, ...env].filter((k): k is string => typeof k === 'string' && k !== ''))];
}

/** Overwrites the values of `names` in this process's initial environment block; `process.env` keeps them. */
export function hideFromEnviron(names: readonly string[]): Hidden {
  const wanted = new Set(names.filter((n) => (process.env[n] ?? '') !== ''));
  if (wanted.size === 0) return { hidden: [] };
  if (process.platform !== 'linux') return { hidden: [], failed: `${process.platform} has no /proc/self/mem` };
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // env_start and env_end are fields 50 and 51 of the line; fields[0] is field 3.
    const start = Number(fields[47]);
    const end = Number(fields[48]);
    if (!(start > 0 && end > start)) return { hidden: [], failed: 'the kernel does not say where the environment block is' };
    for (const name of wanted) {
      // setenv() allocates a copy: from now on the block's bytes are nobody's.
      const value = process.env[name]!;
      process.env[name] = value;
    }
    fd = openSync('/proc/self/mem', 'r+');
    const block = Buffer.alloc(end - start);
    readSync(fd, block, 0, block.length, start);
    const hidden: string[] = [];
    let at = 0;
    while (at < block.length) {
      const stop = block.indexOf(0, at);
      const entryEnd = stop < 0 ? block.length : stop;
      const eq = block.indexOf(0x3d, at);
      if (eq > at && eq < entryEnd) {
        const name = block.toString('latin1', at, eq);
        if (wanted.has(name)) {
          block.fill(0, eq + 1, entryEnd);
          hidden.push(name);
        }
      }
      at = entryEnd + 1;
    }
    if (hidden.length > 0) writeSync(fd, block, 0, block.length, start);
    return { hidden };
  } catch (err) {
    return { hidden: [], failed: (err as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
