/**
 * What the user is told when a run ends: a failure is an error at the editor edge (logged, shown
 * once, with Open Log), a normal end is a line in the log and the status bar. Pure wording here;
 * main.ts shows it. Only live notifications count: a journal replayed into the panel is history.
 */
import type { RunEventParams } from '../../protocol/lsp';

export interface RunNotice {
  level: 'info' | 'error';
  message: string;
  /** Also shown as a message (failures); otherwise only logged. */
  show: boolean;
}

function fileName(uri: string): string {
  return decodeURIComponent(uri.split('/').at(-1) ?? uri);
}

export function runNotice(p: RunEventParams): RunNotice | undefined {
  const e = p.event;
  const where = `${fileName(p.uri)} (run ${p.runId})`;
  switch (e.type) {
    case 'run/failed':
      return { level: 'error', message: `Ratchet: the run on ${where} failed — ${e.error.message.replace(/\.$/, '')} [${e.error.code}].`, show: true };
    case 'run/finished':
      return {
        level: 'info',
        message: `Run on ${where} finished: ${e.commits} of ${e.candidates} candidate${e.candidates === 1 ? '' : 's'} committed.`,
        show: false,
      };
    case 'run/cancelled':
      return { level: 'info', message: `Run on ${where} was cancelled.`, show: false };
    case 'log':
      return e.level === 'warn' ? { level: 'info', message: `Run on ${where}: ${e.message}`, show: false } : undefined;
    default:
      return undefined;
  }
}
