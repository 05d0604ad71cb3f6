/** The gates (GATES.md): pure functions and small state machines that return data, never I/O. */
export * from './record';
export * from './logMath';
export * from './eprocess';
export * from './finite';
export * from './thresholds';
export * from './pace';
export * from './preflight';
export * from './incumbentCache';
export * from './greedy';
export * from './signTest';
export * from './lordpp';
export * from './pairwise';
export * from './elo';
export * from './bradleyTerry';
