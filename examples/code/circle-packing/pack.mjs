// Circle packing: place 26 circles in the unit square without overlaps and make the sum of their
// radii as large as possible. Only the code between the EVOLVE-BLOCK markers changes; evaluate.mjs
// calls the frozen `pack()` below and checks its answer exactly.

/** How many circles the answer must have. */
export const N = 26;

// EVOLVE-BLOCK-START
// A 5 × 5 grid of centres plus one more where four grid cells meet. Each circle starts as large as
// the walls allow; then every pair that overlaps shrinks in proportion until it just touches.
function construct() {
  const centres = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 5; col++) centres.push([0.1 + 0.2 * col, 0.1 + 0.2 * row]);
  }
  centres.push([0.2, 0.2]);
  return withLargestRadii(centres);
}

// Radii only shrink, so a pair checked earlier still fits after a later pair shrinks: one pass
// leaves no overlap.
function withLargestRadii(centres) {
  const r = centres.map(([x, y]) => Math.min(x, y, 1 - x, 1 - y));
  for (let i = 0; i < centres.length; i++) {
    for (let j = i + 1; j < centres.length; j++) {
      const d = Math.hypot(centres[i][0] - centres[j][0], centres[i][1] - centres[j][1]);
      if (r[i] + r[j] > d) {
        const shrink = d / (r[i] + r[j]);
        r[i] *= shrink;
        r[j] *= shrink;
      }
    }
  }
  return centres.map(([x, y], i) => ({ x, y, r: r[i] }));
}
// EVOLVE-BLOCK-END

/** The evaluator calls this: N circles `{ x, y, r }`, each inside [0, 1]², no two overlapping. */
export function pack() {
  return construct();
}
