/**
 * Provenance: where each accepted edit of a prompt file (or a code search's program) came from.
 * Every time an edit reaches the file (the user's Accept in suggest mode, or autopilot), one record is appended to
 * `.ratchet/provenance/<key>.jsonl`, the file's own append-only log: which run and candidate, the
 * gate's evidence, who accepted it and when, the text before and after, and the seq of the decision
 * in the run's journal. The editor reads it back for the line hover and the Prompt History view.
 *
 * Crash safety is the journal's (journal.ts): a record is one line, appended durably, so a crash
 * can tear only the last line; the reader drops a torn last line, and the next append starts on a
 * line of its own so the torn fragment never swallows a whole record.
 */
import { RatchetError } from '../errors';
import type { DecisionRecord } from '../gates/record';
import type { Files } from '../ports';
import { sha256Hex } from '../random';

/** Bumped when a record changes in a way an older reader would misread; newer records are skipped. */
export const PROVENANCE_FORMAT = 1;

/** The gate's numbers behind a commit: what the hover says, and what the Evidence view explains. */
export type ProvenanceEvidence = Pick<DecisionRecord, 'gate' | 'reason' | 'logWealth' | 'threshold' | 'wins' | 'losses' | 'ties' | 'itemsConsumed' | 'statistic'>;

export interface ProvenanceRecord {
  format: number;
  /** The prompt file (or program), relative to the workspace folder, with `/` separators. */
  file: string;
  runId: string;
  /** 'search': the candidate is a code search's program. Absent: a prompt run's (records from before code search). */
  runKind?: 'evolve' | 'search';
  candidateId: string;
  /** `user`: Accept in suggest mode; `autopilot`: written by the run itself. */
  by: 'user' | 'autopilot';
  /** ISO-8601, UTC: when the edit reached the file. */
  at: string;
  evidence: ProvenanceEvidence;
  /** The `seq` of the run's `decision` event in `.ratchet/runs/<runId>/events.jsonl`. */
  decisionSeq: number;
  /** The file's text as the edit was computed on, and as the edit made it. */
  before: string;
  after: string;
}

export interface ProvenanceLog {
  /** Oldest first, one per run and candidate (a record written twice, by a resumed run, counts once). */
  records: ProvenanceRecord[];
  /** Lines left out: a torn last line, damaged lines, records of a newer format. Said in the log, never fatal. */
  skipped: string[];
}

export function provenanceDir(files: Files, root: string): string {
  return files.join(root, '.ratchet', 'provenance');
}

/** One log per prompt file, named by a hash of its workspace-relative path (any path fits a file name). */
export function provenanceFileName(relativeFile: string): string {
  return `${sha256Hex(relativeFile).slice(0, 16)}.jsonl`;
}

export function provenancePath(files: Files, root: string, relativeFile: string): string {
  return files.join(provenanceDir(files, root), provenanceFileName(relativeFile));
}

export function evidenceOf(record: DecisionRecord): ProvenanceEvidence {
  const { gate, reason, logWealth, threshold, wins, losses, ties, itemsConsumed, statistic } = record;
  return { gate, reason, logWealth, threshold, wins, losses, ties, itemsConsumed, ...(statistic ? { statistic } : {}) };
}

/** Appends one record, durable before it resolves. */
export async function appendProvenance(files: Files, root: string, record: ProvenanceRecord): Promise<void> {
  const path = provenancePath(files, root, record.file);
  await files.mkdirp(provenanceDir(files, root));
  const existing = (await files.tryReadText(path)) ?? '';
  // After a crash mid-append the file ends inside a line: start on a fresh one.
  const lead = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await files.appendDurable(path, `${lead}${JSON.stringify(record)}\n`);
}

export async function readProvenance(files: Files, root: string, relativeFile: string): Promise<ProvenanceLog> {
  const path = provenancePath(files, root, relativeFile);
  return parseProvenance((await files.tryReadText(path)) ?? '', path);
}

/** Parses a log's text; `file` names it in the skipped lines' reasons. */
export function parseProvenance(text: string, file: string): ProvenanceLog {
  const records: ProvenanceRecord[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    // Only the last line can lack its newline, and only a crash mid-append leaves it so.
    if (i === lines.length - 1) {
      skipped.push(`${where}: an unfinished last line (a write was interrupted)`);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push(`${where}: not valid JSON (a write was interrupted)`);
      return;
    }
    const problem = recordProblem(value);
    if (problem !== undefined) {
      skipped.push(`${where}: ${problem}`);
      return;
    }
    const record = value as ProvenanceRecord;
    const key = `${record.runId}\n${record.candidateId}`;
    if (seen.has(key)) return;
    seen.add(key);
    records.push(record);
  });
  return { records, skipped };
}

function recordProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.format !== 'number') return 'no format number';
  if (v.format > PROVENANCE_FORMAT) return `written by a newer Ratchet (format ${v.format}); update Ratchet`;
  for (const field of ['file', 'runId', 'candidateId', 'at', 'before', 'after'] as const) {
    if (typeof v[field] !== 'string') return `no string field "${field}"`;
  }
  if (v.by !== 'user' && v.by !== 'autopilot') return 'field "by" is neither "user" nor "autopilot"';
  if (v.runKind !== undefined && v.runKind !== 'evolve' && v.runKind !== 'search') return 'field "runKind" is neither "evolve" nor "search"';
  if (typeof v.decisionSeq !== 'number') return 'no number field "decisionSeq"';
  const e = v.evidence as Record<string, unknown> | null;
  if (e === null || typeof e !== 'object') return 'no object field "evidence"';
  for (const field of ['logWealth', 'threshold', 'wins', 'losses', 'ties', 'itemsConsumed'] as const) {
    // JSON writes NaN (an e-process before its first pair) as null.
    if (typeof e[field] !== 'number' && e[field] !== null) return `no number field "evidence.${field}"`;
  }
  if (typeof e.gate !== 'string' || typeof e.reason !== 'string') return 'no gate or reason in "evidence"';
  return undefined;
}

/** A record for `appendProvenance`, refusing a decision that is not the commit of this candidate. */
export function provenanceRecord(p: Omit<ProvenanceRecord, 'format' | 'evidence'> & { decision: DecisionRecord }): ProvenanceRecord {
  const { decision, ...rest } = p;
  if (decision.candidateId !== p.candidateId || decision.decision !== 'commit') {
    throw new RatchetError('internal', `Provenance of ${p.candidateId} was given the ${decision.decision} decision of ${decision.candidateId}.`, { runId: p.runId });
  }
  return { format: PROVENANCE_FORMAT, ...rest, evidence: evidenceOf(decision) };
}
