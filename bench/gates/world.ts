/**
 * The simulated world of GATES.md section 8, shared by every gate of the benchmark.
 *
 * - A version has a latent per-item state c_v(i) ∈ {0,1} on the n dev items and on a separate test
 *   set; its population accuracy `acc` is tracked exactly (churn keeps it, edits move it by ±δ).
 * - One evaluation succeeds w.p. p = ν·acc + (1 − ν)·c (ν = per-item sampling noise; see
 *   `noiseAnchor`). Each (version, dev item) has one canonical draw, made when the version is
 *   created (GATES.md 4.3): a cache hit and a miss return the same value.
 * - A candidate derives from the incumbent by churn ρ (1→0 w.p. ρ(1 − c̄), 0→1 w.p. ρc̄, with c̄ the
 *   incumbent's population accuracy, so the population mean is unchanged), then optionally a real
 *   edit (+δ: 0→1 w.p. δ/(1 − c̄), i.e. on a hidden set of the wrong items) or a harmful one
 *   (−δ_h: 1→0 w.p. δ_h/c̄).
 * - Candidate t of a run draws its uniforms from a stream keyed by (run seed, t), shared by all gates,
 *   so gates meet the same proposals (common random numbers); what differs is which incumbent they
 *   are applied to.
 */
import { SeededRandom, hashSeed } from '../../src/core/random';

export type Regime = 'controlled' | 'stochastic';
export type Kind = 'initial' | 'neutral' | 'real' | 'harmful';

export interface WorldConfig {
  regime: Regime;
  n: number;
  alpha: number;
  acc: number;
  /** Per-item sampling noise ν (0 = deterministic). */
  nu: number;
  /** Churn ρ. */
  rho: number;
  /** Candidates per run. */
  T: number;
  /** Real edit size (controlled regime only). */
  realDelta: number;
  harmfulProb: number;
  harmfulDelta: number;
  /** Test-set size for the true accuracy change. */
  testItems: number;
  /**
   * What the noise mixes towards: 'version' = the version's own accuracy (true accuracy = acc
   * exactly), 'base' = the initial accuracy acc₀ for every version.
   */
  noiseAnchor: 'version' | 'base';
  /** Apply the edit after the churn (default) or before it. */
  editOrder: 'churn-then-edit' | 'edit-then-churn';
}

/** The regimes of GATES.md 8: controlled (ν = 0, one real edit, 20 % harmful −0.10) and stochastic. */
export function regimeConfig(regime: Regime, over: Partial<WorldConfig> = {}): WorldConfig {
  const base: WorldConfig =
    regime === 'controlled'
      ? { regime, n: 40, alpha: 0.05, acc: 0.6, nu: 0, rho: 0.2, T: 30, realDelta: 0.3, harmfulProb: 0.2, harmfulDelta: 0.1, testItems: 1000, noiseAnchor: 'version', editOrder: 'churn-then-edit' }
      : { regime, n: 40, alpha: 0.05, acc: 0.6, nu: 0.5, rho: 0.2, T: 30, realDelta: 0, harmfulProb: 0.2, harmfulDelta: 0.05, testItems: 1000, noiseAnchor: 'version', editOrder: 'churn-then-edit' };
  return { ...base, ...over, regime };
}

export interface Version {
  /** Unique within a run and a gate; also the cache's version hash. */
  key: string;
  kind: Kind;
  /** Population accuracy (exact). */
  acc: number;
  /** Latent state on dev items. */
  dev: Uint8Array;
  /** Success probability on dev items. */
  p: Float64Array;
  /** The canonical draw on each dev item. */
  draws: Uint8Array;
  /** Latent state on the test set; built only for versions that get committed. */
  test: Uint8Array | undefined;
  /** How to derive `test` from the parent's (kept until needed). */
  derive: ((parentTest: Uint8Array) => Uint8Array) | undefined;
  parent: Version | undefined;
}

/** The fixed plan of one run: candidate kinds and the uniforms each proposal uses. */
export interface RunPlan {
  cfg: WorldConfig;
  seed: number;
  kinds: Kind[];
  initial: Version;
  /** Per candidate t (0-based): churn, edit and draw uniforms for the n dev items. */
  uniforms: Float64Array[];
}

export function planRun(cfg: WorldConfig, seed: number): RunPlan {
  const rng = new SeededRandom(seed);
  const kinds: Kind[] = [];
  const realAt = cfg.regime === 'controlled' ? rng.int(cfg.T) : -1;
  for (let t = 0; t < cfg.T; t++) {
    if (t === realAt) kinds.push('real');
    else kinds.push(rng.next() < cfg.harmfulProb ? 'harmful' : 'neutral');
  }
  const dev = new Uint8Array(cfg.n);
  for (let i = 0; i < cfg.n; i++) dev[i] = rng.next() < cfg.acc ? 1 : 0;
  const initial = finishVersion(cfg, 'v0', 'initial', cfg.acc, dev, rng, undefined);
  const testRng = new SeededRandom(hashSeed(seed, 'test-initial'));
  initial.test = new Uint8Array(cfg.testItems);
  for (let i = 0; i < cfg.testItems; i++) initial.test[i] = testRng.next() < cfg.acc ? 1 : 0;
  const uniforms: Float64Array[] = [];
  for (let t = 0; t < cfg.T; t++) {
    const u = new Float64Array(3 * cfg.n);
    for (let k = 0; k < u.length; k++) u[k] = rng.next();
    uniforms.push(u);
  }
  return { cfg, seed, kinds, initial, uniforms };
}

