// Writes package.json `contributes`, the run-spec schema's gate enums and the README's gates
// table from the tables; `--check` only says which are stale. scripts/generate.ts does the work.
// Usage: npm run manifest [-- --check]   (node scripts/run-ts.mjs scripts/manifest.ts)
import { manifestCommand } from './generate';

process.exitCode = manifestCommand(process.argv.slice(2), process.cwd(), console);
