/** How every face writes a wealth or threshold: the panel, and the editor's provenance hover. */

/** A wealth or threshold as a multiplier: ×20, ×3.38, ×0.0123, ×1.2e+6. */
export function formatFactor(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '0';
  if (x === 0) return '0';
  if (x >= 1e5 || x < 1e-3) return x.toExponential(1);
  if (Number.isInteger(x)) return String(x);
  return String(Number(x.toPrecision(3)));
}
