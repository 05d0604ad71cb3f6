/**
 * Ratings for the fully reward-free gate (GATES.md 7): online Elo (Soft: step scaled by the
 * agent's per-token confidence; Plain when the endpoint gives no logprobs), softmax parent
 * selection, and a Bradley–Terry refit with item-bootstrap intervals for the panel.
 */
import { bootstrapBradleyTerry } from '../gates/bradleyTerry';
import type { Comparison } from '../gates/bradleyTerry';
import { ELO_INITIAL, eloAddVersion, eloRecordMatch, softEloK, softmaxProbabilities, softmaxSelect } from '../gates/elo';
import type { EloTable } from '../gates/elo';
import type { Random } from '../ports';

export interface RatingRow {
  candidateId: string;
  elo: number;
  bt: number;
  lo: number;
  hi: number;
  selectP: number;
}

export class Ratings {
  private table: EloTable = new Map();
  private readonly ids: string[] = [];
  private readonly comparisons: Comparison[] = [];

  constructor(
    private readonly k: number,
    private readonly tau: number,
  ) {}

  add(id: string, parentId: string | undefined): void {
    if (this.table.has(id)) return;
    this.table = eloAddVersion(this.table, id, parentId);
    this.ids.push(id);
  }

  /** One both-order match; `confidence` ∈ (0, 1] scales the step (Soft Elo), 1 = Plain Elo. */
  record(childId: string, opponentId: string, childScore: number, confidence: number, matchKey: string): void {
    this.table = eloRecordMatch(this.table, childId, opponentId, childScore, softEloK(confidence, this.k));
    this.comparisons.push({ i: this.ids.indexOf(childId), j: this.ids.indexOf(opponentId), s: childScore, item: matchKey });
  }

  pickParent(random: Random): string {
    const ratings = this.ids.map((id) => this.table.get(id) ?? ELO_INITIAL);
    return this.ids[softmaxSelect(ratings, random, this.tau)]!;
  }

  archive(): readonly string[] {
    return this.ids;
  }

  rows(random: Random): RatingRow[] {
    const elo = this.ids.map((id) => this.table.get(id) ?? ELO_INITIAL);
    const selectP = softmaxProbabilities(elo, this.tau);
    const bt = this.comparisons.length > 0 && this.ids.length > 1 ? bootstrapBradleyTerry(this.ids.length, this.comparisons, random, { replicates: 100 }) : undefined;
    return this.ids.map((candidateId, i) => ({
      candidateId,
      elo: elo[i]!,
      bt: bt?.fit.elo[i] ?? ELO_INITIAL,
      lo: bt?.eloLower[i] ?? ELO_INITIAL,
      hi: bt?.eloUpper[i] ?? ELO_INITIAL,
      selectP: selectP[i]!,
    }));
  }
}
