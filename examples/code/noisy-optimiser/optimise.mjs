// A stochastic optimiser: minimise a function of `dim` variables in the box [lower, upper]^dim with
// at most `budget` calls to it. evaluate.mjs runs the frozen `run()` below on the 3-dimensional
// Rastrigin function (many local minima, the global one 0 at the origin) once per random seed; the
// result depends on the seed, so every evaluation is noisy.
//
// Math.random is seeded by the evaluator for each run: use it for all randomness, and the same seed
// gives the same result.

// EVOLVE-BLOCK-START
// Hill climbing with random restarts: from a random point, try a Gaussian step and keep it when it
// is better; after 200 calls, start again somewhere else.
function minimise(f, { dim, lower, upper, budget }) {
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  const clamp = (v) => Math.min(upper, Math.max(lower, v));
  const randomPoint = () => Array.from({ length: dim }, () => lower + (upper - lower) * Math.random());
  let calls = 0;
  while (calls < budget) {
    let x = randomPoint();
    let fx = f(x);
    calls++;
    for (let i = 0; i < 200 && calls < budget; i++) {
      const y = x.map((v) => clamp(v + 0.5 * gaussian()));
      const fy = f(y);
      calls++;
      if (fy < fx) {
        x = y;
        fx = fy;
      }
    }
  }
}
// EVOLVE-BLOCK-END

/**
 * The evaluator calls this once per seed. `f` takes an array of `dim` numbers and returns a number;
 * after `budget` calls it throws. The evaluator keeps the best value `f` returned: nothing needs
 * to be returned from here.
 */
export function run(f, problem) {
  minimise(f, problem);
}
