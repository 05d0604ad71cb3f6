/**
 * Which proposer model writes the next child: UCB1 (Auer, Cesa-Bianchi & Fischer 2002) over the
 * configured models, rewarded by what the gate made of their children.
 *
 * Why not ShinkaEvolve's `AsymmetricUCB` (9912af1 `shinka/llm/prioritization.py`) as is: its
 * reward is the raw single-evaluation gain over the parent, clipped at 0 and rescaled by the range
 * seen so far, which is exactly the noisy one-sample signal the gate exists to distrust; its
 * ε-greedy layer (ε = 0.2) and auto-decay (0.95) then keep exploring and forgetting, and they
 * void UCB1's regret bound. Here the reward lies in [0, 1] by construction (`gateReward`), so
 * plain UCB1 applies with its guarantee. Kept from Shinka: untried arms first; a pull counts when
 * it is chosen, not when its reward arrives (`n = max(submitted, completed)` there), so proposals
 * in flight together spread over the arms; and an optional cost factor.
 */
import type { Random } from '../ports';
import { RatchetError } from '../errors';
import { clip } from '../gates/logMath';

/** Shinka `exploration_coef` = 1: the textbook UCB1 index. */
export const UCB_C = 1;
/** With w = ½ every commit earns at least as much as any rejection. */
export const GATE_WEIGHT = 0.5;

/**
 * The reward of one proposal:
 *   r = w·1[commit] + (1 − w)·clip(gain / gainScale, 0, 1)
 * `gain` is the child's recorded mean minus its parent's (omit it for an incorrect child, which
 * earns 0, as Shinka imputes the worst reward); `gainScale` is the gain the run calls large (for
 * instance the island's score MAD). The gain term lets a model whose children come close be told
 * apart from one whose children regress while commits are still rare.
 */
export function gateReward(outcome: { decision: 'commit' | 'reject'; gain?: number; gainScale: number; gateWeight?: number }): number {
  const w = outcome.gateWeight ?? GATE_WEIGHT;
  if (!(w >= 0 && w <= 1)) throw new RatchetError('internal', `gateWeight must lie in [0, 1], got ${w}.`);
  if (!(outcome.gainScale > 0)) throw new RatchetError('internal', `gainScale must be positive, got ${outcome.gainScale}.`);
  const gain = outcome.gain === undefined || !Number.isFinite(outcome.gain) ? 0 : clip(outcome.gain / outcome.gainScale, 0, 1);
  return w * (outcome.decision === 'commit' ? 1 : 0) + (1 - w) * gain;
}

export interface ArmState {
  name: string;
  /** Times chosen. */
  pulls: number;
  /** Rewards received, and their sum. */
  rewards: number;
  rewardSum: number;
  /** Costs recorded (dollars), and their sum. */
  costs: number;
  costSum: number;
}

export interface BanditState {
  version: 1;
  c: number;
  costWeight: number;
  arms: ArmState[];
}

export interface BanditOptions {
  /** Exploration coefficient c of mean + c·√(2 ln N / nᵢ). */
  c?: number;
  /**
   * k ∈ [0, 1]: the index is multiplied by (c_min / c̄ᵢ)^k, c̄ᵢ the arm's mean cost per call. k = 1
   * ranks by reward per dollar (normalised to the cheapest arm), k = 0 ignores cost. Shinka blends
   * additively, (1 − k)·score + k·cheapness, which can prefer a cheap model that never helps; a
   * factor cannot. An arm with no cost yet counts as the cheapest.
   *
   * Why reward per dollar at k = 1, not a penalty subtracted for cost: under a dollar cap
   * (budget.dollars) the run's total reward is what counts, and for a fixed budget it is largest
   * when every dollar goes to the arm of highest expected reward per unit cost — the ratio index of
   * budget-limited bandits (Ding, Qin, Zhang & Liu 2013, "Multi-Armed Bandit with Budget Constraint
   * and Variable Costs", UCB-BV). A penalty needs an exchange rate between reward and dollars that
   * no user can state; a ratio needs none, and the factor leaves UCB1 unchanged at equal costs.
   * Here the optimism is on the reward only (c̄ᵢ is the observed mean cost), a simplification of
   * UCB-BV, whose bonus also covers the cost estimate.
   */
  costWeight?: number;
}

export class UcbBandit {
  private constructor(private readonly state: BanditState) {}

