// bench/answers: how Ratchet reads answers written the way real models write them (#25). Every
// answer of the corpus (test/fixtures/answers/corpus.ts) goes through the LLM layer's answer
// boundary and the parser that reads it in the product; the table says, per parser, how many were
// read as the model meant, lost (nothing read: the model is then asked again in the same chat
// where the parser allows it) or misread (a reading the model did not mean).
//   node scripts/run-ts.mjs bench/answers/main.ts [--list]
import { CORPUS, PARSERS } from '../../test/fixtures/answers/corpus';
import { readEntry } from '../../test/fixtures/answers/readings';
import type { Outcome } from '../../test/fixtures/answers/readings';

const list = process.argv.includes('--list');
const rows = PARSERS.map((parser) => {
  const entries = CORPUS.filter((e) => e.parser === parser);
  const counts: Record<Outcome, number> = { right: 0, lost: 0, misread: 0 };
  for (const e of entries) {
    const { outcome, reading } = readEntry(e);
    counts[outcome]++;
    if (list && outcome !== 'right') console.log(`${outcome}: ${parser}: ${e.name} → ${JSON.stringify(reading)}`);
  }
  return { parser, n: entries.length, ...counts };
});
const total = rows.reduce((t, r) => ({ n: t.n + r.n, right: t.right + r.right, lost: t.lost + r.lost, misread: t.misread + r.misread }), { n: 0, right: 0, lost: 0, misread: 0 });
console.log(`\nbench/answers — ${total.n} answers of the corpus, read through the answer boundary and each parser\n`);
console.log('| parser | answers | read right | lost | misread |');
console.log('|---|---|---|---|---|');
for (const r of [...rows, { parser: 'all', ...total }]) console.log(`| ${r.parser} | ${r.n} | ${r.right} | ${r.lost} | ${r.misread} |`);
