// Rewrites the files generated from the gate table (scripts/tables.ts says which and how).
// Usage: npm run gen:tables   (node scripts/run-ts.mjs scripts/genTables.ts)
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED } from './tables';

for (const { path, render } of GENERATED) {
  const before = readFileSync(path, 'utf8');
  const after = render(before);
  if (after === before) continue;
  writeFileSync(path, after);
  console.log(`wrote ${path}`);
}
