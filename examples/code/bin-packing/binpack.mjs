// One-dimensional bin packing: put every item into a bin so that no bin holds more than its
// capacity, using as few bins as possible. evaluate.mjs runs the frozen `solve()` below on 120
// fixed instances (instances.json) and scores each one by lower bound / bins used.

// EVOLVE-BLOCK-START
// First fit: take the items in the order given and put each into the first bin it fits in,
// opening a new bin when none has room.
function packBins(sizes, capacity) {
  const bins = [];
  const free = [];
  sizes.forEach((size, item) => {
    const b = free.findIndex((room) => room >= size);
    if (b === -1) {
      bins.push([item]);
      free.push(capacity - size);
    } else {
      bins[b].push(item);
      free[b] -= size;
    }
  });
  return bins;
}
// EVOLVE-BLOCK-END

/**
 * The evaluator calls this once per instance. Returns the bins, each an array of item indices
 * into `instance.sizes` (every index exactly once). `packBins` gets its own copy of the sizes, so
 * it may sort or modify them freely.
 */
export function solve(instance) {
  return packBins(instance.sizes.slice(), instance.capacity);
}
