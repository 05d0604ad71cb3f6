/**
 * Readers for numeric flags: each turns the text commander hands over into a number or a
 * one-sentence badInput error naming the flag, so every subcommand words a bad number the same way.
 */
import { RatchetError } from '../core/errors';

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