  static create(arms: readonly string[], opts: BanditOptions = {}): UcbBandit {
    if (arms.length === 0) throw new RatchetError('badInput', 'The proposer needs at least one model.');
    if (new Set(arms).size !== arms.length) throw new RatchetError('badInput', `The proposer models are listed twice: ${arms.join(', ')}.`);
    const costWeight = opts.costWeight ?? 0;
    if (!(costWeight >= 0 && costWeight <= 1)) throw new RatchetError('badInput', `costWeight must lie in [0, 1], got ${costWeight}.`);
    return new UcbBandit({
      version: 1,
      c: opts.c ?? UCB_C,
      costWeight,
      arms: arms.map((name) => ({ name, pulls: 0, rewards: 0, rewardSum: 0, costs: 0, costSum: 0 })),
    });
  }

  /**
   * The next arm, counted as pulled: an untried arm (uniformly) while there is one, then the
   * highest index, ties drawn uniformly. The rng is consulted only when there is a choice to make.
   */
  choose(random: Random): string {
    const untried = this.state.arms.filter((a) => a.pulls === 0);
    const pool = untried.length > 0 ? untried : this.argmax();
    const arm = pool.length === 1 ? pool[0]! : pool[random.int(pool.length)]!;
    arm.pulls++;
    return arm.name;
  }

  /** A reward in [0, 1] for a pull of `arm` (see `gateReward`). */
  reward(arm: string, r: number): void {
    if (!(r >= 0 && r <= 1)) throw new RatchetError('internal', `A bandit reward must lie in [0, 1], got ${r}.`);
    const a = this.arm(arm);
    if (a.rewards >= a.pulls) throw new RatchetError('internal', `Model ${arm} got more rewards than it was chosen.`);
    a.rewards++;
    a.rewardSum += r;
  }

  /** The dollar cost of one call of `arm`, for the cost-aware index. */
  recordCost(arm: string, dollars: number): void {
    if (!(dollars >= 0 && Number.isFinite(dollars))) throw new RatchetError('internal', `A cost must be a non-negative number, got ${dollars}.`);
    const a = this.arm(arm);
    a.costs++;
    a.costSum += dollars;
  }

  /**
   * UCB1 index per arm: mean + c·√(2 ln N / nᵢ), N = all pulls, nᵢ = the arm's pulls, the mean over
   * rewards received (0 before the first); times the cost factor. Untried arms are +∞.
   */
  indices(): { name: string; index: number }[] {
    const total = this.state.arms.reduce((s, a) => s + a.pulls, 0);
    const means = this.state.arms.map((a) => (a.costs > 0 ? a.costSum / a.costs : undefined));
    const known = means.filter((m): m is number => m !== undefined);
    const cheapest = known.length > 0 ? Math.min(...known) : undefined;
    return this.state.arms.map((a, i) => {
      if (a.pulls === 0) return { name: a.name, index: Infinity };
      const mean = a.rewards > 0 ? a.rewardSum / a.rewards : 0;
      const ucb = mean + this.state.c * Math.sqrt((2 * Math.log(Math.max(total, 2))) / a.pulls);
      const cost = means[i];
      // A free arm is the cheapest; against one, paid arms lose on cost entirely at k = 1.
      const factor = cost === undefined || cost === 0 || cheapest === undefined ? 1 : (cheapest / cost) ** this.state.costWeight;
      return { name: a.name, index: ucb * factor };
    });
  }

  arms(): readonly Readonly<ArmState>[] {
    return this.state.arms;
  }

  toJSON(): BanditState {
    return { ...this.state, arms: this.state.arms.map((a) => ({ ...a })) };
  }

  static fromJSON(state: BanditState): UcbBandit {
    if (state.version !== 1) throw new RatchetError('journalCorrupt', `Unknown bandit state version ${String(state.version)}.`);
    return new UcbBandit({ ...state, arms: state.arms.map((a) => ({ ...a })) });
  }

  private argmax(): ArmState[] {
    const idx = this.indices();
    const top = Math.max(...idx.map((x) => x.index));
    return this.state.arms.filter((_, i) => idx[i]!.index === top);
  }

  private arm(name: string): ArmState {
    const a = this.state.arms.find((x) => x.name === name);
    if (!a) throw new RatchetError('internal', `Unknown proposer model ${name}.`);
    return a;
  }
}
