// The gates the evolve benches run, each with whether its runs see labels (scored gates) or not
// (reward-free ones judge outputs pairwise): bench/evolve and bench/decisions run the same set.
export const BENCH_GATES: readonly { gate: string; labels: boolean }[] = [
  { gate: 'greedy', labels: true },
  { gate: 'pace', labels: true },
  { gate: 'pace+', labels: true },
  { gate: 'pace-rf', labels: false },
  { gate: 'pairwise', labels: false },
  { gate: 'focus', labels: false },
  { gate: 'elo', labels: false },
];
