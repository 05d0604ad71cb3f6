/**
 * Flags worded once for every subcommand: readers for numeric flags, each turning the text
 * commander hands over into a number or a one-sentence badInput error naming the flag, so every
 * subcommand words a bad number the same way; and the flags that choose a run's endpoint and model.
 */
import { Option } from 'commander';
import { RatchetError } from '../core/errors';

/** `--base-url`: where every role's calls go, over the run spec's endpoint. */
export function baseUrlFlag(): Option {
  return new Option('--base-url <url>', 'OpenAI-compatible endpoint for every role (else the spec, else OPENAI_BASE_URL)');
}

/** `--model`: the model of every role the run spec leaves unset. */
export function modelFlag(): Option {
  return new Option('--model <id>', 'model for roles the spec leaves unset (else RATCHET_MODEL)');
}

export function number(flag: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n)) throw new RatchetError('badInput', `${flag} must be a number, got "${v}".`);
    return n;
  };
}

export function positive(flag: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new RatchetError('badInput', `${flag} must be a whole number of at least 1, got "${v}".`);
    return n;
  };
}

export function seconds(flag: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new RatchetError('badInput', `${flag} must be a number of seconds above 0, got "${v}".`);
    return n;
  };
}

export function integer(flag: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new RatchetError('badInput', `${flag} must be a whole number, got "${v}".`);
    return n;
  };
}