function finishVersion(cfg: WorldConfig, key: string, kind: Kind, acc: number, dev: Uint8Array, drawU: { next(): number } | Float64Array, parent: Version | undefined): Version {
  const p = new Float64Array(cfg.n);
  const draws = new Uint8Array(cfg.n);
  const anchor = cfg.noiseAnchor === 'version' ? acc : cfg.acc;
  for (let i = 0; i < cfg.n; i++) {
    p[i] = cfg.nu * anchor + (1 - cfg.nu) * dev[i]!;
    const u = drawU instanceof Float64Array ? drawU[2 * cfg.n + i]! : drawU.next();
    draws[i] = u < p[i]! ? 1 : 0;
  }
  return { key, kind, acc, dev, p, draws, test: undefined, derive: undefined, parent };
}

function churn(x: number, mean: number, rho: number, u: number): number {
  return x === 1 ? (u < rho * (1 - mean) ? 0 : 1) : u < rho * mean ? 1 : 0;
}

function edit(x: number, kind: Kind, cbar: number, delta: number, u: number): number {
  if (delta <= 0) return x;
  if (kind === 'real' && x === 0) return u < delta / (1 - cbar) ? 1 : 0;
  if (kind === 'harmful' && x === 1) return u < delta / cbar ? 0 : 1;
  return x;
}

/** One latent state through churn and edit (GATES.md 8); churn keeps the mean of what it acts on. */
function mutate(c: number, cbar: number, cfg: WorldConfig, kind: Kind, delta: number, uChurn: number, uEdit: number): number {
  if (cfg.editOrder === 'churn-then-edit') return edit(churn(c, cbar, cfg.rho, uChurn), kind, cbar, delta, uEdit);
  const after = kind === 'real' ? cbar + delta : kind === 'harmful' ? cbar - delta : cbar;
  return churn(edit(c, kind, cbar, delta, uEdit), after, cfg.rho, uChurn);
}

/** The effective edit size: a real edit cannot exceed the wrong items, a harmful one the right ones. */
function editSize(cfg: WorldConfig, kind: Kind, cbar: number): number {
  if (kind === 'real') return Math.min(cfg.realDelta, 1 - cbar);
  if (kind === 'harmful') return Math.min(cfg.harmfulDelta, cbar);
  return 0;
}

/** Candidate t of the plan, proposed as an edit of `incumbent`. */
export function propose(plan: RunPlan, t: number, incumbent: Version, key: string): Version {
  const cfg = plan.cfg;
  const kind = plan.kinds[t]!;
  const u = plan.uniforms[t]!;
  const cbar = incumbent.acc;
  const delta = editSize(cfg, kind, cbar);
  const dev = new Uint8Array(cfg.n);
  for (let i = 0; i < cfg.n; i++) dev[i] = mutate(incumbent.dev[i]!, cbar, cfg, kind, delta, u[i]!, u[cfg.n + i]!);
  const acc = kind === 'real' ? cbar + delta : kind === 'harmful' ? cbar - delta : cbar;
  const v = finishVersion(cfg, key, kind, acc, dev, u, incumbent);
  v.derive = (parentTest) => {
    const rng = new SeededRandom(hashSeed(plan.seed, 'test', t));
    const out = new Uint8Array(parentTest.length);
    for (let i = 0; i < parentTest.length; i++) out[i] = mutate(parentTest[i]!, cbar, cfg, kind, delta, rng.next(), rng.next());
    return out;
  };
  return v;
}

/** The test-set states of a committed version (built lazily from its parent's). */
export function testStates(v: Version): Uint8Array {
  if (v.test) return v.test;
  if (!v.parent || !v.derive) throw new Error(`version ${v.key} has no test states`);
  v.test = v.derive(testStates(v.parent));
  return v.test;
}

/** True accuracy on the test set: the mean success probability over its items. */
export function testAccuracy(cfg: WorldConfig, v: Version): number {
  const test = testStates(v);
  let sum = 0;
  for (let i = 0; i < test.length; i++) sum += test[i]!;
  const anchor = cfg.noiseAnchor === 'version' ? v.acc : cfg.acc;
  return cfg.nu * anchor + (1 - cfg.nu) * (sum / test.length);
}

/** A fresh (non-canonical) evaluation of v on dev item i: greedy re-scoring and paper PACE. */
export function freshDraw(v: Version, i: number, rng: SeededRandom): number {
  const p = v.p[i]!;
  return p === 1 ? 1 : p === 0 ? 0 : rng.next() < p ? 1 : 0;
}
