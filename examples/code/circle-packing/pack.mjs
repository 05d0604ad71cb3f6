// Circle packing: place 26 circles in the unit square without overlaps and make the sum of their
// radii as large as possible. Only the code between the EVOLVE-BLOCK markers changes; evaluate.mjs
// calls the frozen `pack()` below and checks its answer exactly.

/** How many circles the answer must have. */
export const N = 26;

// EVOLVE-BLOCK-START
// A 5 × 5 grid of centres plus one more where four grid cells meet; every circle gets the same
// radius, the largest one that fits (half the distance from the extra circle to its neighbours).
function construct() {
  const centres = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 5; col++) centres.push([0.1 + 0.2 * col, 0.1 + 0.2 * row]);
  }
  centres.push([0.2, 0.2]);
  const r = Math.hypot(0.1, 0.1) / 2;
  return centres.map(([x, y]) => ({ x, y, r }));
}
// EVOLVE-BLOCK-END

/** The evaluator calls this: N circles `{ x, y, r }`, each inside [0, 1]², no two overlapping. */
export function pack() {
  return construct();
}
