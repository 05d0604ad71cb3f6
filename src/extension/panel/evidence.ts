/**
 * Builds one decision's evidence from the texts the store kept: the discordant items with both
 * outputs (and, for pairwise gates, both verdicts and whether they agreed), the proposer's
 * reasoning, the rubric in force and both texts for the diff. Pure.
 */
import { gateRow } from '../../core/gates/gateTable';
import type { Evidence, EvidenceItem } from '../../protocol/webview';
import type { StoredRun } from '../runs/runStore';
import { itemKey } from '../runs/runStore';

/** Items per message; a test on a big dev set can have hundreds of discordant items. */
export const MAX_EVIDENCE_ITEMS = 200;

export function buildEvidence(run: StoredRun, candidateId: string): Evidence | undefined {
  const { state, detail } = run;
  const node = state.candidates[candidateId];
  const record = detail.records.get(candidateId);
  const candidateText = detail.texts.get(candidateId);
  if (!node && !record) return undefined;
  const parentId = record?.parentId ?? node?.parentId;
  // Reward-free gates compare the child with its parent through the validator, not with the incumbent.
  const pairwise = record ? gateRow(record.gate).kind !== 'scored' : hasVerdicts(run, candidateId);
  const incumbentId = record?.incumbentId ?? parentId;
  const opponent = pairwise ? parentId : incumbentId;

  const items = discordantItems(run, candidateId, opponent);
  const parentText = parentId === undefined ? undefined : detail.texts.get(parentId);
  const reasoning = detail.reasoning.get(candidateId);
  const thinking = detail.thinking.get(candidateId);
  const rubricText = record?.rubricVersion === undefined ? undefined : detail.rubrics.get(record.rubricVersion);
  const evidence: Evidence = {
    runId: state.runId,
    candidateId,
    parentId,
    incumbentId,
    record,
    candidateText: candidateText ?? '',
    items: items.slice(0, MAX_EVIDENCE_ITEMS),
    omittedItems: Math.max(0, items.length - MAX_EVIDENCE_ITEMS),
  };
  if (parentText !== undefined) evidence.parentText = parentText;
  if (reasoning !== undefined) evidence.reasoning = reasoning;
  if (thinking !== undefined) evidence.thinking = thinking;
  if (rubricText !== undefined && record?.rubricVersion !== undefined) evidence.rubric = { version: record.rubricVersion, text: rubricText };
  return evidence;
}

function hasVerdicts(run: StoredRun, candidateId: string): boolean {
  const prefix = `${candidateId}\n`;
  for (const key of run.detail.verdicts.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

/**
 * The e-process's own discordant steps when it has them; else the validator's judged pairs; else
 * items both versions were scored on with different scores (greedy and sign-test gates).
 */
function discordantItems(run: StoredRun, candidateId: string, opponent: string | undefined): EvidenceItem[] {
  const { detail } = run;
  const out: EvidenceItem[] = [];
  const seen = new Set<string>();
  const steps = detail.steps.get(candidateId) ?? [];
  for (const s of steps) {
    if (s.delta === 0 || seen.has(s.itemId)) continue;
    seen.add(s.itemId);
    out.push(item(run, candidateId, opponent, s.itemId, { k: s.k, delta: s.delta, winner: s.delta > 0 ? 'candidate' : 'incumbent' }));
  }
  // Judged pairs the e-process did not count (inconsistent orders are ties) still show whether the
  // validator agreed with itself, which is what a user checks when suspecting position bias.
  const prefix = `${candidateId}\n`;
  const disagreements: EvidenceItem[] = [];
  for (const [key, v] of detail.verdicts) {
    if (!key.startsWith(prefix)) continue;
    const itemId = key.slice(prefix.length);
    if (seen.has(itemId)) continue;
    seen.add(itemId);
    const agreed = v.childFirst !== undefined && v.parentFirst !== undefined && v.childFirst.winner === v.parentFirst.winner && v.childFirst.winner !== 'tie' && v.childFirst.winner !== 'abstained';
    const unjudged = v.childFirst?.winner === 'abstained' || v.parentFirst?.winner === 'abstained';
    const winner = agreed ? (v.childFirst!.winner === 'child' ? 'candidate' : 'incumbent') : unjudged ? 'unjudged' : 'tie';
    const entry = item(run, candidateId, opponent, itemId, { winner });
    (agreed ? out : disagreements).push(entry);
  }
  if (out.length === 0 && disagreements.length === 0 && opponent !== undefined) {
    for (const [key, score] of detail.scores) {
      if (!key.startsWith(prefix)) continue;
      const itemId = key.slice(prefix.length);
      const other = detail.scores.get(itemKey(opponent, itemId));
      if (other === undefined || other === score) continue;
      const delta = score - other;
      out.push(item(run, candidateId, opponent, itemId, { delta, winner: delta > 0 ? 'candidate' : 'incumbent' }));
    }
  }
  return [...out, ...disagreements];
}

function item(run: StoredRun, candidateId: string, opponent: string | undefined, itemId: string, base: Pick<EvidenceItem, 'winner'> & Partial<Pick<EvidenceItem, 'k' | 'delta'>>): EvidenceItem {
  const { detail } = run;
  const out: EvidenceItem = { itemId, ...base };
  const input = detail.inputs.get(itemId);
  if (input !== undefined) out.input = input;
  const mine = detail.outputs.get(itemKey(candidateId, itemId));
  if (mine !== undefined) out.candidateOutput = mine;
  const theirs = opponent === undefined ? undefined : detail.outputs.get(itemKey(opponent, itemId));
  if (theirs !== undefined) out.incumbentOutput = theirs;
  const v = detail.verdicts.get(itemKey(candidateId, itemId));
  if (v) {
    if (v.childFirst) out.childFirst = v.childFirst;
    if (v.parentFirst) out.parentFirst = v.parentFirst;
    const abstained = v.childFirst?.winner === 'abstained' || v.parentFirst?.winner === 'abstained';
    if (v.childFirst && v.parentFirst && !abstained) out.agreed = v.childFirst.winner === v.parentFirst.winner && v.childFirst.winner !== 'tie';
  }
  return out;
}
