/**
 * Gate `pairwise`'s matches in a code search, each a child against its incumbent with the child's
 * match score, and the Elo-scale Bradley–Terry ratings refitted from every match so far after each
 * one (GATES.md 7.6) — the ratings `search.parentSelection: bt` draws parents by.
 */
import { fitBradleyTerry } from '../gates/bradleyTerry';
import type { Comparison } from '../gates/bradleyTerry';
import type { CodeGateName } from '../gates/gateTable';
import type { ParentRule } from './database';
import type { ParentSelection } from './spec';

export class MatchRatings {
  private readonly matches: { child: string; incumbent: string; score: number }[] = [];
  private ratings = new Map<string, number>();

  /** `refit` false: the matches are recorded, but nobody reads ratings, so none are fitted. */
  constructor(private readonly refit: boolean) {}

  /** One match, recorded in launch order. */
  record(child: string, incumbent: string, score: number): void {
    this.matches.push({ child, incumbent, score });
    if (!this.refit) return;
    const players = [...new Set(this.matches.flatMap((m) => [m.child, m.incumbent]))];
    const index = new Map(players.map((id, i) => [id, i]));
    const comparisons: Comparison[] = this.matches.map((m) => ({ i: index.get(m.child)!, j: index.get(m.incumbent)!, s: m.score }));
    const fit = fitBradleyTerry(players.length, comparisons);
    this.ratings = new Map(players.map((id, i) => [id, fit.elo[i]!]));
  }

  /** The ratings as they stand now (a later match does not change what this returns). */
  now(): (id: string) => number | undefined {
    const ratings = this.ratings;
    return (id) => ratings.get(id);
  }

  /**
   * The parent rule search.parentSelection names, as the run can draw by it now: Bradley–Terry
   * parents need pairwise verdicts, which only gate pairwise produces; the scored gates fall back to weighted.
   */
  parentRule(selection: ParentSelection, gate: CodeGateName): ParentRule {
    if (selection !== 'bt') return { rule: selection };
    if (gate !== 'pairwise') return { rule: 'weighted' };
    return { rule: 'bt', rating: this.now() };
  }
}
