/** Number and time formatting shared by the panel's views (pure). */

import { formatFactor } from '../../src/protocol/factor';

export { formatFactor };

/** The UI wording GATES.md 4.7 asks for instead of p-values. */
export function evidenceText(logWealth: number, threshold: number): string {
  const evidence = `evidence ×${formatFactor(Math.exp(logWealth))}`;
  // Unknown (NaN) until the first discordant pair says it; ×∞ is real (an α budget spent).
  return threshold > 0 ? `${evidence} (needs ×${formatFactor(threshold)})` : evidence;
}

export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return `${trim(n / 1e3)}k`;
  return `${trim(n / 1e6)}M`;
}

export function formatDollars(d: number | undefined): string {
  if (d === undefined) return '—';
  return d < 10 ? `$${d.toFixed(d < 0.1 ? 4 : 2)}` : `$${d.toFixed(0)}`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

export function formatSigned(x: number, digits = 1): string {
  const t = x.toFixed(digits);
  return x > 0 ? `+${t}` : t;
}

/** "1 commit", "3 commits". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Candidate ids are hashes; eight characters tell them apart in a list. */
export function shortId(id: string | undefined): string {
  if (id === undefined) return '—';
  return id.length > 10 ? id.slice(0, 8) : id;
}

function trim(x: number): string {
  return String(Number(x.toFixed(x < 10 ? 2 : 1)));
}
